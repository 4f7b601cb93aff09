/**
 * Decoding of untrusted image bytes: format from the magic number, guards before any pixel is decoded
 * (15 MB, a pixel budget read from the header), then one decode at the scale the analysis needs (codecs.cjs:
 * sharp, and jimp for BMP), area-averaged to a small copy of the pixels (the "working image"): every
 * analysis (face, hash, document) runs on it, so one decode serves every operation of a request.
 *
 * LIMITATIONS:
 * - sharp decodes on libuv's thread pool, so the event loop stays free; BMP (jimp, pure JS) decodes on the
 *   calling thread. The time budget is sharp's own stop (whole seconds) and, for every format, the elapsed
 *   time checked when the decoder returns.
 * - Arithmetic-coded and lossless JPEGs are undecodable (libjpeg-turbo builds of sharp read neither).
 */
import { createRequire } from 'node:module';
import type { RgbImage, WorkingDecode } from './codecs.cjs';
import { describeUnsupportedBytes, mimeOf, readImageHeader, sniffImageFormat, type ImageFormat } from './image-format.ts';
import { ImageInputError, SUPPORTED_FORMATS_HINT } from './image-input-error.ts';
import { IMAGE_MAX_BYTES } from '../platform/spec-limits.ts';

export type { RgbImage } from './codecs.cjs';

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

/**
 * The longer side a JPEG is decoded at, from its header alone (so the pixels, and everything seeded by them,
 * depend on the picture only): the working image's own, when the picture is at least three times larger.
 * libjpeg then skips most of the work by DCT scaling (sharp takes the largest of 1/2, 1/4, 1/8 that leaves a
 * further reduction of 1.5 or more, so none from less than threefold) and a Lanczos reduction gives the
 * working size. undefined: decoded at full size and area-averaged, as every other format is, so that lossless
 * copies of one picture keep giving the same working pixels.
 */
export function jpegDecodeSide(format: ImageFormat, width: number, height: number, workingMaxSide: number): number | undefined {
  return format === 'jpeg' && Math.max(width, height) >= 3 * workingMaxSide ? workingMaxSide : undefined;
}

/** Pixels a decode holds at its peak: a JPEG decoded by DCT scaling holds a quarter of its pixels or fewer. */
function decodedPixels(format: ImageFormat, header: { width: number; height: number; pixels: number }, workingMaxSide: number): number {
  return jpegDecodeSide(format, header.width, header.height, workingMaxSide) === undefined ? header.pixels : Math.ceil(header.pixels / 4);
}

/** One decoded image: what the bytes were, and a small RGB copy of the pixels. */
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

export interface ImageDecoderOptions {
  maxBytes?: number;
  maxPixels?: number;
  decodeTimeoutMs?: number;
  workingMaxSide?: number;
}

export interface ImageDecoder {
  /** Decodes `bytes` for request field `field`; throws only ImageInputError. */
  decode(bytes: Uint8Array, field?: string): Promise<DecodedImage>;
}

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

function undecodable(field: string, format: ImageFormat, detail: string): ImageInputError {
  const clean = detail.replace(/[^\x20-\x7e]/g, '?').slice(0, 160);
  return new ImageInputError('undecodable', field, `${field}: the ${format.toUpperCase()} image could not be decoded`, [
    `Decoder said: ${clean}`,
    'Re-export the image with a standard encoder; progressive and baseline JPEG, PNG, GIF, BMP, TIFF and WebP (still) are supported.',
  ]);
}

function decodeTimedOut(field: string, format: ImageFormat, timeoutMs: number): ImageInputError {
  return new ImageInputError('decode_timeout', field, `${field}: decoding the ${format.toUpperCase()} image took longer than ${timeoutMs} ms`, [
    'Send a smaller or simpler image (a few megapixels is plenty for faces and documents).',
  ]);
}

/**
 * Pixels being decoded at once, across requests: a decode waits until what is in flight plus its own
 * declared pixels fits the budget (one alone always runs), first come first served. With the budget equal
 * to the per-image limit, two small images decode side by side and a large one alone.
 */
