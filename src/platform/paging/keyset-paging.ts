/**
 * Keyset paging with opaque, tamper-evident tokens, for every list endpoint: newest first (creation instant,
 * then id, both descending: a total, stable order).
 *
 * A token is `base64url(JSON position) "." base64url(HMAC-SHA256)`, keyed with the platform's signing secret.
 * The position records the last item returned (creation instant and id), not an offset, so items created
 * between two page reads cause neither duplicates nor gaps. It also carries a digest of the query scope (the
 * organization and every filter), keyed with the same secret so the token reveals nothing about the filters:
 * replaying a token on another query is refused like a forged one. The HMAC input starts with the list's
 * `purpose`, so a token of one list is refused by another.
 *
 * A bad token throws PageTokenError (an ApiError 400) with a code: MALFORMED, TAMPERED or WRONG_QUERY.
 *
 * Stored lists read their page with `seek` from an ordered index (src/platform/store/collection.ts): the
 * token's position is a keyset seek, so a page costs the same at any store size. `page` sorts an array,
 * for the small synthetic lists.
 *
 * LIMITATIONS:
 * - Tokens do not expire.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error.ts';
import { keptAnswers } from '../kept-answers.ts';

export type PageTokenErrorCode = 'MALFORMED' | 'TAMPERED' | 'WRONG_QUERY';

/** A refused page token: 400, naming the query parameter and saying how to fix the request. */
export class PageTokenError extends ApiError {
  override name = 'PageTokenError';
  constructor(
    readonly code: PageTokenErrorCode,
    /** The sentence about the token alone, starting with the parameter's name. */
    readonly problem: string,
  ) {
    super(400, `Invalid request: query parameter ${problem}.`);
  }
}

export interface KeysetPagingOptions<T> {
  /** Which list the tokens belong to (e.g. 'sessions'); part of every HMAC input. */
  purpose: string;
  /** The query parameter that carries the token on the wire (e.g. 'next_token'), for messages. */
  tokenParam: string;
  /** What makes two queries of this list different, for the WRONG_QUERY message (e.g. 'other filters or dates'). */
  scopeHint: string;
  idOf(record: T): string;
  /** The record's creation instant, ISO 8601. */
  createdAtOf(record: T): string;
}

/** Where the previous page ended. */
export interface PagePosition {
  /** Creation instant of the last item returned, epoch ms. */
  t: number;
  /** Id of the last item returned. */
  i: string;
  /** Digest of the query scope. */
  q: string;
}

export interface PageRequest {
  limit: number;
  /** The token of the previous page; absent for the first page. */
  token?: string;
  /** HMAC key (the platform's signing secret). */
  secret: string;
  /** What the page is bound to: the organization and every filter of the query, not the page size. */
  scope: string;
}

export interface Page<T> {
  items: T[];
  /** null when nothing follows. */
  nextToken: string | null;
}

export interface KeysetPaging<T> {
  /** Newest first; equal instants ordered by id, descending. */
  compare(a: T, b: T): number;
  encode(last: T, secret: string, scope: string): string;
  /** The position a token records; throws PageTokenError. */
  decode(token: string, secret: string, scope: string): PagePosition;
  /** One page of `records` (already filtered to the query) in list order; throws PageTokenError. */
  page<R extends T>(records: readonly R[], request: PageRequest): Page<R>;
  /**
   * One page read from an ordered source: `read(after)` yields the query's records in list order, starting
   * strictly after the position (epoch ms and id of the previous page's last item), or from the first
   * without one. Reads at most limit + 1 records. Throws PageTokenError.
   */
  seek<R extends T>(read: (after: KeysetPosition | undefined) => Iterable<R>, request: PageRequest): Page<R>;
}

