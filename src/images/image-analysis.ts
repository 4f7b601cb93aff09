/**
 * One analysis per decoded image, shared by every operation of a request: picture quality, whether it
 * looks like a document (and where its portrait is), the face, the perceptual signature of the face
 * region (the portrait on a document, the whole frame otherwise) and the age/gender estimate.
 * Document scan, face detect, face compare, age estimation and identity verify all read this object;
 * none of them decodes or re-analyses pixels.
 */
import { createHash } from 'node:crypto';
import type { DecodedImage } from './decoded-image.ts';
import { findDocumentLayout, type DocumentLayout } from './document-layout.ts';
import {
  estimateAgeGender,
  findFace,
  isNearUniform,
  MIN_PICTURE_SIDE,
  UNIFORMITY_THRESHOLDS,
  type AgeGenderEstimate,
  type FaceFinding,
  type PictureQuality,
} from './face-analysis.ts';
import { computeSignature, type ImageSignature } from './perceptual-hash.ts';
import { FULL_FRAME, luminance, meanAbsLaplacian, resampleRegion, standardDeviation, type NormRect } from './pixel-ops.ts';
import { round } from '../platform/numbers.ts';

export interface AnalysedImage {
  /** What was decoded (format from the bytes, size, SHA-256 of the bytes, working pixels). */
  image: DecodedImage;
  /**
   * SHA-256 (hex) of the working pixels: the seed of everything synthetic about the picture (the
   * identity on a document). Identical pixels give the identical seed, so the same picture saved
   * losslessly in another format (PNG, BMP, TIFF, GIF without palette loss) is the same person.
   */
  pixelHash: string;
  quality: PictureQuality;
  /** Low contrast or no edges (flat colour, faint noise, smooth ramp). */
  nearUniform: boolean;
  /** Narrower or lower than MIN_PICTURE_SIDE pixels. */
  tooSmall: boolean;
  /** nearUniform or tooSmall: no face, no readable document. */
  featureless: boolean;
  /** Present when the picture looks like an identity document with a portrait photo. */
  document: DocumentLayout | null;
  /** The region the face is looked for and the signature is taken from. */
  faceRegion: NormRect;
  face: FaceFinding | null;
  signature: ImageSignature;
  ageGender: AgeGenderEstimate | null;
  /** One ASCII line saying what was seen, for X-Sandbox-Explain. */
  summary: string;
}

/** What the analysis makes of a picture, the first that applies (coverage classes read this list). */
export const PICTURE_KINDS = ['too-small', 'near-uniform', 'document', 'photo'] as const;
export type PictureKind = (typeof PICTURE_KINDS)[number];

export function pictureKind(analysis: Pick<AnalysedImage, 'tooSmall' | 'nearUniform' | 'document'>): PictureKind {
  return analysis.tooSmall ? 'too-small' : analysis.nearUniform ? 'near-uniform' : analysis.document ? 'document' : 'photo';
}

const THUMB = 64;

export function measureQuality(luma: Float32Array, width: number, height: number): PictureQuality {
  const thumb = resampleRegion(luma, width, height, 1, FULL_FRAME, THUMB, THUMB);
  return { contrast: round(standardDeviation(thumb), 3), detail: round(meanAbsLaplacian(thumb, THUMB, THUMB), 3) };
}

/** Analyses a decoded image once. Pure and deterministic: same pixels, same analysis. */
export function analyseImage(image: DecodedImage): AnalysedImage {
  const working = image.working;
  const luma = luminance(working);
  const quality = measureQuality(luma, working.width, working.height);
  const nearUniform = isNearUniform(quality);
  const tooSmall = image.width < MIN_PICTURE_SIDE || image.height < MIN_PICTURE_SIDE;
  const featureless = nearUniform || tooSmall;
  const pixelHash = createHash('sha256').update(working.rgb).digest('hex');
  const document = featureless ? null : findDocumentLayout(working);
  const faceRegion = document?.portrait ?? FULL_FRAME;
  const signature = computeSignature(working, faceRegion, luma);
  const face = featureless ? null : findFace(working, luma, faceRegion, quality);
  const ageGender = face ? estimateAgeGender(signature) : null;
  const what = `${image.format.toUpperCase()} ${image.width}x${image.height}`;
  const summary = tooSmall
    ? `${what}: too small (a face or document needs at least ${MIN_PICTURE_SIDE}x${MIN_PICTURE_SIDE} px) -> no face`
    : nearUniform
      ? `${what}: near-uniform (contrast ${quality.contrast.toFixed(1)}, detail ${quality.detail.toFixed(2)}; face needs contrast >= ${UNIFORMITY_THRESHOLDS.minContrast} and detail >= ${UNIFORMITY_THRESHOLDS.minDetail}) -> no face`
      : `${what}: ${document ? 'document with portrait' : 'photo'}, face by ${face?.locator ?? 'none'} (confidence ${face?.confidence ?? 0}), phash ${signature.phash}`;
  return { image, pixelHash, quality, nearUniform, tooSmall, featureless, document, faceRegion, face, signature, ageGender, summary };
}
