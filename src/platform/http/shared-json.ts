/**
 * JSON answers built once and sent to many requests (a sandbox fixture filled for an organization): their
 * text is kept beside them, so each read sends the same bytes without serializing the same tree again.
 * Only a value that is never changed after it is shared belongs here.
 */
import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { AppContext } from './context.ts';

const texts = new WeakMap<object, string>();

/** Marks `body` as shared and unchanging, serializes it once, and returns it (for `sendJson`). */
export function shareJson<T extends object>(body: T): T {
  if (!texts.has(body)) texts.set(body, JSON.stringify(body));
  return body;
}

/** `c.json(body, status)`, with the kept text of a shared body (the same bytes and headers). */
export function sendJson<T extends object, S extends 200 | 201>(c: AppContext, body: T, status: S): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const text = texts.get(body);
  if (text === undefined) return c.json(body, status);
  return c.body(text, status, { 'Content-Type': 'application/json' }) as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
