/**
 * JSON answers built once and sent to many requests (a sandbox fixture filled for an organization): their
 * UTF-8 bytes are kept beside them, so each read sends the same bytes without serializing the same tree
 * again, nor encoding the same text (the server writes bytes as they are, and a string joined to the
 * head of the response first). Only a value that is never changed after it is shared belongs here.
 */
import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { AppContext } from './context.ts';

const keptBytes = new WeakMap<object, Uint8Array<ArrayBuffer>>();
/** The kept bytes themselves, for `isSharedJsonBytes`. */
const sharedBytes = new WeakSet<Uint8Array>();

/** Marks `body` as shared and unchanging, serializes it once, and returns it (for `sendJson`). */
export function shareJson<T extends object>(body: T): T {
  if (!keptBytes.has(body)) {
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    keptBytes.set(body, bytes);
    sharedBytes.add(bytes);
  }
  return body;
}

/**
 * Whether `bytes` are a shared body's kept bytes: never changed, and well-formed UTF-8 without a
 * byte-order mark (JSON text, which escapes lone surrogates, encoded), so their text's UTF-8 size is their
 * length, known without scanning them on every answer that sends them.
 */
export function isSharedJsonBytes(bytes: Uint8Array): boolean {
  return sharedBytes.has(bytes);
}

/** `c.json(body, status)`, with the kept bytes of a shared body (the same bytes and headers). */
export function sendJson<T extends object, S extends 200 | 201>(c: AppContext, body: T, status: S): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const bytes = keptBytes.get(body);
  if (bytes === undefined) return c.json(body, status);
  return sendJsonText<T, S>(c, bytes, status);
}

/** `c.json` of a `T` already written as JSON text (or its UTF-8 bytes): the same bytes and headers. */
export function sendJsonText<T, S extends 200 | 201>(
  c: AppContext,
  json: string | Uint8Array<ArrayBuffer>,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  return c.body(json, status, { 'Content-Type': 'application/json' }) as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
