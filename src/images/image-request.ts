/**
 * The HTTP side of the image operations, shared by their routers: which bodies are accepted, how the
 * fields are read from JSON or multipart, storage keys through the upload store, ImageInputError to the
 * `{ error, hints }` body, prices, and the decoder's life cycle on a platform.
 *
 * Order of checks in every image operation (so nothing is decoded or billed in vain):
 *   API key → Content-Type and JSON syntax (this gate) → JSON schema → documentType → funds (402)
 *   → storage keys (403) and decoding (400) → answer → charge.
 *
 * LIMITATIONS:
 * - multipart/form-data must be sent as `multipart/form-data; boundary=...` with no other parameter
 *   (the router's media-type check is that strict); anything else is a 415 with a hint.
 * - application/x-www-form-urlencoded is accepted too (strings only: base64 must then be URL-encoded).
 */
import type { z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { createMiddleware } from 'hono/factory';
import { charge, requireFunds } from '../platform/billing/billing.ts';
import { type AppContext, type AppEnv, fundsPolicyOf, noteOutcome, principalOf } from '../platform/http/context.ts';
import { ApiError, describeZodError } from '../platform/errors/api-error.ts';
import type { Explained } from '../platform/explained.ts';
import { explained } from '../platform/http/explained.ts';
import { imageErrorFact, imagePictureFacts } from './image-coverage.ts';
import { loadImages, type LoadedImage } from './image-loading.ts';
import { ImageInputError } from './image-input-error.ts';
import type { StorageKeyReader } from './image-input.ts';

/** Tokens per call. Identity verify is one call like the others: the spec prices nothing, billing is per request. */
export const IMAGE_OPERATION_PRICES = {
  documentScan: 1,
  faceDetect: 1,
  faceCompare: 1,
  faceEstimateAge: 1,
  identityVerify: 1,
} as const;

export const HOW_TO_SEND_IMAGES = [
  'Send application/json with each image as a string: base64, base64url, or a fileKey from POST /v1/upload/presign (after the PUT of its bytes).',
  'Or send multipart/form-data (Content-Type: multipart/form-data; boundary=...) with each image as a file part; its Content-Type label is ignored.',
];

// The same tests as the router's own media-type check, so this gate speaks first and with hints.
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const MULTIPART_REQUEST = /^multipart\/form-data(;\s?boundary=[a-zA-Z0-9'"()+_,\-./:=?]+)?$/i;
const URLENCODED_REQUEST = /^application\/x-www-form-urlencoded(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

export function isJsonRequest(c: AppContext): boolean {
  return JSON_REQUEST.test(c.req.header('content-type') ?? '');
}

/**
 * Route middleware of every image operation (runs after the API-key guard, before validation): refuses
 * a missing or unsupported Content-Type and malformed JSON with hints.
 */
export const imageBodyGate = createMiddleware<AppEnv>(async (c, next) => {
  const contentType = (c.req.header('content-type') ?? '').trim();
  if (contentType === '') {
    const empty = (await c.req.arrayBuffer()).byteLength === 0;
    if (empty) throw new ApiError(400, 'Invalid request: the request body is required (the image fields are missing).', { hints: HOW_TO_SEND_IMAGES });
    throw new ApiError(415, 'Unsupported Content-Type "(none)": send the body as application/json or multipart/form-data.', { hints: HOW_TO_SEND_IMAGES });
  }
  if (JSON_REQUEST.test(contentType)) {
    try {
      await c.req.json();
    } catch {
      throw new ApiError(400, 'Malformed JSON in request body: send a valid JSON object with Content-Type: application/json.', {
        hints: ['Check quotes and commas; image strings must be one JSON string each (no raw line breaks).', ...HOW_TO_SEND_IMAGES],
      });
    }
    return next();
  }
  if (MULTIPART_REQUEST.test(contentType) || URLENCODED_REQUEST.test(contentType)) return next();
  const shown = contentType.slice(0, 120);
  if (/^multipart\/form-data/i.test(contentType)) {
    throw new ApiError(
      415,
      `Unsupported Content-Type "${shown}": send multipart bodies as "multipart/form-data; boundary=<boundary>" with no other parameter.`,
      {
        hints: ['Let your HTTP library set the multipart Content-Type (FormData does); do not add charset or other parameters.', ...HOW_TO_SEND_IMAGES],
      },
    );
  }
  throw new ApiError(415, `Unsupported Content-Type "${shown}": send the body as application/json or multipart/form-data.`, {
    hints: [
      'Raw image bytes are not accepted as the whole body: wrap them in a multipart file part, or base64-encode them into a JSON string.',
      ...HOW_TO_SEND_IMAGES,
    ],
  });
});

type ValidationResult = { target: string } & ({ success: true } | { success: false; error: ZodError });

/** A validation hook answering the platform's 400 sentence plus `hints` (an image-family route's body must carry them). */
export function validationHookWithHints(hints: (target: string) => string[]) {
  return (result: ValidationResult): undefined => {
    if (!result.success) throw new ApiError(400, describeZodError(result.error, result.target), { hints: hints(result.target) });
    return undefined;
  };
}

/** Validation hook of the image operations. */
export const imageValidationHook = validationHookWithHints((target) =>
  target === 'json' ? HOW_TO_SEND_IMAGES : ['Check the parameter against the API reference at /docs.'],
);

/**
 * The validated JSON body (or {} for a multipart request). zod-openapi's types cannot express a body
 * that is JSON or multipart, so the route's own schema gives the type here.
 */
export function validatedJson<S extends z.ZodType>(c: AppContext, _schema: S): Partial<z.output<S>> {
  return ((c.req as unknown as { valid(target: 'json'): unknown }).valid('json') ?? {}) as Partial<z.output<S>>;
}

/** ImageInputError → the ApiError the error handler answers with; anything else unchanged. */
export function imageApiError(error: unknown): unknown {
  if (error instanceof ImageInputError) return new ApiError(error.status, error.message, { hints: [...error.hints] });
  return error;
}

/** Runs a step of the image layer, turning its ImageInputError into the HTTP error (and noting its kind for coverage). */
function imageStep<T>(c: AppContext, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw noteImageError(c, error);
  }
}

function noteImageError(c: AppContext, error: unknown): unknown {
  if (error instanceof ImageInputError) noteOutcome(c, imageErrorFact(error.kind));
  return imageApiError(error);
}

/**
 * The request's fields: the validated JSON body, or the named parts of a multipart (or urlencoded) body.
 * A part sent twice is a 400 (which one was meant is unknown).
 */
async function imageRequestFields<N extends string>(
  c: AppContext,
  json: Partial<Record<N, unknown>>,
  names: readonly N[],
): Promise<Partial<Record<N, unknown>>> {
  if (isJsonRequest(c)) return json;
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).replace(/[^\x20-\x7e]/g, '?').slice(0, 160);
    throw new ApiError(400, 'Malformed multipart/form-data body: it could not be parsed.', {
      hints: [`Parser said: ${detail}`, 'Check that the boundary in the Content-Type matches the body (let FormData build both).', ...HOW_TO_SEND_IMAGES],
    });
  }
  const fields: Partial<Record<N, unknown>> = {};
  for (const name of names) {
    const values = form.getAll(name);
    if (values.length > 1) {
      throw new ApiError(400, `Invalid request: form field "${name}" was sent ${values.length} times; send it once.`, { hints: HOW_TO_SEND_IMAGES });
    }
    if (values.length === 1) fields[name] = values[0];
  }
  return fields;
}

/** The calling organization's storage keys, through the upload store (403 reasons kept for the hints). */
export function storageKeyReader(c: AppContext): StorageKeyReader {
  const platform = c.get('platform');
  const world = c.get('world');
  const organizationId = principalOf(c).organization.id;
  return async (key) => {
    try {
      return (await platform.uploads.read(world, organizationId, key)).bytes;
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return { refused: error.message };
      throw error;
    }
  };
}

/** 402 unless the organization can pay `price` tokens; call before loading images. */
function requireImageFunds(c: AppContext, price: number): void {
  requireFunds(c.get('world'), principalOf(c).organization, fundsPolicyOf(c), price);
}

/**
 * Resolves and decodes the named image fields (each distinct image once, in parallel), with how each
 * was read (its reason) and what each picture is (its coverage facts). Throws ApiError 400/403 with hints.
 */
async function loadRequestImages<K extends string>(c: AppContext, fields: Record<K, unknown>): Promise<Explained<Record<K, LoadedImage>>> {
  let loaded: Record<K, LoadedImage>;
  try {
    loaded = await loadImages(fields, { readStorageKey: storageKeyReader(c) });
  } catch (error) {
    throw noteImageError(c, error);
  }
  const names = Object.keys(fields) as K[];
  return {
    value: loaded,
    explanations: names.map((name) => loaded[name].input.explanation),
    facts: names.flatMap((name) => imagePictureFacts(loaded[name].analysis)),
  };
}

export interface ImageOperation<N extends string, K extends N, P, R> {
  /** Every field the operation reads (JSON keys or form parts). */
  fields: readonly N[];
  /** The fields that hold images. */
  images: readonly K[];
  price: number;
  /** Checks of non-image fields, run before any money or decoding (e.g. documentType). */
  prepare?: (fields: Partial<Record<N, unknown>>) => P;
  run: (images: Record<K, LoadedImage>, prepared: P) => Explained<R>;
}

/**
 * The pipeline of every image operation, top to bottom: read the fields (JSON or multipart) → validate
 * the non-image ones → 402 if the balance is empty → resolve and decode each distinct image once →
 * compute → explain → charge.
 */
export async function runImageOperation<N extends string, K extends N, P, R>(
  c: AppContext,
  json: Partial<Record<N, unknown>>,
  operation: ImageOperation<N, K, P, R>,
): Promise<R> {
  const fields = await imageRequestFields(c, json, operation.fields);
  const prepared = imageStep(c, () => (operation.prepare ? operation.prepare(fields) : (undefined as P)));
  requireImageFunds(c, operation.price);
  const sources = Object.fromEntries(operation.images.map((name) => [name, fields[name]])) as Record<K, unknown>;
  const images = explained(c, await loadRequestImages(c, sources));
  const response = explained(c, operation.run(images, prepared));
  explained(c, chargeImageOperation(c, operation.price));
  return response;
}

/** Charges the call after it succeeded: the balance left, and the reason that says so. */
function chargeImageOperation(c: AppContext, price: number): Explained<number> {
  const remaining = charge(c.get('world'), principalOf(c).organization, fundsPolicyOf(c), price);
  return { value: remaining, explanations: [`billing: charged ${price} token${price === 1 ? '' : 's'} (balance ${remaining})`] };
}
