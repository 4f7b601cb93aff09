import { describe, expect, it } from 'vitest';
import { LivenessResultSchema, LivenessSessionSchema } from '../../src/face/face-liveness.schemas.ts';
import { LIVENESS_CATALOG, LIVENESS_HINTS, livenessConfidence } from '../../src/face/face-liveness.service.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function create(sandbox: TestSandbox, body: unknown = {}, key: string = KEYS.live) {
  const response = await sandbox.call('POST', '/v1/face/liveness/sessions', { body, key });
  expect(response.status, response.text).toBe(200);
  return LivenessSessionSchema.parse(response.body);
}

async function result(sandbox: TestSandbox, lid: string, query = '', key: string = KEYS.live) {
  return sandbox.call('GET', `/v1/face/liveness/sessions/${encodeURIComponent(lid)}/result${query}`, { key });
}

describe('face liveness sessions', () => {
  it('creates a session from {} with synthetic credentials and ISO-Z expiry 15 minutes ahead, deterministically', async () => {
    const sandbox = await testSandbox();
    const session = await create(sandbox);
    expect(session.liveness_session_id).toMatch(UUID_V4);
    expect(session.region).toBe('us-east-1');
    expect(session.expires_at).toBe('2026-01-15T09:45:00.000Z');
    expect(session.credentials.expiration).toBe(session.expires_at);
    expect(session.credentials.access_key_id).toMatch(/^ASIA[A-Z2-7]{16}$/);
    expect(session.credentials.secret_access_key).toHaveLength(40);
    expect(session.credentials.session_token.length).toBeGreaterThan(100);
    const again = await create(await testSandbox());
    expect(again).toStrictEqual(session);
    const other = await create(sandbox, { session_id: 'sess_abc123', challenge_type: 'FaceMovementAndLightChallenge' });
    expect(other.liveness_session_id).not.toBe(session.liveness_session_id);
    expect(other.credentials.access_key_id).not.toBe(session.credentials.access_key_id);
  });

  it('also accepts a POST without a body, and names a bad challenge_type', async () => {
    const sandbox = await testSandbox();
    const bare = await sandbox.call('POST', '/v1/face/liveness/sessions');
    expect(bare.status).toBe(200);
    const bad = await sandbox.call('POST', '/v1/face/liveness/sessions', { body: { challenge_type: 'Smile' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid request: body field "challenge_type" must be one of "FaceMovementChallenge", "FaceMovementAndLightChallenge".');
    expect(bad.body.hints).toEqual([LIVENESS_HINTS.body]);
    const empty = await sandbox.call('POST', '/v1/face/liveness/sessions', { body: { session_id: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe(
      'Invalid request: body field session_id must not be empty: omit it or send the id of the verification session this check belongs to.',
    );
  });

  it('is IN_PROGRESS for 5 s on the sandbox clock, then SUCCEEDED with the confidence fixed by the id; passed follows confidence_threshold', async () => {
    const sandbox = await testSandbox();
    const { liveness_session_id: lid } = await create(sandbox, { session_id: 'sess_abc123' });
    expect((await result(sandbox, lid)).body).toStrictEqual({ status: 'IN_PROGRESS', passed: false });
    sandbox.clock.advance(4_999);
    expect((await result(sandbox, lid, '?session_id=sess_abc123')).body).toStrictEqual({ status: 'IN_PROGRESS', passed: false });
    sandbox.clock.advance(1);
    const done = await result(sandbox, lid);
    const confidence = livenessConfidence(lid);
    expect(confidence).toBeGreaterThanOrEqual(80);
    expect(confidence).toBeLessThanOrEqual(99.5);
    expect(LivenessResultSchema.parse(done.body)).toStrictEqual({ status: 'SUCCEEDED', confidence, passed: true });
    expect(done.headers.get('x-sandbox-explain')).toBe(`liveness: confidence ${confidence} >= threshold 70`);
    expect((await result(sandbox, lid, '?confidence_threshold=100')).body).toStrictEqual({ status: 'SUCCEEDED', confidence, passed: false });
    expect((await result(sandbox, lid, `?confidence_threshold=${Math.floor(confidence)}`)).body.passed).toBe(true);
    sandbox.clock.advance(60 * 60_000);
    expect((await result(sandbox, lid)).body).toStrictEqual({ status: 'SUCCEEDED', confidence, passed: true });
  });

  it('forces FAILED, a spoof and a capture that never ends with magic session_id values', async () => {
    const sandbox = await testSandbox();
    const failed = (await create(sandbox, { session_id: 'test_liveness_failed' })).liveness_session_id;
    const spoof = (await create(sandbox, { session_id: 'test_liveness_spoof' })).liveness_session_id;
    const pending = (await create(sandbox, { session_id: 'test_liveness_pending' })).liveness_session_id;
    sandbox.clock.advance(5_000);
    expect((await result(sandbox, failed)).body).toStrictEqual({ status: 'FAILED', passed: false });
    expect((await result(sandbox, spoof)).body).toStrictEqual({ status: 'SUCCEEDED', confidence: 12.5, passed: false });
    expect((await result(sandbox, spoof, '?confidence_threshold=12')).body).toStrictEqual({ status: 'SUCCEEDED', confidence: 12.5, passed: true });
    expect((await result(sandbox, pending)).body).toStrictEqual({ status: 'IN_PROGRESS', passed: false });
    sandbox.clock.advance(15 * 60_000 - 5_000 - 1);
    expect((await result(sandbox, pending)).body.status).toBe('IN_PROGRESS');
    sandbox.clock.advance(1);
    const expired = await result(sandbox, pending);
    expect(expired.body).toStrictEqual({ status: 'FAILED', passed: false });
    expect(expired.headers.get('x-sandbox-explain')).toBe('magic value: session_id test_liveness_pending -> FAILED: the session expired without a capture');
    const catalog = await sandbox.call('GET', '/__sandbox/catalog', { key: null });
    const inputs = (catalog.body.magicValues as { input: string }[]).map((entry) => entry.input);
    for (const entry of LIVENESS_CATALOG) expect(inputs).toContain(entry.input);
  });

  it('answers 404 to an unknown id, 403 to another organization, 400 to a wrong session_id or threshold', async () => {
    const sandbox = await testSandbox();
    const { liveness_session_id: lid } = await create(sandbox, { session_id: 'sess_1' });
    const unknown = await result(sandbox, '3f0b7c1e-5a7d-4d2b-9a51-0c8e2f4b6d19');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^Liveness session "3f0b7c1e-5a7d-4d2b-9a51-0c8e2f4b6d19" not found/);
    expect((await result(sandbox, 'live/1')).status).toBe(404);
    const foreign = await result(sandbox, lid, '', KEYS.other);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe(`Liveness session "${lid}" belongs to another organization.`);
    const wrongSession = await result(sandbox, lid, '?session_id=sess_2');
    expect(wrongSession.status).toBe(400);
    expect(wrongSession.body.hints).toEqual(['Send session_id=sess_1, or leave it out.']);
    const emptySession = await result(sandbox, lid, '?session_id=');
    expect(emptySession.status).toBe(400);
    expect(emptySession.body.error).toMatch(/session_id must not be empty: omit it or send the session_id/);
    const longId = await result(sandbox, 'l'.repeat(256));
    expect(longId.status).toBe(400);
    expect(longId.body.error).toMatch(/lid must be at most 255 characters long/);
    for (const threshold of ['0', '101', '7.5', 'abc']) {
      const response = await result(sandbox, lid, `?confidence_threshold=${threshold}`);
      expect(response.status, threshold).toBe(400);
      expect(response.body.error, threshold).toMatch(/confidence_threshold/);
      expect(response.body.hints, threshold).toEqual([LIVENESS_HINTS.query]);
    }
    expect((await result(sandbox, lid, '', KEYS.revoked)).status).toBe(401);
    // Another namespace does not see it either.
    expect((await sandbox.call('GET', `/v1/face/liveness/sessions/${lid}/result`, { namespace: 'elsewhere' })).status).toBe(404);
  });

  it('refuses creation with a sandbox key but answers its GET with a synthetic result for any id', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/face/liveness/sessions', { key: KEYS.sandbox, body: {} });
    expect(refused.status).toBe(403);
    const synthetic = await result(sandbox, 'live-1', '', KEYS.sandbox);
    expect(synthetic.status).toBe(200);
    expect(synthetic.body).toStrictEqual({ status: 'SUCCEEDED', confidence: livenessConfidence('live-1'), passed: true });
    expect((await result(sandbox, 'live-1', '?session_id=test_liveness_failed', KEYS.sandbox)).body).toStrictEqual({ status: 'FAILED', passed: false });
    expect(FROZEN_AT).toBe('2026-01-15T09:30:00.000Z');
  });
});
