/**
 * What a sequence of capture frames shows (deepfake scans, liveness re-verification): how many frames have
 * a face, how close every face is to the first one, and how many different pictures there are (one
 * picture replayed in every frame is a still, not a person). One implementation for every area that
 * judges frames.
 */
import type { AnalysedImage } from './image-analysis.ts';
import { compareSignatures } from './perceptual-hash.ts';

export interface FrameSequenceFindings {
  frames: number;
  framesWithFace: number;
  /** Mean face confidence of the frames with a face, 0-1 (0 when none has one). */
  meanFaceConfidence: number;
  /** Similarity (0-100) to the first frame of every other frame, when both have a face. */
  similaritiesToFirst: number[];
  /** The lowest of similaritiesToFirst (0 when there is none). */
  lowestSimilarity: number;
  /** Different pictures (by working pixels). */
  distinctPictures: number;
}

export function examineFrames(frames: readonly AnalysedImage[]): FrameSequenceFindings {
  const withFace = frames.filter((frame) => frame.face !== null);
  const first = frames[0];
  const similaritiesToFirst = frames
    .slice(1)
    .flatMap((frame) => (first?.face && frame.face ? [compareSignatures(first.signature, frame.signature).similarity] : []));
  return {
    frames: frames.length,
    framesWithFace: withFace.length,
    meanFaceConfidence: withFace.length === 0 ? 0 : withFace.reduce((sum, frame) => sum + (frame.face?.confidence ?? 0), 0) / withFace.length,
    similaritiesToFirst,
    lowestSimilarity: similaritiesToFirst.length === 0 ? 0 : Math.min(...similaritiesToFirst),
    distinctPictures: new Set(frames.map((frame) => frame.pixelHash)).size,
  };
}
