/**
 * The checks image bytes pass before any pixel is decoded: not empty, at most 15 MiB, one of the six formats
 * by their magic number, a readable header, and at most 16 megapixels by that header (a decompression bomb,
 * a tiny file whose header claims 30000 × 30000, is refused here).
 */
import { describeUnsupportedBytes, readImageHeader, sniffImageFormat, type ImageFormat } from './image-format.ts';
import { ImageInputError, SUPPORTED_FORMATS_HINT } from './image-input-error.ts';
import { IMAGE_MAX_BYTES } from '../platform/spec-limits.ts';

/** The guards. 15 MB is 15 × 1024 × 1024 bytes, the same figure the real client checks before upload. */
export const IMAGE_LIMITS = {
  /** Bytes per image: 15 MiB = 15 728 640. */
  maxBytes: IMAGE_MAX_BYTES,
  /**
   * Pixels per image, read from the header before decoding: 16 megapixels (a 12-megapixel phone photo,
   * 4032 × 3024, fits). The pixels being decoded at once never exceed this figure either (PixelBudget),
   * counted at the scale they are decoded at (a large JPEG at half its size each way or less: jpegDecodeSide).
   */
  maxPixels: 16_000_000,
  /** Wall time one decode may take in a worker before it is terminated. */
  decodeTimeoutMs: 10_000,
  /** Longer side of the working image every analysis runs on. */
  workingMaxSide: 256,
} as const;

const MB = 1024 * 1024;

function formatMegabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

/** Refuses what must not reach a decoder; returns the format and header size. Throws ImageInputError. */
export function checkImageBytes(
  bytes: Uint8Array,
  field: string,
  limits: { maxBytes: number; maxPixels: number } = IMAGE_LIMITS,
): { format: ImageFormat; width: number; height: number; pixels: number } {
  if (bytes.length === 0) {
    throw new ImageInputError('undecodable', field, `${field}: the image is empty (0 bytes)`, [
      'Send the image bytes: a multipart file part, or a base64 / base64url string, or a storage file key.',
    ]);
  }
  if (bytes.length > limits.maxBytes) {
    throw new ImageInputError(
      'too_large',
      field,
      `${field}: image is ${formatMegabytes(bytes.length)} (${bytes.length} bytes); the limit is ${formatMegabytes(limits.maxBytes)} (${limits.maxBytes} bytes) per image`,
      ['Resize or recompress the image (a face or document photo needs no more than about 2000 px on its longer side).'],
    );
  }
  const format = sniffImageFormat(bytes);
  if (!format) {
    const what = describeUnsupportedBytes(bytes);
    const hints = [SUPPORTED_FORMATS_HINT, 'The format is read from the bytes; the Content-Type label and file name are ignored.'];
    if (what === 'text that looks like base64') {
      hints.push('The file part holds base64 text: send the raw bytes in the file part, or send the base64 string in a JSON body.');
    }
    throw new ImageInputError('unsupported_format', field, `${field}: unsupported image format (${what})`, hints);
  }
  const header = readImageHeader(bytes, format);
  if (!header) {
    throw new ImageInputError('undecodable', field, `${field}: the ${format.toUpperCase()} header is truncated or malformed`, [
      'The bytes start like a ' + format.toUpperCase() + ' image but its header cannot be read: check that the upload was not cut short.',
      SUPPORTED_FORMATS_HINT,
    ]);
  }
  if (header.decodedPixels > limits.maxPixels) {
    throw new ImageInputError(
      'too_many_pixels',
      field,
      `${field}: image header declares ${header.width}×${header.height}${header.decodedPixels !== header.width * header.height ? ` (${header.decodedPixels} pixels across frames/pages)` : ''}; the limit is ${(limits.maxPixels / 1e6).toFixed(0)} megapixels`,
      [`Downscale the image to at most ${(limits.maxPixels / 1e6).toFixed(0)} megapixels (for example 2000×1500 is plenty).`],
    );
  }
  return { format, width: header.width, height: header.height, pixels: header.decodedPixels };
}
