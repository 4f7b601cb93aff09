import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/platform/errors/api-error.ts';
import { keysetPaging, PageTokenError } from '../../src/platform/paging/keyset-paging.ts';

const SECRET = 'test-signing-secret';
const SCOPE = 'scope-a';
const START_MS = Date.parse('2026-03-01T12:00:00.000Z');

/** Accessor names unlike either area's, so the pager is shown to use the ones it is given. */
interface Item {
  key: string;
  madeAt: string;
}

const paging = keysetPaging<Item>({
  purpose: 'things',
  tokenParam: 'page_token',
  scopeHint: 'other filters',
  idOf: (item) => item.key,
  createdAtOf: (item) => item.madeAt,
});

const FIX = 'pass page_token exactly as returned by the previous page of the same query, or omit it to start from the first page';

function item(n: number): Item {
  // Pairs share a creation instant so the id tiebreak is exercised.
  return { key: `k-${String(n).padStart(3, '0')}`, madeAt: new Date(START_MS + Math.floor(n / 2) * 1000).toISOString() };
}

function refusal(run: () => unknown): PageTokenError {
  try {
    run();
  } catch (error) {
    if (error instanceof PageTokenError) return error;
    throw error;
  }
  throw new Error('expected a PageTokenError');
}

function firstToken(count: number, limit: number): string {
  const token = paging.page(
    Array.from({ length: count }, (_, i) => item(i)),
    { limit, secret: SECRET, scope: SCOPE },
  ).nextToken;
  if (token === null) throw new Error('expected a next page');
  return token;
}

describe('keyset paging', () => {
  it('walks three pages newest first, ties by id descending, with no duplicates and no gaps', () => {
    const records = Array.from({ length: 25 }, (_, i) => item(i));
    const seen: string[] = [];
    const sizes: number[] = [];
    let token: string | undefined;
    do {
      const page = paging.page(records, { limit: 10, secret: SECRET, scope: SCOPE, ...(token === undefined ? {} : { token }) });
      seen.push(...page.items.map((r) => r.key));
      sizes.push(page.items.length);
      token = page.nextToken ?? undefined;
    } while (token !== undefined);
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => item(24 - i).key));
    expect(seen.slice(0, 3)).toEqual(['k-024', 'k-023', 'k-022']);
  });

  it('answers nextToken null when the page ends exactly at the last record, and for no records', () => {
    expect(
      paging.page(
        Array.from({ length: 10 }, (_, i) => item(i)),
        { limit: 10, secret: SECRET, scope: SCOPE },
      ).nextToken,
    ).toBeNull();
    expect(paging.page([], { limit: 10, secret: SECRET, scope: SCOPE })).toEqual({ items: [], nextToken: null });
  });

  it('neither repeats nor skips when records are created between page reads', () => {
    const records = Array.from({ length: 6 }, (_, i) => item(i));
    const first = paging.page(records, { limit: 3, secret: SECRET, scope: SCOPE });
    expect(first.items.map((r) => r.key)).toEqual(['k-005', 'k-004', 'k-003']);
    const second = paging.page([...records, item(100), item(101)], { limit: 3, secret: SECRET, scope: SCOPE, token: first.nextToken ?? '' });
    expect(second.items.map((r) => r.key)).toEqual(['k-002', 'k-001', 'k-000']);
    expect(second.nextToken).toBeNull();
  });

  it('refuses a token whose position was changed as TAMPERED, a 400 naming the parameter and the fix', () => {
    const token = firstToken(5, 2);
    const [payload, signature] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: 'k-000' })).toString('base64url');
    const error = refusal(() => paging.page([], { limit: 2, secret: SECRET, scope: SCOPE, token: `${forged}.${signature}` }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('TAMPERED');
    expect(error.problem).toBe(`page_token has been altered or was issued by another sandbox (its signature does not match): ${FIX}`);
    expect(error.message).toBe(
      `Invalid request: query parameter page_token has been altered or was issued by another sandbox (its signature does not match): ${FIX}.`,
    );
  });

  it('catches every one-character change of the signature, including base64url padding bits, and another secret', () => {
    const token = firstToken(5, 2);
    const [payload, signature] = token.split('.') as [string, string];
    const last = signature.at(-1) as string;
    for (const replacement of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.replace(last, '')) {
      expect(refusal(() => paging.decode(`${payload}.${signature.slice(0, -1)}${replacement}`, SECRET, SCOPE)).code).toBe('TAMPERED');
    }
    expect(refusal(() => paging.decode(token, 'another-secret', SCOPE)).code).toBe('TAMPERED');
  });

  it('refuses tokens it could not have issued as MALFORMED', () => {
    for (const token of ['garbage', 'a.b.c', '', '!!!.???', '.abc']) {
      const error = refusal(() => paging.decode(token, SECRET, SCOPE));
      expect(error.code, token).toBe('MALFORMED');
      expect(error.problem).toBe(`page_token is not a token this API issued: ${FIX}`);
    }
    // Correctly signed, but not a position: still MALFORMED.
    const sign = (payload: string) => createHmac('sha256', SECRET).update('things-page\u0000').update(payload).digest('base64url');
    for (const body of ['not json', '{"t":"1","i":"k","q":"x"}', 'null']) {
      const payload = Buffer.from(body).toString('base64url');
      expect(refusal(() => paging.decode(`${payload}.${sign(payload)}`, SECRET, SCOPE)).code, body).toBe('MALFORMED');
    }
  });

  it('refuses the token of another query as WRONG_QUERY and decodes it on its own query', () => {
    const token = paging.encode(item(1), SECRET, SCOPE);
    const error = refusal(() => paging.decode(token, SECRET, 'scope-b'));
    expect(error.code).toBe('WRONG_QUERY');
    expect(error.message).toBe(`Invalid request: query parameter page_token belongs to a different query (other filters): ${FIX}.`);
    expect(paging.decode(token, SECRET, SCOPE)).toMatchObject({ i: 'k-001', t: START_MS });
  });

  it('refuses the token of another list (another purpose) even with the same secret and scope', () => {
    const other = keysetPaging<Item>({ purpose: 'others', tokenParam: 'page_token', scopeHint: 'x', idOf: (i) => i.key, createdAtOf: (i) => i.madeAt });
    expect(refusal(() => other.decode(paging.encode(item(1), SECRET, SCOPE), SECRET, SCOPE)).code).toBe('TAMPERED');
  });

  it('keys the scope digest with the secret, so a token says nothing about the filters to whoever lacks it', () => {
    const a = paging.decode(paging.encode(item(1), SECRET, SCOPE), SECRET, SCOPE).q;
    const b = paging.decode(paging.encode(item(1), 'another-secret', SCOPE), 'another-secret', SCOPE).q;
    expect(a).toHaveLength(16);
    expect(a).not.toBe(b);
    expect(a).toBe(createHmac('sha256', SECRET).update(`things-scope\u0000${SCOPE}`).digest('base64url').slice(0, 16));
  });
});

