import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { SANDBOX_SESSION_TEST_IDENTIFIERS } from '../../src/sessions/sandbox-sessions.ts';
import { SingleSessionResponseSchema, type SingleSessionResponse } from '../../src/sessions/sessions.schemas.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { BASE, createSession, expectNoNulls, getSession, JANE } from './route-helpers.ts';

/** The fixture file with its placeholders filled as the sandbox at 127.0.0.1:4010 fills them for org_demo. */
function fixtureBody(id: string): SingleSessionResponse {
  const text = readFileSync(new URL(`../../fixtures/sandbox/sessions/${id}.json`, import.meta.url), 'utf8')
    .replaceAll('{base_url}', BASE)
    .replaceAll('{verify_url}', `${BASE}/verify`)
    .replaceAll('{console_url}', `${BASE}/console`)
    .replaceAll('{organization_id}', 'org_demo');
  return JSON.parse(text) as SingleSessionResponse;
}

describe('GET /v1/sessions/{id} with a live key', () => {
  it('answers session_record, user, sender_user and resource_links of the organization’s session', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, { ...JANE, phone: '+14155550123' });
    const body = await getSession(sandbox, created.id);
    expect(Object.keys(body)).toEqual(['session_record', 'user', 'sender_user', 'resource_links']);
    expect(body.session_record.id).toBe(created.id);
    expect(body.user.phone).toBe('+14155550123');
    expect(body.resource_links.session_url).toBe(created.session_url);
  });

  it('answers a repeated read without looking the session up again while nothing in its namespace changes', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE);
    const first = await getSession(sandbox, created.id);
    const lookups = vi.spyOn(sandbox.platform.worlds.get('default').data.collection('sessions'), 'get');
    expect(await getSession(sandbox, created.id)).toEqual(first);
    expect(lookups).not.toHaveBeenCalled();
    // Any write in the namespace and the session is read again: the same answer while it is the same.
    await createSession(sandbox, JANE);
    expect(await getSession(sandbox, created.id)).toEqual(first);
    expect(lookups).toHaveBeenCalledTimes(1);
    const updated = await sandbox.call('PATCH', `/v1/sessions/${created.id}/update-status`, { body: { new_status: 'VERIFIED' } });
    expect(updated.status).toBe(200);
    expect((await getSession(sandbox, created.id)).session_record.status).toBe('VERIFIED');
    // Another organization's key is still refused, right after the kept read.
    expect((await sandbox.call('GET', `/v1/sessions/${created.id}`, { key: KEYS.other })).status).toBe(403);
  });

  it('answers 403 for another organization’s session and 404 for an unknown one', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE);
    const other = await sandbox.call('GET', `/v1/sessions/${created.id}`, { key: KEYS.other });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe(`Session ${created.id} belongs to another organization: use an API key of the organization that created it.`);
    const unknown = await sandbox.call('GET', '/v1/sessions/3b241101-e2bb-4255-8caf-4136c566a962');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^Session 3b241101-e2bb-4255-8caf-4136c566a962 was not found/);
    expect((await sandbox.call('GET', `/v1/sessions/${created.id}`, { key: null })).status).toBe(401);
  });

  it('URL-decodes path segments (the real client encodes ids with encodeURIComponent)', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE);
    const encoded = created.id.replace(/-/g, '%2D');
    const response = await sandbox.call('GET', `/v1/sessions/${encoded}`);
    expect(response.status).toBe(200);
    expect(response.body.session_record.id).toBe(created.id);
    const slashed = await sandbox.call('GET', '/v1/sessions/a%2Fb%20c');
    expect(slashed.status).toBe(404);
    expect(slashed.body.error).toMatch(/^Session a\/b c was not found/);
  });
});

