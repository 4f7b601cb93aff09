/**
 * Decoding (and analysis) of untrusted image bytes, once image-checks.ts has let them through (format, size,
 * pixels from the header): one decode at the scale the analysis needs (codecs.cjs: sharp, and jimp for BMP),
 * area-averaged to a small copy of the pixels (the "working image"): every analysis (face, hash, document)
 * runs on it, so one decode serves every operation of a request.
 *
 * Both run on a pool of worker threads (piscina; the task is image-worker.ts): analysing the pixels and
 * averaging them down cost some 10 ms of JavaScript per 1-MP picture, which on the event loop held up every
 * other request and left the second core idle. A thread is started as the first image request arrives
 * (prepareImageThread) and stops when idle.
 *
 * LIMITATIONS:
 * - The time budget is sharp's own stop (whole seconds) and, for every format, the elapsed time checked when
 *   the decoder returns; BMP (jimp, pure JavaScript) is not interrupted.
 * - Arithmetic-coded and lossless JPEGs are undecodable (libjpeg-turbo builds of sharp read neither).
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import type { AnalysedImage } from './image-analysis.ts';
import { checkImageBytes, IMAGE_LIMITS } from './image-checks.ts';
import type { ImageFormat } from './image-format.ts';
import { ImageInputError } from './image-input-error.ts';
import type { ImageTask, ImageTaskResult, PrepareThreadTask } from './image-worker.ts';

import type { DecodedImage } from './decoded-image.ts';

export type { RgbImage } from './codecs.cjs';
export type { DecodedImage } from './decoded-image.ts';

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

export interface ImageDecoderOptions {
  maxBytes?: number;
  maxPixels?: number;
  decodeTimeoutMs?: number;
  workingMaxSide?: number;
}

export interface ImageDecoder {
  /** Decodes `bytes` for request field `field`; throws only ImageInputError. */
  decode(bytes: Uint8Array, field?: string): Promise<DecodedImage>;
  /** Decodes and analyses `bytes` for request field `field` (a request's one path); throws only ImageInputError. */
  analyse(bytes: Uint8Array, field?: string): Promise<AnalysedImage>;
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

// The task each thread runs: image-worker.ts in the sources (run through tsx, as `npm run dev` and the tests
// run them); in dist/ (the server bundle gives this module its dist/ URL), image-thread.cjs, which runs the
// task bundle from kept compiled code, given as a path, which piscina requires (a URL it imports).
const IN_SOURCES = extname(fileURLToPath(import.meta.url)) === '.ts';
const TASK_FILE = IN_SOURCES ? new URL('./image-worker.ts', import.meta.url).href : fileURLToPath(new URL('./image-thread.cjs', import.meta.url));

// Required on the first image, so a start that decodes nothing never loads it, and always from node_modules,
// where piscina finds its own worker script beside its module: not packageOnFirstUse, whose packages the
// CommonJS API bundle (dist/index.cjs) takes in.
const piscina = (): typeof import('piscina') => createRequire(import.meta.url)('piscina');

let pool: Piscina | null = null;

/**
 * The process-wide pool: a thread per core up to four (each holds its own copy of the analysis code and
 * heap, some 15 MB), started on demand and stopped after 30 s idle.
 */
function imagePool(): Piscina {
  pool ??= new (piscina().Piscina)({
    filename: TASK_FILE,
    minThreads: 0,
    maxThreads: Math.min(4, availableParallelism()),
    // A thread waits on libvips (libuv's pool) for most of a decode: a second image meanwhile analyses.
    concurrentTasksPerWorker: 2,
    idleTimeout: 30_000,
    ...(IN_SOURCES ? { execArgv: ['--import', 'tsx'] } : {}),
  });
  return pool;
}

const PREPARE_THREAD: PrepareThreadTask = 'prepare-thread';
/** A thread being readied ahead of an image (prepareImageThread), until it is. */
let readying: Promise<void> | undefined;
/** Threads readied so far: the pool counts them among its completed tasks, which are no images. */
let threadsReadied = 0;

/**
 * Readies a thread when the pool runs none, as a request whose operation decodes images arrives: the
 * thread's start and sharp's load (60-90 ms of CPU) then run beside the request's own work before its first
 * image (its area's first load, reading and checking its body) rather than after it. Its images wait for
 * that thread (`run`): a task sent meanwhile would find no thread ready and start a second one.
 */
export function prepareImageThread(): void {
  if (readying !== undefined || (pool !== null && pool.threads.length > 0)) return;
  readying = imagePool()
    .run(PREPARE_THREAD)
    // The image that waits for it meets whatever failed, as its own task would have.
    .catch(() => undefined)
    .finally(() => {
      threadsReadied += 1;
      readying = undefined;
    });
}

/** How many threads the pool runs, started or starting. */
export function imageThreadsRunning(): number {
  return pool?.threads.length ?? 0;
}

/** How many images the pool's threads have decoded or analysed since the process started. */
export function imagesDoneOnThreads(): number {
  return (pool?.completed ?? 0) - threadsReadied;
}

export function createImageDecoder(options: ImageDecoderOptions = {}): ImageDecoder {
  const limits = {
    maxBytes: options.maxBytes ?? IMAGE_LIMITS.maxBytes,
    maxPixels: options.maxPixels ?? IMAGE_LIMITS.maxPixels,
  };
  const decodeTimeoutMs = options.decodeTimeoutMs ?? IMAGE_LIMITS.decodeTimeoutMs;
  const workingMaxSide = options.workingMaxSide ?? IMAGE_LIMITS.workingMaxSide;
  const budget = new PixelBudget(limits.maxPixels);

  async function run(bytes: Uint8Array, field: string, analyse: boolean): Promise<{ image: DecodedImage; analysis?: AnalysedImage }> {
    const header = checkImageBytes(bytes, field, limits);
    const { format } = header;
    const task: ImageTask = {
      bytes,
      field,
      format,
      jpegSide: jpegDecodeSide(format, header.width, header.height, workingMaxSide),
      workingMaxSide,
      decodeTimeoutMs,
      analyse,
    };
    const ticket = budget.take(decodedPixels(format, header, workingMaxSide));
    const release = typeof ticket === 'function' ? ticket : await ticket;
    let result: ImageTaskResult;
    try {
      if (readying !== undefined) await readying;
      result = await imagePool().run(task);
    } catch (error) {
      // The thread itself failed (out of memory, killed): still the client's 400, never a 500.
      throw new ImageInputError('undecodable', field, `${field}: the ${format.toUpperCase()} image could not be decoded`, [
        `Decoder said: ${(error instanceof Error ? error.message : String(error)).slice(0, 160)}`,
        'Send a smaller or simpler image (a few megapixels is plenty for faces and documents).',
      ]);
    } finally {
      release();
    }
    if ('failure' in result) throw new ImageInputError(result.failure.kind, result.failure.field, result.failure.message, result.failure.hints);
    return result;
  }

  return {
    async decode(bytes, field = 'image') {
      return (await run(bytes, field, false)).image;
    },
    async analyse(bytes, field = 'image') {
      return (await run(bytes, field, true)).analysis as AnalysedImage;
    },
  };
}

let defaultDecoder: ImageDecoder | null = null;

/** The process-wide decoder (default limits). */
export function defaultImageDecoder(): ImageDecoder {
  defaultDecoder ??= createImageDecoder();
  return defaultDecoder;
}
