/**
 * One decoded image, as the decoder's threads hand it to the analysis: a module of its own so that the
 * decoder, its task and the analysis share the type without importing one another in a circle.
 */
import type { RgbImage } from './codecs.cjs';
import type { ImageFormat } from './image-format.ts';

/** What the bytes were, and a small RGB copy of the pixels. */
export interface DecodedImage {
  format: ImageFormat;
  mime: string;
  byteLength: number;
  /** Full size after EXIF orientation. */
  width: number;
  height: number;
  /** Area-averaged copy with the longer side at most `workingMaxSide` (never upscaled). */
  working: RgbImage;
}
