/** Test helpers: images generated per test from seeds (jimp + rngFrom), decoded with a real decoder. */
import { Jimp } from 'jimp';
import { analyseImage, type AnalysedImage } from '../../src/images/image-analysis.ts';
import { createImageDecoder, type ImageDecoder } from '../../src/images/image-decoding.ts';
import type { ImageFormat } from '../../src/images/image-format.ts';
import {
  drawBlankFrame,
  drawSyntheticDocument,
  drawSyntheticFace,
  encodeImage,
  type HasBitmap,
  type SyntheticDocumentKind,
} from '../../src/images/synthetic-images.ts';

export const ALL_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff', 'webp'];

/** A decoder of the test's own, with the default limits. */
export function inlineDecoder(): ImageDecoder {
  return createImageDecoder();
}

export async function analyseBytes(decoder: ImageDecoder, bytes: Uint8Array, field = 'image'): Promise<AnalysedImage> {
  return analyseImage(await decoder.decode(bytes, field));
}

export async function faceBytes(seed: string, format: ImageFormat = 'jpeg', width = 160, height = 200, quality = 85): Promise<Buffer> {
  return encodeImage(drawSyntheticFace(seed, width, height), format, { quality });
}

export async function blankBytes(format: ImageFormat = 'png', colour: readonly [number, number, number] = [236, 236, 236], noise = 0): Promise<Buffer> {
  return encodeImage(drawBlankFrame(120, 150, colour, noise), format);
}

export async function documentBytes(kind: SyntheticDocumentKind, seed: string, portraitSeed: string): Promise<Buffer> {
  return encodeImage(await drawSyntheticDocument(kind, seed, drawSyntheticFace(portraitSeed, 280, 350)), 'jpeg', { quality: 80 });
}

/** A picture whose every pixel is computed by `paint(x, y)` → [r, g, b]. */
export function paintedImage(width: number, height: number, paint: (x: number, y: number) => readonly [number, number, number]): HasBitmap {
  const image = new Jimp({ width, height, color: 0xffffffff });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      const i = (y * width + x) * 4;
      image.bitmap.data[i] = r;
      image.bitmap.data[i + 1] = g;
      image.bitmap.data[i + 2] = b;
    }
  }
  return image;
}

/** Crop a fraction off each side given, then re-encode. */
export async function croppedBytes(
  seed: string,
  fractions: { left?: number; top?: number; right?: number; bottom?: number },
  format: ImageFormat = 'jpeg',
): Promise<Buffer> {
  const face = drawSyntheticFace(seed, 160, 200);
  const x = Math.round(160 * (fractions.left ?? 0));
  const y = Math.round(200 * (fractions.top ?? 0));
  const w = 160 - x - Math.round(160 * (fractions.right ?? 0));
  const h = 200 - y - Math.round(200 * (fractions.bottom ?? 0));
  return encodeImage(face.clone().crop({ x, y, w, h }), format);
}

export async function resizedBytes(seed: string, scale: number, format: ImageFormat = 'jpeg'): Promise<Buffer> {
  const face = drawSyntheticFace(seed, 160, 200);
  return encodeImage(face.clone().resize({ w: Math.round(160 * scale), h: Math.round(200 * scale) }), format);
}