describe('scope digests kept between pages', () => {
  const positionOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { q: string };
  const digestOf = (secret: string, scope: string) => createHmac('sha256', secret).update('things-scope\u0000').update(scope).digest('base64url').slice(0, 16);

  it('binds a token to the digest of its own secret and scope, however often the scope was digested before', () => {
    const last = item(7);
    for (const [secret, scope] of [
      [SECRET, SCOPE],
      ['another-secret', SCOPE],
      [SECRET, 'scope-b'],
      [SECRET, SCOPE],
    ] as const) {
      expect(positionOf(paging.encode(last, secret, scope)).q).toBe(digestOf(secret, scope));
    }
  });

  it('gives a page read again the same token, and another secret, scope or last item its own', () => {
    const token = paging.encode(item(7), SECRET, SCOPE);
    expect(paging.encode(item(7), SECRET, SCOPE)).toBe(token);
    for (const other of [paging.encode(item(7), 'another-secret', SCOPE), paging.encode(item(7), SECRET, 'scope-b'), paging.encode(item(8), SECRET, SCOPE)]) {
      expect(other).not.toBe(token);
    }
    expect(refusal(() => paging.decode(paging.encode(item(7), 'another-secret', SCOPE), SECRET, SCOPE)).code).toBe('TAMPERED');
    expect(paging.decode(paging.encode(item(8), SECRET, SCOPE), SECRET, SCOPE).i).toBe(item(8).key);
  });

  it('still refuses a token of another query once many scopes were digested', () => {
    const token = paging.encode(item(3), SECRET, SCOPE);
    for (let n = 0; n < 600; n++) paging.encode(item(n), SECRET, `scope-${n}`);
    expect(refusal(() => paging.decode(token, SECRET, 'scope-b')).code).toBe('WRONG_QUERY');
    expect(paging.decode(token, SECRET, SCOPE).i).toBe(item(3).key);
  });
});
