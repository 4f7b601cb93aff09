import { describe, expect, it } from 'vitest';
import {
  compareForList,
  decodePageToken,
  encodePageToken,
  listQueryMode,
  listQueryScope,
  matchesListQuery,
  paginate,
} from '../../src/sessions/session-paging.ts';
import { ListSessionsQuerySchema, type SessionRecord } from '../../src/sessions/sessions.schemas.ts';
import { addMs, NOW } from './helpers.ts';

const SECRET = 'test-signing-secret';
const SCOPE = 'scope-a';

function session(n: number, overrides: Partial<SessionRecord> = {}): SessionRecord {
  // Pairs share a creation instant so the id tiebreak is exercised.
  const created = addMs(NOW, Math.floor(n / 2) * 1000);
  return {
    id: `s-${String(n).padStart(3, '0')}`,
    organization_id: 'org_demo',
    user_id: 'u',
    sender_user_id: 'sender-1',
    status: 'PENDING',
    type: 'session',
    session_progress: 'PENDING',
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

describe('paging', () => {
  it('walks three pages newest first with no duplicates and no gaps', () => {
    const records = Array.from({ length: 25 }, (_, i) => session(i));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = paginate(records, { limit: 10, secret: SECRET, scope: SCOPE, ...(token === undefined ? {} : { token }) });
      if (!page.ok) throw new Error(page.message);
      seen.push(...page.items.map((r) => r.id));
      token = page.nextToken ?? undefined;
      pages++;
      expect(page.items.length).toBe(pages < 3 ? 10 : 5);
    } while (token !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual([...records].sort(compareForList).map((r) => r.id));
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe('s-024');
    expect(seen.slice(0, 3)).toEqual(['s-024', 's-023', 's-022']);
  });

  it('answers next_token null when the page ends exactly at the last record', () => {
    const page = paginate(Array.from({ length: 10 }, (_, i) => session(i)), { limit: 10, secret: SECRET, scope: SCOPE });
    expect(page.ok && page.nextToken).toBeNull();
    const empty = paginate([], { limit: 10, secret: SECRET, scope: SCOPE });
    expect(empty).toEqual({ ok: true, items: [], nextToken: null });
  });

  it('neither repeats nor skips when sessions are created between page reads', () => {
    const records = Array.from({ length: 6 }, (_, i) => session(i));
    const first = paginate(records, { limit: 3, secret: SECRET, scope: SCOPE });
    if (!first.ok || first.nextToken === null) throw new Error('expected a next page');
    const newer = [...records, session(100), session(101)];
    const second = paginate(newer, { limit: 3, secret: SECRET, scope: SCOPE, token: first.nextToken });
    expect(second.ok && second.items.map((r) => r.id)).toEqual(['s-002', 's-001', 's-000']);
  });

  it('detects a tampered token', () => {
    const first = paginate(Array.from({ length: 5 }, (_, i) => session(i)), { limit: 2, secret: SECRET, scope: SCOPE });
    if (!first.ok || first.nextToken === null) throw new Error('expected a token');
    const [payload, signature] = first.nextToken.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: 's-000' })).toString('base64url');
    expect(paginate([], { limit: 2, secret: SECRET, scope: SCOPE, token: `${forged}.${signature}` })).toEqual({
      ok: false,
      code: 'TAMPERED',
      message: 'next_token has been altered or was issued by another sandbox (its signature does not match): pass next_token exactly as returned by the previous page of the same query, or omit it to start from the first page',
    });
    // Every one-character change of the signature is caught, including base64url padding bits.
    const last = signature.at(-1) as string;
    for (const replacement of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.replace(last, '')) {
      expect(decodePageToken(`${payload}.${signature.slice(0, -1)}${replacement}`, SECRET, SCOPE)).toMatchObject({ ok: false, code: 'TAMPERED' });
    }
    expect(decodePageToken(first.nextToken, 'another-secret', SCOPE)).toMatchObject({ ok: false, code: 'TAMPERED' });
  });

  it('refuses malformed tokens and tokens of another query', () => {
    for (const token of ['garbage', 'a.b.c', '', '!!!.???']) {
      expect(decodePageToken(token, SECRET, SCOPE)).toMatchObject({ ok: false, code: 'MALFORMED' });
    }
    const token = encodePageToken(session(1), SECRET, SCOPE);
    expect(decodePageToken(token, SECRET, 'scope-b')).toMatchObject({ ok: false, code: 'WRONG_QUERY' });
    expect(decodePageToken(token, SECRET, SCOPE)).toMatchObject({ ok: true, position: { i: 's-001', t: Date.parse(session(1).created_at) } });
  });
});

describe('list query', () => {
  const caller = { organizationId: 'org_demo', senderUserId: 'sender-1' };
  const parse = (query: Record<string, string>) => ListSessionsQuerySchema.parse(query);

  it('picks the mode by the spec priority: external_id, workflow_id, by_organization, sender', () => {
    expect(listQueryMode(parse({ external_id: 'x', workflow_id: 'w', by_organization: 'true' }))).toBe('external_id');
    expect(listQueryMode(parse({ workflow_id: 'w', by_organization: 'true' }))).toBe('workflow_id');
    expect(listQueryMode(parse({ by_organization: 'true' }))).toBe('organization');
    expect(listQueryMode(parse({}))).toBe('sender');
  });

  it('filters by mode, organization and creation window', () => {
    const records = [
      session(0, { external_id: 'x', workflow_id: 'w' }),
      session(2, { sender_user_id: 'sender-2', workflow_id: 'w' }),
      session(4, { organization_id: 'org_other' }),
      session(6, { external_id: 'y' }),
    ];
    const ids = (query: Record<string, string>) => records.filter((r) => matchesListQuery(r, parse(query), caller)).map((r) => r.id);
    expect(ids({})).toEqual(['s-000', 's-006']);
    expect(ids({ by_organization: 'true' })).toEqual(['s-000', 's-002', 's-006']);
    expect(ids({ external_id: 'x', workflow_id: 'nope' })).toEqual(['s-000']);
    expect(ids({ workflow_id: 'w' })).toEqual(['s-000', 's-002']);
    expect(ids({ by_organization: 'true', start_date: addMs(NOW, 1000), end_date: addMs(NOW, 2000) })).toEqual(['s-002']);
    expect(ids({ by_organization: 'true', end_date: NOW.slice(0, 10) })).toEqual(['s-000', 's-002', 's-006']);
  });

  it('binds tokens to the filters but not to the limit', () => {
    const a = listQueryScope(parse({ by_organization: 'true', limit: '5' }), caller);
    expect(listQueryScope(parse({ by_organization: 'true', limit: '50' }), caller)).toBe(a);
    expect(listQueryScope(parse({ by_organization: 'true', start_date: '2026-01-01' }), caller)).not.toBe(a);
    expect(listQueryScope(parse({}), caller)).not.toBe(a);
    expect(listQueryScope(parse({ by_organization: 'true' }), { ...caller, organizationId: 'org_other' })).not.toBe(a);
  });
});