/** A place in list order: the creation instant (epoch ms) and id of a record. */
export interface KeysetPosition {
  value: number;
  id: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Scope digests kept per list (a few queries repeated by a client walking pages, or a test suite). */
const SCOPE_DIGESTS_KEPT = 256;
/** Next-page tokens kept per list, by secret, scope and last item (the pages clients read again). */
const PAGE_TOKENS_KEPT = 1024;

export function keysetPaging<T>(options: KeysetPagingOptions<T>): KeysetPaging<T> {
  const { purpose, tokenParam, scopeHint, idOf, createdAtOf } = options;
  const fix = `pass ${tokenParam} exactly as returned by the previous page of the same query, or omit it to start from the first page`;

  const sign = (payload: string, secret: string): string => createHmac('sha256', secret).update(`${purpose}-page\u0000`).update(payload).digest('base64url');
  // Every page of a list digests its query's scope: the digests of recent (secret, scope) pairs are kept.
  const digests = keptAnswers<string>(SCOPE_DIGESTS_KEPT);
  const scopeDigest = (scope: string, secret: string): string =>
    digests(`${secret}\u0000${scope}`, () => createHmac('sha256', secret).update(`${purpose}-scope\u0000`).update(scope).digest('base64url').slice(0, 16));
  const malformed = () => new PageTokenError('MALFORMED', `${tokenParam} is not a token this API issued: ${fix}`);

  const compare = (a: T, b: T): number => {
    const byTime = Date.parse(createdAtOf(b)) - Date.parse(createdAtOf(a));
    if (byTime !== 0) return byTime;
    const [ia, ib] = [idOf(a), idOf(b)];
    return ia < ib ? 1 : ia > ib ? -1 : 0;
  };

  // A page read again (a client polling the same list) ends at the same item: its token is kept, not signed again.
  const tokens = keptAnswers<string>(PAGE_TOKENS_KEPT);
  const encode = (last: T, secret: string, scope: string): string => {
    const [t, i] = [Date.parse(createdAtOf(last)), idOf(last)];
    return tokens(JSON.stringify([secret, scope, t, i]), () => {
      const position: PagePosition = { t, i, q: scopeDigest(scope, secret) };
      const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
      return `${payload}.${sign(payload, secret)}`;
    });
  };

  const decode = (token: string, secret: string, scope: string): PagePosition => {
    const parts = token.split('.');
    if (parts.length !== 2 || !BASE64URL.test(parts[0] ?? '') || !BASE64URL.test(parts[1] ?? '')) throw malformed();
    const [payload, signature] = parts as [string, string];
    // Compare the text, not decoded bytes: base64url's padding bits would let a changed last character pass.
    const expected = Buffer.from(sign(payload, secret));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new PageTokenError('TAMPERED', `${tokenParam} has been altered or was issued by another sandbox (its signature does not match): ${fix}`);
    }
    let position: Partial<PagePosition> | null;
    try {
      position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<PagePosition> | null;
    } catch {
      throw malformed();
    }
    if (
      typeof position !== 'object' ||
      position === null ||
      typeof position.t !== 'number' ||
      typeof position.i !== 'string' ||
      typeof position.q !== 'string'
    ) {
      throw malformed();
    }
    if (position.q !== scopeDigest(scope, secret)) {
      throw new PageTokenError('WRONG_QUERY', `${tokenParam} belongs to a different query (${scopeHint}): ${fix}`);
    }
    return { t: position.t, i: position.i, q: position.q };
  };

  const seek = <R extends T>(read: (after: KeysetPosition | undefined) => Iterable<R>, request: PageRequest): Page<R> => {
    let after: KeysetPosition | undefined;
    if (request.token !== undefined) {
      const { t, i } = decode(request.token, request.secret, request.scope);
      after = { value: t, id: i };
    }
    const items: R[] = [];
    let more = false;
    for (const record of read(after)) {
      if (items.length === request.limit) {
        more = true;
        break;
      }
      items.push(record);
    }
    const last = items.at(-1);
    return { items, nextToken: more && last !== undefined ? encode(last, request.secret, request.scope) : null };
  };

  const page = <R extends T>(records: readonly R[], request: PageRequest): Page<R> => {
    const sorted = [...records].sort(compare);
    return seek((after) => {
      if (after === undefined) return sorted;
      // The first record strictly after the position, in list order.
      const start = sorted.findIndex((record) => {
        const time = Date.parse(createdAtOf(record));
        return time < after.value || (time === after.value && idOf(record) < after.id);
      });
      return start === -1 ? [] : sorted.slice(start);
    }, request);
  };

  return { compare, encode, decode, page, seek };
}
