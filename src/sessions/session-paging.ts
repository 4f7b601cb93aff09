/**
 * GET /v1/sessions paging and filtering: the spec's query-mode priority, the creation-date window, a
 * stable order (newest first, then id), and an opaque, tamper-evident next_token.
 *
 * The token is `base64url(JSON position) "." base64url(HMAC-SHA256)`, keyed with a secret the caller
 * passes (the platform's signing secret). It records the last session returned (creation instant and
 * id), not an offset, so sessions created between two page reads never cause duplicates or gaps, and it
 * is bound to the query it came from: replaying it with other filters is refused like a forged one.
 *
 * LIMITATIONS:
 * - Tokens do not expire.
 * - The default (sender-based) query matches sessions whose sender_user_id is the caller's sender user;
 *   in the sandbox every session of an organization has the same sender, so it equals by_organization.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { dateRange, type ListSessionsQuery } from './sessions.schemas.ts';

export type ListQueryMode = 'external_id' | 'workflow_id' | 'organization' | 'sender';

/** Query mode priority: external_id, then workflow_id, then by_organization, then sender-based. */
export function listQueryMode(query: Pick<ListSessionsQuery, 'external_id' | 'workflow_id' | 'by_organization'>): ListQueryMode {
  if (query.external_id !== undefined) return 'external_id';
  if (query.workflow_id !== undefined) return 'workflow_id';
  if (query.by_organization) return 'organization';
  return 'sender';
}

export interface ListCaller {
  organizationId: string;
  /** The caller's sender user (the default query lists the sessions it sent). */
  senderUserId: string;
}

interface Listable {
  id: string;
  organization_id: string;
  sender_user_id: string;
  created_at: string;
  external_id?: string;
  workflow_id?: string;
}

/** Whether a record belongs in the answer to `query` for `caller` (mode filter plus date window). */
export function matchesListQuery(record: Listable, query: ListSessionsQuery, caller: ListCaller): boolean {
  if (record.organization_id !== caller.organizationId) return false;
  switch (listQueryMode(query)) {
    case 'external_id':
      if (record.external_id !== query.external_id) return false;
      break;
    case 'workflow_id':
      if (record.workflow_id !== query.workflow_id) return false;
      break;
    case 'organization':
      break;
    case 'sender':
      if (record.sender_user_id !== caller.senderUserId) return false;
      break;
  }
  const { fromMs, toMs } = dateRange(query.start_date, query.end_date);
  const created = Date.parse(record.created_at);
  return created >= fromMs && created <= toMs;
}

/** What a token is bound to: the organization and every filter of the query (not limit). */
export function listQueryScope(query: ListSessionsQuery, caller: ListCaller): string {
  const mode = listQueryMode(query);
  return JSON.stringify([
    caller.organizationId,
    mode,
    mode === 'external_id' ? query.external_id : mode === 'workflow_id' ? query.workflow_id : mode === 'sender' ? caller.senderUserId : '',
    query.start_date ?? '',
    query.end_date ?? '',
  ]);
}

/** Newest first; equal instants ordered by id (descending) so the order is total and stable. */
export function compareForList(a: { id: string; created_at: string }, b: { id: string; created_at: string }): number {
  const byTime = Date.parse(b.created_at) - Date.parse(a.created_at);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

interface Position {
  /** created_at of the last item returned, epoch ms. */
  t: number;
  /** id of the last item returned. */
  i: string;
  /** Digest of the query scope. */
  q: string;
}

export type PageTokenErrorCode = 'MALFORMED' | 'TAMPERED' | 'WRONG_QUERY';

export interface PageTokenError {
  ok: false;
  code: PageTokenErrorCode;
  /** For the 400 body: names next_token and says what to do. */
  message: string;
}

const FIX = 'pass next_token exactly as returned by the previous page of the same query, or omit it to start from the first page';

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

function sign(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update('sessions-page\u0000').update(payload).digest();
}

function scopeDigest(scope: string): string {
  return createHmac('sha256', 'scope').update(scope).digest('base64url').slice(0, 16);
}

export function encodePageToken(last: { id: string; created_at: string }, secret: string, scope: string): string {
  const position: Position = { t: Date.parse(last.created_at), i: last.id, q: scopeDigest(scope) };
  const payload = b64url(JSON.stringify(position));
  return `${payload}.${b64url(sign(payload, secret))}`;
}

export function decodePageToken(token: string, secret: string, scope: string): { ok: true; position: Position } | PageTokenError {
  const parts = token.split('.');
  const malformed: PageTokenError = { ok: false, code: 'MALFORMED', message: `next_token is not a token this API issued: ${FIX}` };
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0] ?? '') || !/^[A-Za-z0-9_-]+$/.test(parts[1] ?? '')) return malformed;
  const [payload, signature] = parts as [string, string];
  // Compare the text, not decoded bytes: base64url's padding bits would let a changed character pass.
  const expected = Buffer.from(b64url(sign(payload, secret)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, code: 'TAMPERED', message: `next_token has been altered or was issued by another sandbox (its signature does not match): ${FIX}` };
  }
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return malformed;
  }
  const p = position as Partial<Position> | null;
  if (typeof p !== 'object' || p === null || typeof p.t !== 'number' || typeof p.i !== 'string' || typeof p.q !== 'string') return malformed;
  if (p.q !== scopeDigest(scope)) {
    return { ok: false, code: 'WRONG_QUERY', message: `next_token belongs to a different query (other filters or dates): ${FIX}` };
  }
  return { ok: true, position: { t: p.t, i: p.i, q: p.q } };
}

export interface PageRequest {
  limit: number;
  token?: string;
  /** HMAC key for tokens. */
  secret: string;
  /** The query the page belongs to (see listQueryScope); tokens of another scope are refused. */
  scope: string;
}

export type PageResult<T> = { ok: true; items: T[]; nextToken: string | null } | PageTokenError;

/**
 * One page of `records` (already filtered) in list order. next_token is null when nothing follows.
 */
export function paginate<T extends { id: string; created_at: string }>(records: readonly T[], request: PageRequest): PageResult<T> {
  const sorted = [...records].sort(compareForList);
  let start = 0;
  if (request.token !== undefined) {
    const decoded = decodePageToken(request.token, request.secret, request.scope);
    if (!decoded.ok) return decoded;
    const { t, i } = decoded.position;
    // The first record strictly after the last one returned, in list order.
    start = sorted.findIndex((record) => {
      const time = Date.parse(record.created_at);
      return time < t || (time === t && record.id < i);
    });
    if (start === -1) start = sorted.length;
  }
  const items = sorted.slice(start, start + request.limit);
  const last = items[items.length - 1];
  const more = start + request.limit < sorted.length;
  return { ok: true, items, nextToken: more && last !== undefined ? encodePageToken(last, request.secret, request.scope) : null };
}
