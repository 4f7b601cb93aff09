/**
 * What a thread of the image pool (image-decoding.ts) does with one image that passed the header checks:
 * decode it at the scale the analysis needs (codecs.cjs) and, when asked, analyse it (image-analysis.ts), so
 * neither the pixels nor the analysis hold the server's event loop. Pure per image: the same bytes give the
 * same answer on whichever thread runs them.
 *
 * An ImageInputError cannot cross threads as itself (a structured clone keeps an Error's message only), so
 * refusals travel as plain `failure` objects that the pool's caller turns back into ImageInputErrors.
 */
import type { WorkingDecode } from './codecs.cjs';
import { analyseImage, type AnalysedImage } from './image-analysis.ts';
import type { DecodedImage } from './decoded-image.ts';
import { mimeOf, type ImageFormat } from './image-format.ts';
import { ImageInputError, type ImageInputErrorKind } from './image-input-error.ts';
import { packageOnFirstUse } from '../platform/package-on-first-use.ts';

export interface ImageTask {
  bytes: Uint8Array;
  field: string;
  format: ImageFormat;
  /** JPEG only: decode with the longer side at this many pixels (image-decoding.ts: jpegDecodeSide). */
  jpegSide: number | undefined;
  workingMaxSide: number;
  decodeTimeoutMs: number;
  /** Analyse the decoded image too (a request's path); without it the decode alone comes back. */
  analyse: boolean;
}

export interface ImageFailure {
  kind: ImageInputErrorKind;
  field: string;
  message: string;
  hints: string[];
}

export type ImageTaskResult = { image: DecodedImage; analysis?: AnalysedImage } | { failure: ImageFailure };

/**
 * The task that readies a thread before its first image (image-decoding.ts: prepareImageThread): the thread
 * starts and loads the codecs, and decodes nothing.
 */
export type PrepareThreadTask = 'prepare-thread';

// sharp's native binding and jimp, loaded by the first image a thread decodes.
const codecs = packageOnFirstUse<typeof import('./codecs.cjs')>(import.meta.url, './codecs.cjs');

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

async function decode(task: ImageTask): Promise<DecodedImage> {
  const { bytes, field, format, decodeTimeoutMs } = task;
  const started = performance.now();
  let decoded: WorkingDecode;
  try {
    decoded = await codecs().decodeToWorking(bytes, {
      format,
      jpegSide: task.jpegSide,
      maxSide: task.workingMaxSide,
      timeoutSeconds: Math.ceil(decodeTimeoutMs / 1000),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/timeout/i.test(message)) throw decodeTimedOut(field, format, decodeTimeoutMs);
    throw undecodable(field, format, message);
  }
  if (performance.now() - started > decodeTimeoutMs) throw decodeTimedOut(field, format, decodeTimeoutMs);
  if (!(decoded.width > 0 && decoded.height > 0 && decoded.working.rgb.length === decoded.working.width * decoded.working.height * 3)) {
    throw undecodable(field, format, 'the decoder returned no pixels');
  }
  return { format, mime: mimeOf(format), byteLength: bytes.length, width: decoded.width, height: decoded.height, working: decoded.working };
}

/** Analysis is pure and tested on odd sizes, but a request must never turn into a 500 because of it. */
function analyseSafely(image: DecodedImage, field: string): AnalysedImage {
  try {
    return analyseImage(image);
  } catch (error) {
    throw new ImageInputError('undecodable', field, `${field}: the ${image.format.toUpperCase()} image could not be analysed`, [
      `Analysis said: ${(error instanceof Error ? error.message : String(error)).slice(0, 160)}`,
      'This is a sandbox defect: please report it with the image.',
    ]);
  }
}

/** The pool's task (its module's default export, as piscina calls it). */
export default async function runImageTask(task: ImageTask | PrepareThreadTask): Promise<ImageTaskResult | undefined> {
  if (task === 'prepare-thread') {
    codecs();
    return undefined;
  }
  try {
    const image = await decode(task);
    return task.analyse ? { image, analysis: analyseSafely(image, task.field) } : { image };
  } catch (error) {
    if (!(error instanceof ImageInputError)) throw error;
    return { failure: { kind: error.kind, field: error.field, message: error.message, hints: error.hints } };
  }
}
