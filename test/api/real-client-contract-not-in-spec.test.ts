/**
 * Independent contract check (4/4): the real client's operations that the API spec does not describe
 * (deepfake, profiles, credit terms, age verification, re-verifications). Requests are sent as the client
 * sends them and every 2xx body is parsed with schemas written from real-client-facts.md alone
 * (test/api/real-client/schemas-not-in-spec.ts), never with the sandbox's own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageAddress } from '../helpers/hosted-pages.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { RealClient, sdkErrorOf, type DeepfakeFrameMeta } from './real-client/client.ts';
import { operationCoverage } from './real-client/coverage.ts';
import { CREDIT_TERMS_BUSINESS } from '../helpers/credit-terms.ts';

const { track } = operationCoverage([
  'ageVerification.create',
  'ageVerification.getBoundaries',
  'ageVerification.listParentConnectRequests',
  'ageVerification.retrieveParentConnectRequest',
  'creditTerms.create',
  'creditTerms.list',
  'creditTerms.listByExternalId',
  'creditTerms.retrieve',
  'deepfake.analyze',
  'deepfake.createUploadUrls',
  'deepfake.getChallenge',
  'profiles.create',
  'profiles.createLogoUploadUrl',
  'profiles.list',
  'profiles.retrieve',
  'reVerifications.completeLiveness',
  'reVerifications.create',
  'reVerifications.createLivenessUploadUrl',
  'reVerifications.startLiveness',
  'upload.put',
]);

async function liveClient(key: string = KEYS.live): Promise<{ sandbox: TestSandbox; client: RealClient }> {
  const sandbox = await testSandbox({ rateLimit: false });
  return { sandbox, client: track(new RealClient(sandbox, key)) };
}

const image = (name: string) => readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url));

describe('deepfake (§6.6)', () => {
  const sessionId = '5f0c1a52-8a44-4d7e-9b1c-2a6f3e9d8c71';
  const meta = (action: DeepfakeFrameMeta['action'], index: number, pose: Partial<DeepfakeFrameMeta> = {}): DeepfakeFrameMeta => ({
    actionId: `act_${index}`,
    action,
    timestamp: index * 500,
    yaw: 0,
    pitch: 0,
    roll: 0,
    leftEyeOpenness: 0.9,
    rightEyeOpenness: 0.9,
    faceDetected: true,
    ...pose,
  });
  const frameMeta = [
    meta('hold-still', 0),
    meta('blink', 1, { leftEyeOpenness: 0.05, rightEyeOpenness: 0.08 }),
    meta('turn-left', 2, { yaw: -30 }),
    meta('turn-right', 3, { yaw: 28 }),
    meta('speak-prompt', 4),
    meta('hold-still', 5),
  ];

  it('getChallenge, createUploadUrls (with audio) and analyze read as the client reads them: LIVE with a UUID verificationId and a Z timestamp', async () => {
    const { client } = await liveClient();
    const challenge = await client.deepfake.getChallenge(sessionId);
    expect(challenge.data.sessionId).toBe(sessionId);
    const urls = await client.deepfake.createUploadUrls({ sessionId, includeAudio: true });
    expect(Object.keys(urls.data.uploadKeys).sort()).toEqual(['audio_clip', 'frame_0', 'frame_1', 'frame_2', 'frame_3', 'frame_4', 'frame_5']);
    const frames = ['face.jpg', 'face-cropped.jpg', 'face.webp', 'face.gif', 'face.jpg', 'face-cropped.jpg'];
    for (const [index, name] of frames.entries())
      expect(await client.putTo(urls.data.uploadUrls[`frame_${index}`] as string, image(name), 'image/jpeg')).toBe(200);
    expect(await client.putTo(urls.data.uploadUrls.audio_clip as string, Buffer.from('audio'), 'audio/mp4')).toBe(200);
    const analysis = await client.deepfake.analyze({
      scanDurationMs: 3000,
      challengeWord: challenge.data.challengeWord,
      frameMeta,
      s3Keys: urls.data.uploadKeys,
    });
    expect(analysis.data).toMatchObject({
      success: true,
      passed: true,
      verdict: 'LIVE',
      trustVerdict: 'PASS',
      timestamp: FROZEN_AT,
      challengeWord: challenge.data.challengeWord,
    });
  });

  it('a replayed still is DEEPFAKE; the magic word forces INCONCLUSIVE; both parse', async () => {
    const { client } = await liveClient();
    const urls = await client.deepfake.createUploadUrls({ sessionId, includeAudio: false });
    for (let index = 0; index < 6; index += 1) await client.putTo(urls.data.uploadUrls[`frame_${index}`] as string, image('face.jpg'), 'image/jpeg');
    const replay = await client.deepfake.analyze({ scanDurationMs: 3000, frameMeta, s3Keys: urls.data.uploadKeys });
    expect(replay.data).toMatchObject({ verdict: 'DEEPFAKE', trustVerdict: 'REJECT', passed: false, failureReasons: ['STATIC_REPLAY'] });
    expect(replay.raw).not.toHaveProperty('challengeWord');
    const forced = await client.deepfake.analyze({ scanDurationMs: 3000, challengeWord: 'sandbox inconclusive', frameMeta, s3Keys: urls.data.uploadKeys });
    expect(forced.data).toMatchObject({ verdict: 'INCONCLUSIVE', trustVerdict: 'REVIEW' });
  });

  it('errors map to the client classes: a non-UUID is refused locally, 400 ValidationError, 402, 403', async () => {
    const { sandbox, client } = await liveClient();
    expect((await sdkErrorOf(client.deepfake.getChallenge('sess_abc123'))).className).toBe('ValidationError');
    expect(client.exchanges).toHaveLength(0);
    const urls = await client.deepfake.createUploadUrls({ sessionId, includeAudio: false });
    const invalid = await sdkErrorOf(client.deepfake.analyze({ scanDurationMs: 3000, frameMeta: frameMeta.slice(0, 2), s3Keys: urls.data.uploadKeys }));
    expect(invalid).toMatchObject({ className: 'ValidationError', code: 'validation_error', status: 400 });
    expect(invalid.message).toContain('exactly 6 frames');
    const notUploaded = await sdkErrorOf(client.deepfake.analyze({ scanDurationMs: 3000, frameMeta, s3Keys: urls.data.uploadKeys }));
    expect(notUploaded).toMatchObject({ className: 'AuthorizationError', status: 403 });
    const broke = track(new RealClient(sandbox, KEYS.broke));
    expect((await sdkErrorOf(broke.deepfake.analyze({ scanDurationMs: 3000, frameMeta, s3Keys: urls.data.uploadKeys }))).className).toBe(
      'InsufficientFundsError',
    );
  });
});

describe('profiles (§6.11)', () => {
  it('create with a logo (upload URL, PUT, logoUrl = fileKey), create without, list and retrieve parse', async () => {
    const { client } = await liveClient();
    const withLogo = await client.profiles.create({ name: 'Acme onboarding', logo: { file: image('face.jpg'), contentType: 'image/jpeg' } });
    expect(withLogo.data).toMatchObject({ name: 'Acme onboarding', organizationId: 'org_demo', createdAt: FROZEN_AT, updatedAt: FROZEN_AT });
    expect(withLogo.data.logoUrl).toMatch(/^uploads\//);
    const plain = await client.profiles.create({ name: 'Plain' });
    expect(plain.data.logoUrl ?? null).toBeNull();
    const list = await client.profiles.list();
    expect(list.data.profiles.map((profile) => profile.id).sort()).toEqual([withLogo.data.id, plain.data.id].sort());
    expect((await client.profiles.retrieve(withLogo.data.id)).data).toEqual(withLogo.data);
  });

  it('errors map to the client classes: 400 on a bad logo type, 403 on a logo never uploaded, 404 on an unknown profile', async () => {
    const { client } = await liveClient();
    const badType = await sdkErrorOf(client.profiles.createLogoUploadUrl({ contentType: 'image/bmp' as 'image/png', byteLength: 10 }));
    expect(badType).toMatchObject({ className: 'ValidationError', status: 400 });
    const target = await client.profiles.createLogoUploadUrl({ contentType: 'image/png', byteLength: 10 });
    expect((await sdkErrorOf(client.profiles.create({ name: 'Acme', logoUrl: target.data.fileKey }))).className).toBe('AuthorizationError');
    expect((await sdkErrorOf(client.profiles.retrieve('profile_1'))).className).toBe('NotFoundError');
  });
});

describe('credit terms (§6.10)', () => {
  const business = CREDIT_TERMS_BUSINESS;

  it('create, retrieve, list with nextToken and listByExternalId parse; the hosted page finishes one', async () => {
    const { sandbox, client } = await liveClient();
    const created = await client.creditTerms.create({ ...business, requestedCreditPeriod: '30', externalId: 'ct/1 ext', sendEmailInvite: false });
    expect(created.data.externalId).toBe('ct/1 ext');
    const plain = await client.creditTerms.create(business);
    expect(plain.raw).not.toHaveProperty('externalId');
    const record = await client.creditTerms.retrieve(created.data.creditTermsId);
    expect(record.data).toMatchObject({ status: 'pending', type: 'credit-terms', externalId: 'ct/1 ext', Config: { period: '30' } });
    expect((await client.creditTerms.retrieve(plain.data.creditTermsId)).raw).not.toHaveProperty('externalId');

    const page = await sandbox.app.request(pageAddress(created.data.creditTermsUrl, '/action'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=submit',
    });
    expect(page.status).toBe(303);
    expect((await client.creditTerms.retrieve(created.data.creditTermsId)).data.status).toBe('completed');

    const all = await client.creditTerms.list();
    expect(all.data.creditTerms).toHaveLength(2);
    expect(all.data.nextToken).toBeNull();
    const byExternal = await client.creditTerms.listByExternalId('ct/1 ext');
    expect(byExternal.data.creditTerms.map((entry) => entry.id)).toEqual([created.data.creditTermsId]);
    for (let index = 0; index < 10; index += 1) await client.creditTerms.create(business);
    const first = await client.creditTerms.list();
    expect(first.data.creditTerms).toHaveLength(10);
    const second = await client.creditTerms.list({ nextToken: first.data.nextToken ?? '' });
    expect(second.data.creditTerms).toHaveLength(2);
    expect(second.data.nextToken).toBeNull();
  });

  it('errors map to the client classes: 400, 402, 403, 404', async () => {
    const { sandbox, client } = await liveClient();
    expect((await sdkErrorOf(client.creditTerms.create({ ...business, requestedCreditAmount: -5 }))).className).toBe('ValidationError');
    expect((await sdkErrorOf(track(new RealClient(sandbox, KEYS.broke)).creditTerms.create(business))).className).toBe('InsufficientFundsError');
    const created = await client.creditTerms.create(business);
    expect((await sdkErrorOf(track(new RealClient(sandbox, KEYS.other)).creditTerms.retrieve(created.data.creditTermsId))).className).toBe(
      'AuthorizationError',
    );
    expect((await sdkErrorOf(client.creditTerms.retrieve('ct_1'))).className).toBe('NotFoundError');
  });
});

describe('re-verifications (§6.15)', () => {
  const workflowId = '7d3f9c2a-4b1e-4f6a-9c8d-2e5b7a1f3c90';

  it('create (201), startLiveness, createLivenessUploadUrl (with and without clip) and completeLiveness parse; verified', async () => {
    const { sandbox, client } = await liveClient();
    const created = await client.reVerifications.create({ workflowId, deviceFingerprint: 'device-1' });
    expect(created.status).toBe(201);
    expect(created.data.status).toBe('PENDING');
    const id = created.data.re_verification_id;
    const started = await client.reVerifications.startLiveness(id);
    const withClip = await client.reVerifications.createLivenessUploadUrl(id, { frameCount: 4, clipMimeType: 'video/webm' });
    expect(withClip.data.clip_key).toBeDefined();
    const urls = await client.reVerifications.createLivenessUploadUrl(id, { frameCount: 3 });
    expect(urls.raw).not.toHaveProperty('clip_key');
    for (const [index, name] of ['face.jpg', 'face-cropped.jpg', 'face.webp'].entries())
      await client.putTo(urls.data.frame_upload_urls[index] as string, image(name), 'image/jpeg');
    await client.putTo(urls.data.timeline_upload_url, Buffer.from('{"events":[]}'), 'application/json');
    sandbox.clock.advance(started.data.script.durationMs);
    const done = await client.reVerifications.completeLiveness(id);
    expect(done.data).toMatchObject({ decision: 'verified', failed_attempts: 0, max_attempts: 3, liveness: { status: 'SUCCEEDED' } });
  });

  it('body codes and classes: not_found (404), reverify_disabled (422), liveness_not_started / liveness_upload_incomplete / already_completed (409); non-UUID ids refused locally', async () => {
    const { client } = await liveClient();
    const unknownWorkflow = await sdkErrorOf(client.reVerifications.create({ workflowId: 'workflow_123' }));
    expect(unknownWorkflow).toMatchObject({ className: 'NotFoundError', status: 404 });
    expect(unknownWorkflow.response?.body).toMatchObject({ code: 'not_found' });
    const disabled = await sdkErrorOf(client.reVerifications.create({ workflowId: 'c6f1e8b3-7d24-4a9e-8b51-3e0f9d7c2a46' }));
    expect(disabled).toMatchObject({ className: 'ApiError', status: 422 });
    expect(disabled.response?.body).toMatchObject({ error: 'reverify_disabled', code: 'reverify_disabled' });
    expect((await sdkErrorOf(client.reVerifications.startLiveness('rv_1'))).className).toBe('ValidationError');
    const id = (await client.reVerifications.create({ workflowId })).data.re_verification_id;
    const notStarted = await sdkErrorOf(client.reVerifications.completeLiveness(id));
    expect(notStarted).toMatchObject({ className: 'ConflictError', status: 409 });
    expect(notStarted.response?.body).toMatchObject({ code: 'liveness_not_started' });
    await client.reVerifications.startLiveness(id);
    await client.reVerifications.createLivenessUploadUrl(id, { frameCount: 3 });
    const incomplete = await sdkErrorOf(client.reVerifications.completeLiveness(id));
    expect(incomplete.response?.body).toMatchObject({ code: 'liveness_upload_incomplete' });
  });
});

describe('age verification (§6.14)', () => {
  const child = { email: 'kid@example.com', firstName: 'Sam', lastName: 'Lee', phone: '+14155550123' };

  it('create for each method parses (quiz answered as intel-quiz); a Parent Connect request moves to CONSENT_GIVEN and its boundaries parse', async () => {
    const { sandbox, client } = await liveClient();
    const quiz = await client.ageVerification.create({ ...child, method: 'quiz', externalId: 'user-1' });
    expect(quiz.data).toMatchObject({ method: 'intel-quiz', external_id: 'user-1' });
    expect((await client.ageVerification.create({ ...child, method: 'credit-card', expiresInHours: 24 })).data.expires_at).toBe('2026-01-16T09:30:00.000Z');
    const parent = await client.ageVerification.create({
      ...child,
      method: 'parent-connect',
      ageBand: '13-17',
      platformRestrictions: [
        { key: 'chat', label: 'Chat', type: 'toggle', default: false },
        { key: 'dailyMinutes', label: 'Daily minutes', type: 'minutes', min: 0, max: 240, default: 60 },
        { key: 'rating', label: 'Rating', type: 'select', options: ['E', 'T'] },
      ],
      eulaUrl: 'https://example.com/eula',
    });
    expect(parent.data.method).toBe('parent-connect');
    const list = await client.ageVerification.listParentConnectRequests({ childSessionId: parent.data.id, limit: 10 });
    const [request] = list.data.parent_connect_requests;
    expect(request).toMatchObject({ status: 'PENDING', child_session_id: parent.data.id, boundaries: null });
    const id = request?.id as string;
    for (const event of ['invite', 'verify_parent', 'give_consent']) {
      expect(
        (
          await sandbox.call('POST', `/__sandbox/age-verification/parent-connect/${id}/events`, {
            key: null,
            body: { event, boundaries: event === 'give_consent' ? { rating: 'T' } : undefined },
          })
        ).status,
      ).toBe(200);
    }
    const consented = await client.ageVerification.retrieveParentConnectRequest(id);
    expect(consented.data).toMatchObject({
      status: 'CONSENT_GIVEN',
      boundaries: { chat: false, dailyMinutes: 60, rating: 'T' },
      boundaries_revision: 1,
      eula_accepted: true,
    });
    const boundaries = await client.ageVerification.getBoundaries(consented.data.child_attestation_id as string);
    expect(boundaries.data).toMatchObject({ parent_connect_id: id, parental_consent: true, boundaries_match_attestation: true, boundaries_revision: 1 });
    expect((await client.ageVerification.listParentConnectRequests({ status: 'PENDING' })).data.parent_connect_requests).toEqual([]);
  });

  it('a sandbox key reads pc_123 and the boundaries of att_child_123; errors map to 400, 402, 404', async () => {
    const { sandbox, client } = await liveClient();
    const test = track(new RealClient(sandbox, KEYS.sandbox));
    expect((await test.ageVerification.retrieveParentConnectRequest('pc_123')).data).toMatchObject({
      id: 'pc_123',
      status: 'PARENT_INVITED',
      age_band: '13-17',
      contact_method: 'email',
    });
    expect((await test.ageVerification.getBoundaries('att_child_123')).data).toMatchObject({
      boundaries: { chat: false, dailyMinutes: 60 },
      boundaries_revision: 2,
    });
    expect((await test.ageVerification.listParentConnectRequests()).data.parent_connect_requests).toHaveLength(6);
    expect((await sdkErrorOf(client.ageVerification.create({ ...child, method: 'quiz', phone: '12345' }))).className).toBe('ValidationError');
    expect((await sdkErrorOf(track(new RealClient(sandbox, KEYS.broke)).ageVerification.create({ ...child, method: 'quiz' }))).className).toBe(
      'InsufficientFundsError',
    );
    expect((await sdkErrorOf(client.ageVerification.retrieveParentConnectRequest('pc_123'))).className).toBe('NotFoundError');
    expect((await sdkErrorOf(client.ageVerification.getBoundaries('att_nope'))).className).toBe('NotFoundError');
  });
});
