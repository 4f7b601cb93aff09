import { describe, expect, it } from 'vitest';
import { listQueryFilter, listQueryMode, listQueryScope, sessionPaging } from '../../src/sessions/session-paging.ts';
import { ListSessionsQuerySchema, type SessionRecord } from '../../src/sessions/sessions.schemas.ts';
import { addMs, NOW } from './helpers.ts';

const SECRET = 'test-signing-secret';

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
    const ids = (query: Record<string, string>) => records.filter(listQueryFilter(parse(query), caller)).map((r) => r.id);
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

  it('refuses, through the sessions pager, a next_token replayed with other filters', () => {
    const records = [session(0), session(2), session(4)];
    const scopeOf = (query: Record<string, string>) => listQueryScope(parse(query), caller);
    const first = sessionPaging.page(records, { limit: 1, secret: SECRET, scope: scopeOf({ by_organization: 'true' }) });
    expect(first.items.map((r) => r.id)).toEqual(['s-004']);
    const token = first.nextToken ?? '';
    expect(
      sessionPaging.page(records, { limit: 1, secret: SECRET, scope: scopeOf({ by_organization: 'true', limit: '9' }), token }).items.map((r) => r.id),
    ).toEqual(['s-002']);
    expect(() =>
      sessionPaging.page(records, { limit: 1, secret: SECRET, scope: scopeOf({ by_organization: 'true', start_date: '2026-01-01' }), token }),
    ).toThrow(
      'Invalid request: query parameter next_token belongs to a different query (other filters or dates): pass next_token exactly as returned by the previous page of the same query, or omit it to start from the first page.',
    );
  });
});
