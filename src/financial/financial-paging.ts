/**
 * Paging of GET /v1/financial and GET /v1/financial/externalId/{externalId}: newest first (createdAt, then
 * id, both descending: a total, stable order) and an opaque, tamper-evident `nextToken`.
 *
 * The token is `base64url(JSON position) "." base64url(HMAC-SHA256)`, keyed with the platform's signing
 * secret. It records the last record returned (creation instant and id), not an offset, so records created
 * between two page reads cause no duplicates or gaps, and it is bound to the query it came from (the
 * organization and the externalId filter): replaying it on another query is refused like a forged one.
 *
 * LIMITATIONS:
 * - Tokens do not expire.
 * - The real client sends no page size; the sandbox accepts an optional `limit` (1-100, default 10).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_FINANCIAL_PAGE_SIZE = 10;
export const MAX_FINANCIAL_PAGE_SIZE = 100;

export interface Pageable {
  id: string;
  createdAt: string;
}

/** Newest first; equal instants ordered by id, descending. */
export function compareNewestFirst(a: Pageable, b: Pageable): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** What a token is bound to. */
export function financialQueryScope(organizationId: string, externalId: string | undefined): string {
  return JSON.stringify([organizationId, externalId === undefined ? 'all' : 'externalId', externalId ?? '']);
}

interface Position {
  /** createdAt of the last record returned, epoch ms. */
  t: number;
  /** id of the last record returned. */
  i: string;
  /** Digest of the query scope. */
  q: string;
}

const FIX = 'pass nextToken exactly as returned by the previous page of the same list, or omit it to start from the first page';

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update('financial-page\u0000').update(payload).digest('base64url');
}

function scopeDigest(scope: string, secret: string): string {
  return createHmac('sha256', secret).update('financial-scope\u0000').update(scope).digest('base64url').slice(0, 16);
}

export function encodeFinancialPageToken(last: Pageable, secret: string, scope: string): string {
  const position: Position = { t: Date.parse(last.createdAt), i: last.id, q: scopeDigest(scope, secret) };
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

export type DecodedFinancialToken = { ok: true; position: Position } | { ok: false; message: string };

export function decodeFinancialPageToken(token: string, secret: string, scope: string): DecodedFinancialToken {
  const malformed = { ok: false as const, message: `query parameter "nextToken" is not a token this API issued: ${FIX}.` };
  const parts = token.split('.');
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0] ?? '') || !/^[A-Za-z0-9_-]+$/.test(parts[1] ?? '')) return malformed;
  const [payload, signature] = parts as [string, string];
  // Compare the text, not decoded bytes: base64url padding bits would let a changed last character pass.
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, message: `query parameter "nextToken" has been altered or was issued by another sandbox (its signature does not match): ${FIX}.` };
  }
  let position: Partial<Position> | null;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Position> | null;
  } catch {
    return malformed;
  }
  if (typeof position !== 'object' || position === null || typeof position.t !== 'number' || typeof position.i !== 'string' || typeof position.q !== 'string') {
    return malformed;
  }
  if (position.q !== scopeDigest(scope, secret)) {
    return { ok: false, message: `query parameter "nextToken" belongs to a different list (another organization or externalId): ${FIX}.` };
  }
  return { ok: true, position: { t: position.t, i: position.i, q: position.q } };
}

export interface FinancialPageRequest {
  limit: number;
  token?: string;
  secret: string;
  scope: string;
}

export type FinancialPage<T> = { ok: true; items: T[]; nextToken: string | null } | { ok: false; message: string };

/** One page of `records` (already filtered to the query), newest first; nextToken null when nothing follows. */
export function paginateNewestFirst<T extends Pageable>(records: readonly T[], request: FinancialPageRequest): FinancialPage<T> {
  const sorted = [...records].sort(compareNewestFirst);
  let start = 0;
  if (request.token !== undefined) {
    const decoded = decodeFinancialPageToken(request.token, request.secret, request.scope);
    if (!decoded.ok) return decoded;
    const { t, i } = decoded.position;
    // The first record strictly after the last one returned, in list order.
    start = sorted.findIndex((record) => {
      const time = Date.parse(record.createdAt);
      return time < t || (time === t && record.id < i);
    });
    if (start === -1) start = sorted.length;
  }
  const items = sorted.slice(start, start + request.limit);
  const last = items.at(-1);
  const more = start + request.limit < sorted.length;
  return { ok: true, items, nextToken: more && last !== undefined ? encodeFinancialPageToken(last, request.secret, request.scope) : null };
}
