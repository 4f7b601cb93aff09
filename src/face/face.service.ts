/**
 * Face detect, compare and age estimation on analysed pictures (src/images): every answer comes from
 * the pixels, so the same selfie sent twice matches and a blank frame never has a face.
 *
 * Compare follows the spec's table exactly: with a face on both sides, confidence is the raw 0-100
 * similarity (never exactly 0: at least 0.01) and isMatch is confidence >= threshold; with no face in
 * the source, the target or either, confidence is 0 and isMatch false. The threshold is
 * FACE_MATCH_THRESHOLD (80) unless the caller passes another.
 *
 * LIMITATIONS:
 * - See src/images: similarity is photo similarity (perceptual signature), not identity; only one face
 *   per picture; age and gender are a stable function of the picture, not learned from people.
 */
import { compareFaceSignatures, FACE_MATCH_THRESHOLD } from '../images/face-match.ts';
import type { AnalysedImage } from '../images/image-analysis.ts';
import type { SimilarityBreakdown } from '../images/perceptual-hash.ts';
import type { Explained } from '../platform/explained.ts';
import type { FaceAgeResponse, FaceCompareResponse, FaceDetectResponse } from './face.schemas.ts';

// The verdict lives in the image engine (the face registry matches with it too); the area's callers keep importing it here.
export { FACE_MATCH_THRESHOLD, MIN_FACE_SIMILARITY } from '../images/face-match.ts';

export function detectFace(image: AnalysedImage): Explained<FaceDetectResponse> {
  const face = image.face;
  if (!face) return { value: { faceDetected: false, confidence: 0 }, explanations: [image.summary] };
  return {
    value: {
      faceDetected: true,
      confidence: face.confidence,
      boundingBox: { ...face.boundingBox },
      landmarks: face.landmarks.map((landmark) => ({ ...landmark })),
    },
    explanations: [`${image.summary}${image.document ? '; face searched inside the document portrait' : ''}`],
  };
}

export interface FaceComparison extends Explained<FaceCompareResponse> {
  /** How the similarity was made (absent when a side has no face). */
  similarity?: SimilarityBreakdown;
}

export function compareFaces(source: AnalysedImage, target: AnalysedImage, threshold: number = FACE_MATCH_THRESHOLD): FaceComparison {
  const sourceFaceDetected = source.face !== null;
  const targetFaceDetected = target.face !== null;
  if (!sourceFaceDetected || !targetFaceDetected) {
    const missing = !sourceFaceDetected && !targetFaceDetected ? 'either picture' : !sourceFaceDetected ? 'source' : 'target';
    return {
      value: { isMatch: false, confidence: 0, threshold, sourceFaceDetected, targetFaceDetected },
      explanations: [`no face in ${missing} -> confidence 0 (source: ${source.summary}; target: ${target.summary})`],
    };
  }
  const { confidence, isMatch, similarity } = compareFaceSignatures(source.signature, target.signature, threshold);
  return {
    value: { isMatch, confidence, threshold, sourceFaceDetected, targetFaceDetected },
    similarity,
    explanations: [
      `face similarity ${confidence.toFixed(2)} ${isMatch ? '>=' : '<'} threshold ${threshold} ` +
        `(structure cosine ${similarity.structureCosine}, colour distance ${similarity.colourDistance}, ` +
        `phash ${source.signature.phash} vs ${target.signature.phash}: ${similarity.hashDistance} bits differ)`,
    ],
  };
}

export function estimateAge(image: AnalysedImage): Explained<FaceAgeResponse> {
  const estimate = image.ageGender;
  if (!image.face || !estimate) return { value: { faceDetected: false }, explanations: [image.summary] };
  return {
    value: {
      faceDetected: true,
      estimatedAge: estimate.age,
      ageRange: { low: estimate.low, high: estimate.high },
      gender: estimate.gender,
      genderConfidence: estimate.genderConfidence,
    },
    explanations: [
      `age ${estimate.age} (${estimate.low}-${estimate.high}) and ${estimate.gender} (${estimate.genderConfidence}) from the face signature (phash ${image.signature.phash})`,
    ],
  };
}
