/**
 * Decoding of untrusted image bytes: format from the magic number, guards before any pixel is decoded
 * (15 MB, a pixel budget read from the header), then jimp's decoders in a worker thread that is killed
 * when it exceeds the decode time budget. The result keeps only a small downscaled copy of the pixels
 * (the "working image"): every analysis (face, hash, document) runs on it, so one decode serves every
 * operation of a request.
 *
 * LIMITATIONS:
 * - Decoders are jimp's pure-JS ones (jpeg-js, as reorganised in jpeg-decoder.mjs, pngjs, omggif, bmp-ts,
 *   utif2) plus the WebP wasm codec; a 1-megapixel JPEG takes ~50-100 ms of CPU to decode and downscale.
 *   Arithmetic-coded and lossless JPEGs are undecodable.
 * - With `workers: 0` (inline mode) decoding runs on the calling thread and the time budget is checked
 *   only after the decoder returns.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RgbImage, WorkingDecode } from './codecs.mjs';
import { describeUnsupportedBytes, mimeOf, readImageHeader, sniffImageFormat, type ImageFormat } from './image-format.ts';
import { ImageInputError, SUPPORTED_FORMATS_HINT } from './image-input-error.ts';
import { IMAGE_MAX_BYTES } from '../platform/spec-limits.ts';

export type { RgbImage } from './codecs.mjs';

/** The guards. 15 MB is 15 × 1024 × 1024 bytes, the same figure the real client checks before upload. */
export const IMAGE_LIMITS = {
  /** Bytes per image: 15 MiB = 15 728 640. */
  maxBytes: IMAGE_MAX_BYTES,
  /**
   * Decoded pixels per image, read from the header before decoding: 16 megapixels (a 12-megapixel phone
   * photo, 4000 × 4000, fits). A decode holds about 12 bytes per pixel at its peak (RGBA plus the codec's
   * copies), so 16 megapixels is about 200 MB, and the pixels being decoded at once never exceed this
   * figure either (PixelBudget): a process stays under 400 MB whatever arrives in parallel. (Each decoding
   * thread also keeps up to 15 MiB of a JPEG decode's arrays for its next one: see jpeg-decoder.mjs.)
   */
  maxPixels: 16_000_000,
  /** Wall time one decode may take in a worker before it is terminated. */
  decodeTimeoutMs: 10_000,
  /** Longer side of the working image every analysis runs on. */
  workingMaxSide: 256,
} as const;

/** One decoded image: what the bytes were, and a small RGB copy of the pixels. */
export interface DecodedImage {
  format: ImageFormat;
  mime: string;
  byteLength: number;
  /** Full size after EXIF orientation. */
  width: number;
  height: number;
  /** SHA-256 of the bytes, hex: identical bytes give the identical image everywhere. */
  sha256: string;
  /** Area-averaged copy with the longer side at most `workingMaxSide` (never upscaled). */
  working: RgbImage;
}

export interface ImageDecoderOptions {
  maxBytes?: number;
  maxPixels?: number;
  decodeTimeoutMs?: number;
  workingMaxSide?: number;
  /** Worker threads (default: min(2, CPUs)); 0 decodes on the calling thread. */
  workers?: number;
}

export interface ImageDecoder {
  /** Decodes `bytes` for request field `field`; throws only ImageInputError. */
  decode(bytes: Uint8Array, field?: string): Promise<DecodedImage>;
  /** Starts every worker and loads the codecs (call at server start; the first request is then fast). */
  warmUp(): Promise<void>;
  /** Terminates the worker threads (idle workers never keep the process alive anyway). */
  close(): Promise<void>;
}

// 1×1 PNG and 1×1 lossless WebP: enough to load jimp and compile the WebP wasm in each worker.
const WARM_UP_IMAGES = [
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==',
].map((b64) => new Uint8Array(Buffer.from(b64, 'base64')));

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

// ---------------------------------------------------------------------------------------------------
// Worker pool
// ---------------------------------------------------------------------------------------------------

