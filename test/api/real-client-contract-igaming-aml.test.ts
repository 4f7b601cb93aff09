/**
 * Independent contract check: the real client's iGaming and AML modules (real-client-facts §6.12-6.13).
 * Requests are sent as the client sends them and every 2xx body is parsed with schemas written from
 * the facts file alone (test/api/real-client/igaming-aml.ts), never with the sandbox's own; error bodies
 * are read the way callers read them (`err.response.body`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { RealClient, sdkErrorOf } from './real-client/client.ts';
import { operationCoverage } from './real-client/coverage.ts';
import { igamingAndAml, QuotaExceededBodySchema } from './real-client/igaming-aml.ts';

const { track } = operationCoverage([
  'aml.addMonitoredUser',
  'aml.saveTransactions',
  'igaming.analyzeAntiCheat',
  'igaming.analyzeInjection',
  'igaming.checkIpJurisdiction',
  'igaming.detectVpn',
  'igaming.purgeAntiCheatEnrollment',
  'selfExclusion.addApplicant',
  'selfExclusion.addFace',
  'selfExclusion.addIdentity',
  'selfExclusion.list',
  'selfExclusion.removeFace',
  'selfExclusion.removeIdentity',
  'sessions.create',
]);

const selfie = (file: string) => readFileSync(new URL(`../../fixtures/images/${file}`, import.meta.url)).toString('base64');

async function clients(key: string = KEYS.live): Promise<{ sandbox: TestSandbox; client: RealClient; sdk: ReturnType<typeof igamingAndAml> }> {
  const sandbox = await testSandbox({ rateLimit: false });
  const client = track(new RealClient(sandbox, key));
  return { sandbox, client, sdk: igamingAndAml(client) };
}

const TXN = {
  client_txn_id: 'txn-1',
  subject_user_id: 'subject-1',
  timestamp: '2026-01-14T09:00:00Z',
  direction: 'outbound',
  amount: { value: 12500, currency: 'USD' },
  type: 'wire',
};

describe('the real client reads every iGaming answer (§6.12)', () => {
  it('injection, VPN detection and IP jurisdiction: HIT, CLEAR and UNAVAILABLE, IPv4 and IPv6, nullable keys present', async () => {
    const { sdk } = await clients();
    const hit = await sdk.igaming.analyzeInjection({ sessionId: 'sess-1', mediaSource: { pass: false, score: 8 } });
    expect(hit.data).toMatchObject({ verdict: 'HIT', action: 'block', confidence: 92 });
    const unavailable = await sdk.igaming.analyzeInjection({ sessionId: 'sess-1' });
    expect(unavailable.data).toMatchObject({ verdict: 'UNAVAILABLE', confidence: null });
    expect((await sdk.igaming.analyzeInjection({ sessionId: 'sess-1', deviceIntegrity: { pass: true, score: 90 } })).data).toEqual({
      verdict: 'CLEAR',
      action: 'allow',
      confidence: 90,
      escalation: null,
    });

    expect((await sdk.igaming.detectVpn({ sessionId: 'sess-1', ipAddress: '198.51.100.7' })).data.verdict).toBe('HIT');
    expect((await sdk.igaming.detectVpn({ sessionId: 'sess-1', ipAddress: '2001:db8:dead::1' })).data.verdict).toBe('UNAVAILABLE');
    const clear = await sdk.igaming.detectVpn({ sessionId: 'sess-1', ipAddress: '2001:db8::1' });
    expect(clear.data).toMatchObject({ verdict: 'CLEAR', escalation: null });

    expect((await sdk.igaming.checkIpJurisdiction({ sessionId: 'sess-1', ipAddress: '203.0.113.5' })).data).toMatchObject({
      verdict: 'CLEAR',
      action: 'allow',
      evidence: { country: 'GB' },
    });
    expect((await sdk.igaming.checkIpJurisdiction({ sessionId: 'sess-1', ipAddress: '2001:db8:2::1' })).data.escalation).toMatchObject({
      decision: 'ESCALATE',
      type: 'address-verification',
    });
    expect((await sdk.igaming.checkIpJurisdiction({ sessionId: 'sess-1', ipAddress: '192.0.2.10' })).data.verdict).toBe('UNAVAILABLE');
  });

  it('anti-cheat, self-exclusion and purge through the duplicate-face chain', async () => {
    const { client, sdk } = await clients();
    const session = await client.sessions.create({ email: 'bob@example.com', firstName: 'Bob', lastName: 'Baker' });
    // Anti-cheat answers 404 for a session that does not exist: every player is a session.
    const player = async (lastName: string) => (await client.sessions.create({ email: 'player@example.com', firstName: 'Player', lastName })).data.id;
    const [sessA, sessBlank, sessC] = [await player('A'), await player('Blank'), await player('C')];

    expect((await sdk.igaming.analyzeAntiCheat({ sessionId: sessA, image: selfie('face.jpg'), deviceFingerprint: 'fp-1' })).data).toEqual({
      verdict: 'UNIQUE',
      action: 'allow',
    });
    expect((await sdk.igaming.analyzeAntiCheat({ sessionId: session.data.id, image: selfie('face.png') })).data).toEqual({
      verdict: 'DUPLICATE',
      action: 'manual-review',
    });
    expect((await sdk.igaming.analyzeAntiCheat({ sessionId: sessBlank, image: selfie('blank.png') })).data.verdict).toBe('UNAVAILABLE');

    const applicant = await sdk.igaming.selfExclusion.addApplicant({ sessionId: session.data.id, reason: 'operator request' });
    expect(applicant.data).toEqual({ face_attached: true, document_number: null, matched_session_id: sessA });
    expect((await sdk.igaming.analyzeAntiCheat({ sessionId: sessC, image: selfie('face.webp') })).data).toEqual({
      verdict: 'SELF_EXCLUSION',
      action: 'block',
    });

    const face = await sdk.igaming.selfExclusion.addFace({ sessionId: sessA, reason: 'player request' });
    expect(face.data).toEqual({ excluded: true, session_id: sessA, reason: 'player request' });
    expect((await sdk.igaming.selfExclusion.addFace({ sessionId: 'sess-none' })).data).toMatchObject({ excluded: false, reason: expect.any(String) });

    const identity = await sdk.igaming.selfExclusion.addIdentity({
      documentNumbers: ['doc-1', 'DOC-1'],
      reason: 'operator request',
      firstName: 'Jane',
      lastName: 'Doe',
    });
    expect(identity.data.excluded.map((e) => e.status)).toEqual(['added', 'already_excluded']);
    const list = await sdk.igaming.selfExclusion.list({ limit: 1 });
    expect(list.data).toMatchObject({ truncated: true, entries: [{ type: 'identity', document_number: 'DOC-1', added_at: expect.any(String) }] });
    expect((await sdk.igaming.selfExclusion.list()).data.entries.map((entry) => entry.type)).toEqual(['identity', 'face']);

    expect((await sdk.igaming.selfExclusion.removeFace(session.data.id)).data).toEqual({ unexcluded: true, matched_session_id: sessA });
    expect((await sdk.igaming.selfExclusion.removeFace(sessA)).data).toEqual({ unexcluded: false });
    expect((await sdk.igaming.selfExclusion.removeIdentity('doc-1')).data).toEqual({ removed: true, face_unexcluded: false });
    // The client's own example: DOC/1 is a document number like any other.
    await sdk.igaming.selfExclusion.addIdentity({ documentNumber: 'DOC/1' });
    expect((await sdk.igaming.selfExclusion.removeIdentity('DOC/1')).data).toEqual({ removed: true, face_unexcluded: false });

    expect((await sdk.igaming.purgeAntiCheatEnrollment(session.data.id)).data).toEqual({ deleted: false, face_id: null });
    const purged = await sdk.igaming.purgeAntiCheatEnrollment(sessA);
    expect(purged.data.deleted).toBe(true);
    expect(purged.data.face_id).toEqual(expect.any(String));
  });

  it('errors map to the client classes: 400 ValidationError, 401, 403 for a missing key or a sandbox-key write, 404 for an unknown session', async () => {
    const { sandbox, sdk } = await clients();
    expect((await sdkErrorOf(sdk.igaming.detectVpn({ sessionId: 's', ipAddress: 'nope' }))).className).toBe('ValidationError');
    expect((await sdkErrorOf(sdk.igaming.selfExclusion.addIdentity({}))).className).toBe('ValidationError');
    expect((await sdkErrorOf(sdk.igaming.selfExclusion.list({ limit: 1001 }))).className).toBe('ValidationError');
    expect((await sdkErrorOf(sdk.igaming.selfExclusion.addApplicant({ sessionId: '8a4e2c1d-0000-4000-8000-000000000000' }))).className).toBe('NotFoundError');
    expect((await sdkErrorOf(igamingAndAml(new RealClient(sandbox, 'sk_live_unknown_9999')).igaming.selfExclusion.list())).className).toBe(
      'AuthenticationError',
    );
    expect((await sdkErrorOf(igamingAndAml(new RealClient(sandbox, KEYS.sandbox)).igaming.purgeAntiCheatEnrollment('s'))).className).toBe('AuthorizationError');
    const missing = await sandbox.call('GET', '/v1/igaming/self-exclusion', { key: null });
    expect(missing.status).toBe(403);
  });
});

describe('the real client reads every AML answer (§6.13)', () => {
  it('saveTransactions: counts and per-record results with nullable client_txn_id and field errors', async () => {
    const { sdk } = await clients();
    const saved = await sdk.aml.saveTransactions({
      botId: 'bot_daily',
      transactions: [TXN, { ...TXN, client_txn_id: undefined, amount: { value: 5, currency: 'EUR' } }, { subject_user_id: 's' }],
    });
    expect(saved.data).toMatchObject({ accepted: 1, warned: 1, rejected: 1 });
    expect(saved.data.results[2]).toMatchObject({
      client_txn_id: null,
      status: 'rejected',
      errors: [{ code: 'FIELD_REQUIRED', field: 'timestamp' }, expect.anything(), expect.anything(), expect.anything()],
    });
    expect((await sdk.aml.saveTransactions([{ ...TXN, client_txn_id: 'txn-2' }])).data.accepted).toBe(1);
  });

  it('addMonitoredUser: 201 new, 200 unchanged, every key present; BOT_CADENCE_INVALID and 404 readable from err.response.body', async () => {
    const { sdk } = await clients();
    const created = await sdk.aml.addMonitoredUser('bot_daily', { subjectUserId: 'cust_001' });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ bot_id: 'bot_daily', cadence_days: 1, last_checked_at: null, added_by: 'key_live_demo' });
    const again = await sdk.aml.addMonitoredUser('bot_daily', { subjectUserId: 'cust_001' });
    expect(again.status).toBe(200);
    expect(again.raw).toEqual(created.raw);
    const cadence = await sdkErrorOf(sdk.aml.addMonitoredUser('bot_misconfigured', { subjectUserId: 'cust_001' }));
    expect(cadence.className).toBe('ValidationError');
    expect(cadence.response?.body).toMatchObject({ code: 'BOT_CADENCE_INVALID' });
    expect((await sdkErrorOf(sdk.aml.addMonitoredUser('bot_daily', { subjectUserId: 'stranger' }))).className).toBe('NotFoundError');
  });

  it('a sandbox key enrols (validated, nothing stored); the quota 429 body parses with the client helper schema', async () => {
    const { sandbox } = await clients();
    const sandboxSdk = igamingAndAml(track(new RealClient(sandbox, KEYS.sandbox)));
    expect((await sandboxSdk.aml.addMonitoredUser('bot_realtime', { subjectUserId: 'cust_002' })).data).toMatchObject({
      cadence_days: 0,
      added_by: 'key_test_demo',
    });

    await sandbox.call('PUT', '/__sandbox/organizations/org_demo/aml/transaction-quota', { key: null, body: { quota: 1 } });
    const live = igamingAndAml(track(new RealClient(sandbox, KEYS.live)));
    const error = await sdkErrorOf(live.aml.saveTransactions([TXN, { ...TXN, client_txn_id: 'txn-2' }]));
    expect(error.className).toBe('RateLimitError');
    expect(QuotaExceededBodySchema.parse(error.response?.body)).toMatchObject({ quota: 1, used: 0, remaining: 1, month: '2026-01' });
  });
});
