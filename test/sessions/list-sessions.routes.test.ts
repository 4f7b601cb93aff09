import { describe, expect, it } from 'vitest';
import { SessionListResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { createSession, expectNoNulls, JANE, WORKFLOWS } from './route-helpers.ts';

const DAY = 86_400_000;
const LIST_KEYS = ['id', 'organization_id', 'user_id', 'sender_user_id', 'status', 'type', 'session_progress', 'created_at', 'updated_at'];

async function list(sandbox: TestSandbox, query: string, key: string = KEYS.live) {
  const response = await sandbox.call('GET', `/v1/sessions${query ? `?${query}` : ''}`, { key });
  if (response.status === 200) {
    expectNoNulls(response.body);
    expect(SessionListResponseSchema.parse(response.body)).toEqual(response.body);
  }
  return response;
}

const ids = (body: { sessions: { id: string }[] }) => body.sessions.map((s) => s.id);

async function createMany(sandbox: TestSandbox, count: number, stepMs = 0): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push((await createSession(sandbox, { ...JANE, externalId: `cust-${i}` })).id);
    if (stepMs > 0) sandbox.clock.advance(stepMs);
  }
  return out;
}

describe('GET /v1/sessions', () => {
  it('answers the list shape only (no user, sender_user or resource_links), newest first', async () => {
    const sandbox = await testSandbox();
    const created = await createMany(sandbox, 3, 60_000);
    const response = await list(sandbox, '');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([...created].reverse());
    for (const item of response.body.sessions) expect(Object.keys(item)).toEqual(LIST_KEYS);
    expect(response.body.next_token).toBeNull();
  });

  it('pages across three pages with no duplicates and no gaps, the last with next_token null', async () => {
    const sandbox = await testSandbox();
    // Same instant for four, then later ones: the order falls back to the id for equal instants.
    const created = [...(await createMany(sandbox, 4)), ...(await createMany(sandbox, 3, 1000))];
    const expected = (await list(sandbox, 'limit=500')).body.sessions.map((s: { id: string }) => s.id);
    expect([...expected].sort()).toEqual([...created].sort());

    const first = await list(sandbox, 'limit=3');
    expect(first.body.sessions).toHaveLength(3);
    expect(typeof first.body.next_token).toBe('string');
    const second = await list(sandbox, `limit=3&next_token=${encodeURIComponent(first.body.next_token)}`);
    expect(second.body.sessions).toHaveLength(3);
    const third = await list(sandbox, `limit=3&next_token=${encodeURIComponent(second.body.next_token)}`);
    expect(third.body.sessions).toHaveLength(1);
    expect(third.body.next_token).toBeNull();
    const paged = [...ids(first.body), ...ids(second.body), ...ids(third.body)];
    expect(paged).toEqual(expected);
    expect(new Set(paged).size).toBe(7);
  });

  it('keeps paging stable when a session is created between two pages', async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 4, 1000);
    const first = await list(sandbox, 'limit=2');
    const newer = await createSession(sandbox, JANE);
    const second = await list(sandbox, `limit=2&next_token=${encodeURIComponent(first.body.next_token)}`);
    expect(second.body.sessions).toHaveLength(2);
    expect(ids(second.body)).not.toContain(newer.id);
    expect(new Set([...ids(first.body), ...ids(second.body)]).size).toBe(4);
    expect(second.body.next_token).toBeNull();
  });

  it('answers 400 for a tampered, forged or foreign next_token', async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 3);
    const token: string = (await list(sandbox, 'limit=1')).body.next_token;
    const flipped = token.slice(0, 5) + (token[5] === 'A' ? 'B' : 'A') + token.slice(6);
    const fix = 'pass next_token exactly as returned by the previous page of the same query, or omit it to start from the first page';
    const tampered = await list(sandbox, `limit=1&next_token=${encodeURIComponent(flipped)}`);
    expect(tampered.status).toBe(400);
    expect(tampered.body).toEqual({
      error: `Invalid request: query parameter next_token has been altered or was issued by another sandbox (its signature does not match): ${fix}.`,
    });
    const forged = await list(sandbox, 'next_token=not-a-token');
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: `Invalid request: query parameter next_token is not a token this API issued: ${fix}.` });
    const wrongQuery = `Invalid request: query parameter next_token belongs to a different query (other filters or dates): ${fix}.`;
    const otherQuery = await list(sandbox, `limit=1&external_id=cust-1&next_token=${encodeURIComponent(token)}`);
    expect(otherQuery.status).toBe(400);
    expect(otherQuery.body).toEqual({ error: wrongQuery });
    const otherOrganization = await list(sandbox, `next_token=${encodeURIComponent(token)}`, KEYS.other);
    expect(otherOrganization.status).toBe(400);
    expect(otherOrganization.body).toEqual({ error: wrongQuery });
  });

  it('answers 400 for a limit out of 1-500, a bad date, a reversed range and a bad by_organization', async () => {
    const sandbox = await testSandbox();
    const cases: [string, RegExp][] = [
      ['limit=0', /query parameter limit must be at least 1/],
      ['limit=501', /query parameter limit must be at most 500/],
      ['limit=2.5', /query parameter limit must be a whole number from 1 to 500/],
      ['start_date=2026-13-01', /query parameter start_date must be an ISO 8601 date/],
      ['end_date=yesterday', /query parameter end_date must be an ISO 8601 date/],
      ['start_date=2026-02-30', /query parameter start_date must be an ISO 8601 date/],
      ['start_date=2026-02-01&end_date=2026-01-01', /start_date \(2026-02-01\) must be on or before end_date \(2026-01-01\)/],
      ['by_organization=yes', /query parameter by_organization must be "true" or "false"/],
    ];
    for (const [query, message] of cases) {
      const response = await list(sandbox, query);
      expect(response.status, query).toBe(400);
      expect(response.body.error, query).toMatch(message);
    }
    expect((await list(sandbox, 'limit=1')).status).toBe(200);
    expect((await list(sandbox, 'limit=500')).status).toBe(200);
  });

  it('filters by creation date, inclusive at both ends, a date-only end_date covering its whole day', async () => {
    const sandbox = await testSandbox();
    // 2026-01-15T09:30Z, then 16th, 17th, 18th at the same time.
    const [d15, d16, d17, d18] = await createMany(sandbox, 4, DAY);
    expect(ids((await list(sandbox, 'start_date=2026-01-16&end_date=2026-01-17')).body)).toEqual([d17, d16]);
    expect(ids((await list(sandbox, 'start_date=2026-01-16T09:30:00Z')).body)).toEqual([d18, d17, d16]);
    expect(ids((await list(sandbox, 'end_date=2026-01-15T09:30:00.000Z')).body)).toEqual([d15]);
    expect(ids((await list(sandbox, 'end_date=2026-01-15T09:29:59Z')).body)).toEqual([]);
    expect(ids((await list(sandbox, 'start_date=2026-01-19')).body)).toEqual([]);
  });

  it('follows the query-mode priority: external_id, then workflow_id, then by_organization, then the sender', async () => {
    const sandbox = await testSandbox();
    const a = (await createSession(sandbox, { ...JANE, externalId: 'X', workflowId: WORKFLOWS.identity72h })).id;
    sandbox.clock.advance(1000);
    const b = (await createSession(sandbox, { ...JANE, externalId: 'Y', workflowId: WORKFLOWS.identity72h })).id;
    sandbox.clock.advance(1000);
    const c = (await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.noExpiry })).id;
    await createSession(sandbox, { ...JANE, externalId: 'X' }, { key: KEYS.other });

    expect(ids((await list(sandbox, `external_id=X&workflow_id=${WORKFLOWS.noExpiry}&by_organization=true`)).body)).toEqual([a]);
    expect(ids((await list(sandbox, `workflow_id=${WORKFLOWS.identity72h}&by_organization=true`)).body)).toEqual([b, a]);
    expect(ids((await list(sandbox, `workflow_id=${WORKFLOWS.noExpiry}`)).body)).toEqual([c]);
    expect(ids((await list(sandbox, 'by_organization=true')).body)).toEqual([c, b, a]);
    // Every session of the organization is sent by its one sender user, so the default query equals it.
    expect(ids((await list(sandbox, '')).body)).toEqual([c, b, a]);
    expect(ids((await list(sandbox, 'external_id=nobody')).body)).toEqual([]);
    expect(ids((await list(sandbox, 'external_id=X', KEYS.other)).body)).toHaveLength(1);
  });

  it('sends the bytes and content type JSON.stringify gives, and shows the new status of a listed session after an update', async () => {
    const sandbox = await testSandbox();
    const [first, second] = await createMany(sandbox, 2, 1000);
    const before = await list(sandbox, 'limit=1');
    expect(before.headers.get('content-type')).toBe('application/json');
    expect(before.text).toBe(JSON.stringify(before.body));
    expect(before.body.sessions[0]).toMatchObject({ id: second, status: 'PENDING' });
    sandbox.clock.advance(60_000);
    expect((await sandbox.call('PATCH', `/v1/sessions/${second}/update-status`, { body: { new_status: 'VERIFIED' } })).status).toBe(200);
    const after = await list(sandbox, 'limit=1');
    expect(after.body.sessions[0]).toMatchObject({ id: second, status: 'VERIFIED', updated_at: sandbox.clock.iso() });
    expect(after.body.next_token).toBe(before.body.next_token);
    expect(ids((await list(sandbox, `limit=1&next_token=${encodeURIComponent(after.body.next_token)}`)).body)).toEqual([first]);
  });

  it('answers the same page again until a session is created, and keeps each namespace’s pages apart', async () => {
    const sandbox = await testSandbox();
    const [first] = await createMany(sandbox, 1);
    expect(ids((await list(sandbox, '')).body)).toEqual([first]);
    expect(ids((await list(sandbox, '')).body)).toEqual([first]);
    sandbox.clock.advance(1000);
    const [second] = await createMany(sandbox, 1);
    expect(ids((await list(sandbox, '')).body)).toEqual([second, first]);
    const other = await sandbox.call('GET', '/v1/sessions', { namespace: 'lists-elsewhere' });
    expect(other.body).toEqual({ sessions: [], next_token: null });
  });

  it('answers an empty page as sessions [] and next_token null', async () => {
    const sandbox = await testSandbox();
    expect((await list(sandbox, '')).body).toEqual({ sessions: [], next_token: null });
  });

  it('with a sandbox key answers the five synthetic sessions, one per status, next_token null', async () => {
    const sandbox = await testSandbox();
    await createSession(sandbox, JANE);
    const response = await list(sandbox, 'limit=1&by_organization=true', KEYS.sandbox);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(['test_verified', 'test_rejected', 'test_pending', 'test_submitted', 'test_voided']);
    expect(response.body.sessions.map((s: { status: string }) => s.status)).toEqual(['VERIFIED', 'REJECTED', 'PENDING', 'SUBMITTED', 'VOIDED']);
    expect(response.body.sessions.every((s: { organization_id: string }) => s.organization_id === 'org_demo')).toBe(true);
    for (const item of response.body.sessions) expect(Object.keys(item)).toEqual(LIST_KEYS);
    expect(response.body.next_token).toBeNull();
    expect((await list(sandbox, 'limit=0', KEYS.sandbox)).status).toBe(400);
  });
});