describe('GET /v1/sessions/{id} with a sandbox key', () => {
  for (const id of ['test_verified', 'test_rejected', 'test_submitted', 'test_pending', 'test_voided', 'test_failed']) {
    it(`answers ${id} with its fixture body exactly`, async () => {
      const sandbox = await testSandbox();
      const response = await sandbox.call('GET', `/v1/sessions/${id}`, { key: KEYS.sandbox });
      expect(response.status).toBe(200);
      const expected = fixtureBody(id);
      expect(response.body).toEqual(expected);
      expect(response.text).toBe(JSON.stringify(expected));
      expect(SingleSessionResponseSchema.parse(response.body)).toEqual(response.body);
      expectNoNulls(response.body);
      expect(response.headers.get('x-sandbox-explain')).toContain(`sandbox test identifier ${id}`);
    });
  }

  it('test_verified: VERIFIED with every field and every analysis member', async () => {
    const sandbox = await testSandbox();
    const record = (await getSession(sandbox, 'test_verified', { key: KEYS.sandbox })).session_record;
    expect(record.status).toBe('VERIFIED');
    expect(record.session_progress).toBe('COMPLETED');
    for (const key of [
      'external_id',
      'location',
      'workflow_id',
      'bank_statement_request_id',
      'workflow_steps',
      'meta_data',
      'uploads',
      'analysis_data',
      'redirect_url',
      'expires_at',
      'submitted_at',
    ]) {
      expect(record, key).toHaveProperty(key);
    }
    expect(Object.keys(record.analysis_data ?? {})).toHaveLength(13);
    expect(record.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(record.analysis_data?.id_matches_selfie).toBe(true);
  });

  it('test_rejected: face_match_confidence 42.3, id_matches_selfie false, expiry and state checks failing, declinedData', async () => {
    const sandbox = await testSandbox();
    const record = (await getSession(sandbox, 'test_rejected', { key: KEYS.sandbox })).session_record;
    expect(record.status).toBe('REJECTED');
    expect(record.analysis_data?.compare_faces_data?.face_match_confidence).toBe(42.3);
    expect(record.analysis_data?.id_matches_selfie).toBe(false);
    expect(record.analysis_data?.id_analysis_data?.expiry_date_pass).toBe(false);
    expect(record.analysis_data?.id_analysis_data?.valid_state_pass).toBe(false);
    expect(record.meta_data?.declinedData).toMatchObject({
      declined: true,
      score: 42.3,
      reason: { code: 'LOW_FACE_MATCH', slot: 'PRIMARY', severity: 'CRITICAL' },
    });
  });

  it('test_submitted, test_pending, test_voided and test_failed carry their documented values', async () => {
    const sandbox = await testSandbox();
    const submitted = (await getSession(sandbox, 'test_submitted', { key: KEYS.sandbox })).session_record;
    expect(submitted.status).toBe('SUBMITTED');
    expect(submitted.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(submitted.analysis_data?.id_matches_selfie).toBe(true);

    const pending = (await getSession(sandbox, 'test_pending', { key: KEYS.sandbox })).session_record;
    expect(pending.status).toBe('PENDING');
    expect(pending.session_progress).toBe('PENDING');
    expect(pending).not.toHaveProperty('analysis_data');

    const voided = (await getSession(sandbox, 'test_voided', { key: KEYS.sandbox })).session_record;
    expect(voided.status).toBe('VOIDED');
    expect(voided).not.toHaveProperty('analysis_data');

    const failed = (await getSession(sandbox, 'test_failed', { key: KEYS.sandbox })).session_record;
    expect(failed.status).toBe('FAILED');
    expect(failed.session_progress).toBe('COMPLETED');
    expect(failed.meta_data?.failureData?.failedAttempts).toBe(3);
    expect(failed.meta_data?.failureData?.attempts).toHaveLength(3);
  });

  it('answers any other id with a scenario from a hash of the id: the same id, byte-identical bodies', async () => {
    const sandbox = await testSandbox();
    const first = await sandbox.call('GET', '/v1/sessions/cust-session-0001', { key: KEYS.sandbox });
    const again = await sandbox.call('GET', '/v1/sessions/cust-session-0001', { key: KEYS.sandbox });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    const elsewhere = await (await testSandbox({ seed: 7 })).call('GET', '/v1/sessions/cust-session-0001', { key: KEYS.sandbox });
    expect(elsewhere.text).toBe(first.text);
    expect(first.body.session_record.id).toBe('cust-session-0001');
    expect(SingleSessionResponseSchema.parse(first.body)).toEqual(first.body);
    expectNoNulls(first.body);
    expect(first.headers.get('x-sandbox-explain')).toMatch(
      /not a test identifier -> (VERIFIED|REJECTED|SUBMITTED|PENDING|VOIDED|FAILED) chosen from a hash of the id/,
    );
    const unlimited = await testSandbox({ rateLimit: false });
    const statuses = new Set<string>();
    for (let i = 0; i < 40; i++) statuses.add((await unlimited.call('GET', `/v1/sessions/random-${i}`, { key: KEYS.sandbox })).body.session_record.status);
    expect(statuses.size).toBeGreaterThanOrEqual(4);
  });

  it('answers for a live session id too with synthetic data, never the stored session', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE);
    const synthetic = await getSession(sandbox, created.id, { key: KEYS.sandbox });
    expect(synthetic.user.email).not.toBe(JANE.email);
  });

  it('refuses every write with a sandbox key (403)', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE);
    const writes = [
      sandbox.call('PATCH', `/v1/sessions/${created.id}/update-status`, { key: KEYS.sandbox, body: { new_status: 'VERIFIED' } }),
      sandbox.call('POST', `/v1/sessions/${created.id}/uploads`, {
        key: KEYS.sandbox,
        body: { files: [{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front' }] },
      }),
      sandbox.call('PATCH', '/v1/sessions/test_pending/update-status', { key: KEYS.sandbox, body: { new_status: 'VERIFIED' } }),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.status).toBe(403);
      expect(response.body.error).toMatch(/live API key is needed to create or modify resources/);
    }
    expect((await getSession(sandbox, created.id)).session_record.status).toBe('PENDING');
  });

  it('lists every test identifier in the catalog', async () => {
    const sandbox = await testSandbox();
    const catalog = await sandbox.call('GET', '/__sandbox/catalog', { key: null });
    const inputs = (catalog.body.testIdentifiers as { endpoint: string; input: string }[])
      .filter((e) => e.endpoint.includes('/v1/sessions'))
      .map((e) => e.input);
    expect(inputs).toEqual(SANDBOX_SESSION_TEST_IDENTIFIERS.map((entry) => entry.input));
    expect(inputs).toEqual(expect.arrayContaining(['test_verified', 'test_rejected', 'test_submitted', 'test_pending', 'test_voided', 'test_failed']));
  });
});

