/**
 * Face compare's verdict on two face signatures, shared by every area that matches faces (face compare,
 * identity verify, the workflow steps, deepfake analysis) and by the face registry, so one threshold and
 * one similarity decide a match everywhere.
 */
import { compareSignatures, type ImageSignature, type SimilarityBreakdown } from './perceptual-hash.ts';

/** Server-side match threshold of face compare (0-100). */
export const FACE_MATCH_THRESHOLD = 80;

/** The least confidence reported when both pictures have a face (the spec's "greater than 0"). */
export const MIN_FACE_SIMILARITY = 0.01;

/** The 0-100 confidence face compare reports for two face signatures and whether it reaches the threshold. */
export function compareFaceSignatures(
  source: ImageSignature,
  target: ImageSignature,
  threshold: number = FACE_MATCH_THRESHOLD,
): { confidence: number; isMatch: boolean; similarity: SimilarityBreakdown } {
  const similarity = compareSignatures(source, target);
  const confidence = Math.max(MIN_FACE_SIMILARITY, similarity.similarity);
  return { confidence, isMatch: confidence >= threshold, similarity };
}
