/**
 * Decoding of untrusted image bytes, once image-checks.ts has let them through (format, size, pixels from the
 * header): one decode at the scale the analysis needs (codecs.cjs: sharp, and jimp for BMP), area-averaged to
 * a small copy of the pixels (the "working image"): every analysis (face, hash, document) runs on it, so one
 * decode serves every operation of a request.
 *
 * LIMITATIONS:
 * - sharp decodes on libuv's thread pool, so the event loop stays free; BMP (jimp, pure JS) decodes on the
 *   calling thread. The time budget is sharp's own stop (whole seconds) and, for every format, the elapsed
 *   time checked when the decoder returns.
 * - Arithmetic-coded and lossless JPEGs are undecodable (libjpeg-turbo builds of sharp read neither).
 */
import { createRequire } from 'node:module';
import type { RgbImage, WorkingDecode } from './codecs.cjs';
import { checkImageBytes, IMAGE_LIMITS } from './image-checks.ts';
import { mimeOf, type ImageFormat } from './image-format.ts';
import { ImageInputError } from './image-input-error.ts';

export type { RgbImage } from './codecs.cjs';

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