class PixelBudget {
  private inFlight = 0;
  private readonly waiting: { pixels: number; start: () => void }[] = [];

  constructor(private readonly budget: number) {}

  /** The release at once when the pixels fit now (so a decode starts in the same tick), else a promise of it. */
  take(pixels: number): (() => void) | Promise<() => void> {
    if (this.waiting.length === 0 && this.fits(pixels)) {
      this.inFlight += pixels;
      return this.releaser(pixels);
    }
    return new Promise((resolve) => {
      this.waiting.push({ pixels, start: () => resolve(this.releaser(pixels)) });
      this.admit();
    });
  }

  private fits(pixels: number): boolean {
    return this.inFlight === 0 || this.inFlight + pixels <= this.budget;
  }

  private admit(): void {
    for (let next = this.waiting[0]; next && this.fits(next.pixels); next = this.waiting[0]) {
      this.waiting.shift();
      this.inFlight += next.pixels;
      next.start();
    }
  }

  private releaser(pixels: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= pixels;
      this.admit();
    };
  }
}

// ---------------------------------------------------------------------------------------------------
// Decoder
// ---------------------------------------------------------------------------------------------------

export function createImageDecoder(options: ImageDecoderOptions = {}): ImageDecoder {
  const limits = {
    maxBytes: options.maxBytes ?? IMAGE_LIMITS.maxBytes,
    maxPixels: options.maxPixels ?? IMAGE_LIMITS.maxPixels,
  };
  const timeoutMs = options.decodeTimeoutMs ?? IMAGE_LIMITS.decodeTimeoutMs;
  const maxSide = options.workingMaxSide ?? IMAGE_LIMITS.workingMaxSide;
  const budget = new PixelBudget(limits.maxPixels);

  async function runDecode(bytes: Uint8Array, field: string, format: ImageFormat, jpegSide: number | undefined): Promise<WorkingDecode> {
    const { decodeToWorking } = codecs();
    const started = performance.now();
    let result: WorkingDecode;
    try {
      result = await decodeToWorking(bytes, { format, jpegSide, maxSide, timeoutSeconds: Math.ceil(timeoutMs / 1000) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/timeout/i.test(message)) throw decodeTimedOut(field, format, timeoutMs);
      throw undecodable(field, format, message);
    }
    if (performance.now() - started > timeoutMs) throw decodeTimedOut(field, format, timeoutMs);
    return result;
  }

  return {
    async decode(bytes: Uint8Array, field = 'image'): Promise<DecodedImage> {
      const header = checkImageBytes(bytes, field, limits);
      const { format } = header;
      const ticket = budget.take(decodedPixels(format, header, maxSide));
      const release = typeof ticket === 'function' ? ticket : await ticket;
      let decoded: WorkingDecode;
      try {
        decoded = await runDecode(bytes, field, format, jpegDecodeSide(format, header.width, header.height, maxSide));
      } finally {
        release();
      }
      if (!(decoded.width > 0 && decoded.height > 0 && decoded.working.rgb.length === decoded.working.width * decoded.working.height * 3)) {
        throw undecodable(field, format, 'the decoder returned no pixels');
      }
      return { format, mime: mimeOf(format), byteLength: bytes.length, width: decoded.width, height: decoded.height, working: decoded.working };
    },
  };
}

/** The codecs (sharp's native binding, jimp), loaded on the first decode: a start that decodes nothing skips them. */
function codecs(): typeof import('./codecs.cjs') {
  return createRequire(import.meta.url)('./codecs.cjs');
}

let defaultDecoder: ImageDecoder | null = null;

/** Decodes with the process-wide decoder (default limits). */
export function decodeImage(bytes: Uint8Array, field = 'image'): Promise<DecodedImage> {
  defaultDecoder ??= createImageDecoder();
  return defaultDecoder.decode(bytes, field);
}
