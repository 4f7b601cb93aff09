/**
 * The one call a route makes for its image fields, one path whatever the bytes came as (multipart part,
 * base64, base64url, storage key), one module a step: bytes (image-input.ts) -> size and header checks
 * (image-checks.ts) -> decode at the scale the analysis needs (image-decoding.ts, codecs.cjs) -> analysis
 * (image-analysis.ts), the last two on a worker thread (image-worker.ts). Each field is hashed once, each
 * distinct image decoded once (identical bytes in two fields are decoded once; the fields are decoded in
 * parallel) and analysed once.
 *
 * Errors are deterministic: when several fields are bad, the first one in the order the fields were
 * given is reported, whatever finished first.
 */
import { createHash } from 'node:crypto';
import type { AnalysedImage } from './image-analysis.ts';
import { defaultImageDecoder, type ImageDecoder } from './image-decoding.ts';
import { resolveImageInput, type ResolvedImageInput, type StorageKeyReader } from './image-input.ts';

export interface ImageLoadDeps {
  /** Organization-scoped storage lookup; null when the key is not readable by the caller. */
  readStorageKey: StorageKeyReader;
  /** Defaults to the process-wide decoder (default limits). */
  decoder?: ImageDecoder;
}

export interface LoadedImage {
  input: ResolvedImageInput;
  analysis: AnalysedImage;
}

async function settleInOrder<T>(tasks: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/**
 * Loads named image fields, e.g. `loadImages({ source: body.source, target: body.target }, deps)`.
 * Throws only ImageInputError.
 */
export async function loadImages<K extends string>(fields: Record<K, unknown>, deps: ImageLoadDeps): Promise<Record<K, LoadedImage>> {
  const names = Object.keys(fields) as K[];
  const inputs = await settleInOrder(names.map((name) => resolveImageInput(name, fields[name], { readStorageKey: deps.readStorageKey })));
  const decoder = deps.decoder ?? defaultImageDecoder();
  const byContent = new Map<string, Promise<AnalysedImage>>();
  const analyses = names.map((name, index) => {
    const bytes = (inputs[index] as ResolvedImageInput).bytes;
    const key = createHash('sha256').update(bytes).digest('hex');
    let pending = byContent.get(key);
    if (!pending) {
      pending = decoder.analyse(bytes, name);
      byContent.set(key, pending);
    }
    return pending;
  });
  const results = await settleInOrder(analyses);
  const out = {} as Record<K, LoadedImage>;
  names.forEach((name, index) => {
    out[name] = { input: inputs[index] as ResolvedImageInput, analysis: results[index] as AnalysedImage };
  });
  return out;
}

/** Loads one image field. */
export async function loadImage(field: string, value: unknown, deps: ImageLoadDeps): Promise<LoadedImage> {
  const loaded = await loadImages({ [field]: value } as Record<string, unknown>, deps);
  return loaded[field] as LoadedImage;
}