interface Job {
  id: number;
  bytes: Uint8Array;
  resolve: (value: WorkingDecode) => void;
  reject: (reason: { timeout: true } | { message: string }) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

class DecodePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly timeoutMs: number,
    private readonly maxSide: number,
    private readonly maxMegapixels: number,
  ) {}

  run(bytes: Uint8Array): Promise<WorkingDecode> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size && !this.closed) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      this.start(slot, job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./decode-worker.mjs', import.meta.url));
    const slot: Slot = { worker, job: null, timer: null };
    worker.unref();
    worker.on('message', (message: { id: number; ok: boolean; message?: string } & WorkingDecode) => {
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      this.finish(slot);
      if (message.ok) job.resolve({ width: message.width, height: message.height, mime: message.mime, working: message.working });
      else job.reject({ message: message.message ?? 'unknown decoder error' });
    });
    const onDeath = (reason: string) => {
      const job = slot.job;
      this.remove(slot);
      if (job) job.reject({ message: reason });
      this.pump();
    };
    worker.on('error', (error) => onDeath(error instanceof Error ? error.message : String(error)));
    worker.on('exit', (code) => onDeath(`decoder worker exited with code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      // Synchronous decoders cannot be interrupted: the only way to stop one is to end its thread.
      this.remove(slot);
      void slot.worker.terminate();
      job.reject({ timeout: true });
      this.pump();
    }, this.timeoutMs);
    slot.worker.postMessage({ id: job.id, bytes: job.bytes, maxSide: this.maxSide, maxMegapixels: this.maxMegapixels });
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    queueMicrotask(() => this.pump());
  }

  private remove(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }
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
  // jpeg-js has its own resolution guard; keep it a little above ours so ours speaks first.
  const maxMegapixels = Math.ceil(limits.maxPixels / 1e6) + 1;
  const workers = options.workers ?? Math.max(1, Math.min(2, availableParallelism()));
  let pool: DecodePool | null = workers > 0 ? new DecodePool(workers, timeoutMs, maxSide, maxMegapixels) : null;
  const budget = new PixelBudget(limits.maxPixels);

  async function runDecode(bytes: Uint8Array, field: string, format: ImageFormat): Promise<WorkingDecode> {
    if (pool) {
      try {
        return await pool.run(bytes);
      } catch (reason) {
        if (reason && typeof reason === 'object' && 'timeout' in reason) throw decodeTimedOut(field, format, timeoutMs);
        const message = reason && typeof reason === 'object' && 'message' in reason ? String(reason.message) : String(reason);
        throw undecodable(field, format, message);
      }
    }
    // The codecs (jimp and its dependency tree) load on the first inline decode; a pool loads them in its workers.
    const { decodeToWorking } = await import('./codecs.mjs');
    const started = performance.now();
    let result: WorkingDecode;
    try {
      result = await decodeToWorking(bytes, { maxSide, maxMegapixels });
    } catch (error) {
      throw undecodable(field, format, error instanceof Error ? error.message : String(error));
    }
    if (performance.now() - started > timeoutMs) throw decodeTimedOut(field, format, timeoutMs);
    return result;
  }

  return {
    async decode(bytes: Uint8Array, field = 'image'): Promise<DecodedImage> {
      const { format, pixels } = checkImageBytes(bytes, field, limits);
      const ticket = budget.take(pixels);
      const release = typeof ticket === 'function' ? ticket : await ticket;
      let decoded: WorkingDecode;
      try {
        decoded = await runDecode(bytes, field, format);
      } finally {
        release();
      }
      if (!(decoded.width > 0 && decoded.height > 0 && decoded.working.rgb.length === decoded.working.width * decoded.working.height * 3)) {
        throw undecodable(field, format, 'the decoder returned no pixels');
      }
      return {
        format,
        mime: mimeOf(format),
        byteLength: bytes.length,
        width: decoded.width,
        height: decoded.height,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        working: decoded.working,
      };
    },
    async warmUp(): Promise<void> {
      const current = pool;
      if (!current) return;
      const jobs: Promise<unknown>[] = [];
      for (let i = 0; i < workers; i++) {
        for (const bytes of WARM_UP_IMAGES) jobs.push(current.run(bytes).catch(() => undefined));
      }
      await Promise.all(jobs);
    },
    async close(): Promise<void> {
      const current = pool;
      pool = null;
      if (current) await current.close();
    },
  };
}

let defaultDecoder: ImageDecoder | null = null;

/** Decodes with the process-wide decoder (default limits, worker pool created on first use). */
export function decodeImage(bytes: Uint8Array, field = 'image'): Promise<DecodedImage> {
  defaultDecoder ??= createImageDecoder();
  return defaultDecoder.decode(bytes, field);
}

/** Starts the process-wide decoder's workers ahead of the first request. */
export function warmUpDefaultImageDecoder(): Promise<void> {
  defaultDecoder ??= createImageDecoder();
  return defaultDecoder.warmUp();
}

/** Stops the process-wide decoder's workers (for graceful shutdown; the next decode starts a new pool). */
export async function closeDefaultImageDecoder(): Promise<void> {
  const current = defaultDecoder;
  defaultDecoder = null;
  if (current) await current.close();
}

let defaultDecoderHolders = 0;

/**
 * Declares a user of the process-wide decoder (a running sandbox). The returned release function closes
 * the worker pool when the last holder lets go, so one sandbox closing never stops another's decodes
 * (several in-process sandboxes share the pool). Releasing twice is harmless.
 */
export function holdDefaultImageDecoder(): () => Promise<void> {
  defaultDecoderHolders += 1;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    defaultDecoderHolders -= 1;
    if (defaultDecoderHolders === 0) await closeDefaultImageDecoder();
  };
}