describe('GET /v1/sessions/{id} read again (its answer is kept between reads)', () => {
  it('follows the record’s changes and the origin the client used', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE);
    const readFrom = (host: string) => getSession(sandbox, created.id, { headers: { host } });
    const first = await readFrom('a.example:4010');
    expect(first.resource_links.session_details).toBe(`http://a.example:4010/v1/sessions/${created.id}`);
    expect((await readFrom('b.example')).resource_links.session_details).toBe(`http://b.example/v1/sessions/${created.id}`);
    expect(await readFrom('a.example:4010')).toEqual(first);

    sandbox.clock.advance(60_000);
    const updated = await sandbox.call('PATCH', `/v1/sessions/${created.id}/update-status`, { body: { new_status: 'VERIFIED' } });
    expect(updated.status).toBe(200);
    const after = await readFrom('a.example:4010');
    expect(after.session_record.status).toBe('VERIFIED');
    expect(after.session_record.updated_at).not.toBe(first.session_record.updated_at);
  });

  it('links the hosted page with the token of the sandbox’s own secret', async () => {
    const [one, two] = [await testSandbox({ secret: 'the-first-pinned-secret' }), await testSandbox({ secret: 'the-second-pinned-secret' })];
    const [a, b] = [await createSession(one, JANE), await createSession(two, JANE)];
    // The same seed gives both sandboxes the same session id: only the secret tells their links apart.
    expect(b.id).toBe(a.id);
    for (const sandbox of [one, two, one]) {
      const body = await getSession(sandbox, a.id);
      expect(new URL(body.resource_links.session_url ?? '').searchParams.get('token')).toBe(sandbox.pageToken(a.id));
    }
    expect(one.pageToken(a.id)).not.toBe(two.pageToken(a.id));
  });
});
