import { describe, expect, it } from 'vitest';
import {
  CompleteLivenessResponseSchema,
  CreateReVerificationResponseSchema,
  StartLivenessResponseSchema,
  UploadUrlResponseSchema,
} from '../../src/re-verifications/re-verifications.schemas.ts';
import { scriptFor } from '../../src/re-verifications/re-verifications.service.ts';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { fixture } from '../images/http-helpers.ts';

const LIVE = ['face.jpg', 'face-cropped.jpg', 'face.webp'];

async function create(sandbox: TestSandbox, body: Record<string, unknown> = {}) {
  const response = await sandbox.call('POST', '/v1/re-verifications', { body: { workflow_id: FIXTURE_WORKFLOW_IDS.identity72h, ...body } });
  expect(response.status, response.text).toBe(201);
  return CreateReVerificationResponseSchema.parse(response.body).re_verification_id;
}

const lifecycle = (sandbox: TestSandbox, id: string, step: 'start' | 'upload-url' | 'complete', body: unknown = {}, key: string = KEYS.live) =>
  sandbox.call('POST', `/v1/re-verifications/${id}/liveness/${step}`, { body, key });

async function put(sandbox: TestSandbox, url: string, bytes: Uint8Array, contentType: string) {
  const target = new URL(url);
  const response = await sandbox.app.request(target.pathname + target.search, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  expect(response.status).toBe(200);
}

/** Start, wait for the script, upload the named frames and a timeline, complete. */
async function attempt(sandbox: TestSandbox, id: string, frames: readonly string[] = LIVE, options: { early?: boolean; timeline?: string } = {}) {
  const started = StartLivenessResponseSchema.parse((await lifecycle(sandbox, id, 'start')).body);
  const urls = UploadUrlResponseSchema.parse((await lifecycle(sandbox, id, 'upload-url', { frame_count: frames.length })).body);
  for (const [index, name] of frames.entries()) await put(sandbox, urls.frame_upload_urls[index] as string, fixture(name), 'image/jpeg');
  await put(sandbox, urls.timeline_upload_url, Buffer.from(options.timeline ?? JSON.stringify(started.script.steps)), 'application/json');
  if (!options.early) sandbox.clock.advance(started.script.durationMs);
  return lifecycle(sandbox, id, 'complete');
}

describe('re-verifications', () => {
  it('creates PENDING (201) with the workflow’s challenge type and a 30-minute expiry', async () => {
    const sandbox = await testSandbox();
    const response = await sandbox.call('POST', '/v1/re-verifications', {
      body: { workflow_id: FIXTURE_WORKFLOW_IDS.identity72h, device_fingerprint: 'fp-1' },
    });
    expect(response.status).toBe(201);
    expect(CreateReVerificationResponseSchema.parse(response.body)).toMatchObject({
      workflow_id: FIXTURE_WORKFLOW_IDS.identity72h,
      status: 'PENDING',
      expires_at: '2026-01-15T10:00:00.000Z',
      liveness: { challenge_type: 'FaceMovementAndLightChallenge' },
    });
  });

  it('answers create errors with their codes: not_found (404) for an unknown or foreign workflow, reverify_disabled (422) without face liveness', async () => {
    const sandbox = await testSandbox();
    for (const workflowId of ['workflow_123', FIXTURE_WORKFLOW_IDS.otherOrganization]) {
      const response = await sandbox.call('POST', '/v1/re-verifications', { body: { workflow_id: workflowId } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found' });
    }
    const disabled = await sandbox.call('POST', '/v1/re-verifications', { body: { workflow_id: FIXTURE_WORKFLOW_IDS.bankStatements } });
    expect(disabled.status).toBe(422);
    expect(disabled.body).toMatchObject({ error: 'reverify_disabled', code: 'reverify_disabled' });
    expect(disabled.body.message).toContain('no face-liveness step');
    const long = await sandbox.call('POST', '/v1/re-verifications', { body: { workflow_id: 'x'.repeat(129) } });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('workflow_id');
    expect((await sandbox.call('POST', '/v1/re-verifications', { body: { workflow_id: FIXTURE_WORKFLOW_IDS.identity72h }, key: KEYS.sandbox })).status).toBe(
      403,
    );
  });

  it('runs PENDING -> LIVENESS_STARTED -> COMPLETED: a seeded light script, frame keys as many as URLs, decision verified', async () => {
    const sandbox = await testSandbox();
    const id = await create(sandbox, { device_fingerprint: 'fp-1' });
    const started = StartLivenessResponseSchema.parse((await lifecycle(sandbox, id, 'start')).body);
    expect(started.script.challengeType).toBe('FaceMovementAndLightChallenge');
    expect(started.script.durationMs).toBe(4000);
    expect(started.script.steps.map((step) => step.kind)).toEqual(['color', 'color', 'color', 'color', 'move-closer']);
    expect(started.script.steps.at(-1)).toEqual({ kind: 'move-closer', atMs: 2000 });
    const urls = UploadUrlResponseSchema.parse((await lifecycle(sandbox, id, 'upload-url', { frame_count: 3, clip_mime_type: 'video/mp4' })).body);
    expect(urls.frame_keys).toHaveLength(urls.frame_upload_urls.length);
    expect(urls.clip_key).toBeDefined();
    for (const [index, name] of LIVE.entries()) await put(sandbox, urls.frame_upload_urls[index] as string, fixture(name), 'image/jpeg');
    await put(sandbox, urls.timeline_upload_url, Buffer.from('[]'), 'application/json');
    const incomplete = await lifecycle(sandbox, id, 'complete');
    expect(incomplete.status).toBe(409);
    expect(incomplete.body).toMatchObject({ code: 'liveness_upload_incomplete' });
    expect(incomplete.body).toMatchObject({ error: 'liveness_upload_incomplete', message: expect.stringContaining('clip') });
    await put(sandbox, urls.clip_upload_url as string, Buffer.from('mp4'), 'video/mp4');
    sandbox.clock.advance(4000);
    const done = await lifecycle(sandbox, id, 'complete');
    expect(done.status, done.text).toBe(200);
    const decision = CompleteLivenessResponseSchema.parse(done.body);
    expect(decision).toMatchObject({ decision: 'verified', failed_attempts: 0, max_attempts: 3, liveness: { status: 'SUCCEEDED' } });
    expect(decision.liveness.confidence).toBeGreaterThanOrEqual(70);
    expect(decision.user_id).toMatch(/^[0-9a-f-]{36}$/);
    for (const step of ['start', 'upload-url'] as const) {
      const after = await lifecycle(sandbox, id, step, { frame_count: 3 });
      expect(after.status).toBe(409);
      expect(after.body).toMatchObject({ error: 'already_completed', code: 'already_completed' });
    }
    const replayed = await lifecycle(sandbox, id, 'complete');
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual(done.body);
  });

  it('asks for the liveness again (retry_liveness, back to PENDING) when completed before the script could finish, then verifies', async () => {
    const sandbox = await testSandbox();
    const id = await create(sandbox);
    const early = CompleteLivenessResponseSchema.parse((await attempt(sandbox, id, LIVE, { early: true })).body);
    expect(early).toMatchObject({ decision: 'retry_liveness', failed_attempts: 0, liveness: { status: 'FAILED', confidence: null } });
    expect((await lifecycle(sandbox, id, 'complete')).body.code).toBe('liveness_not_started');
    const second = CompleteLivenessResponseSchema.parse((await attempt(sandbox, id)).body);
    expect(second).toMatchObject({ decision: 'verified', failed_attempts: 0 });
    expect(second).not.toHaveProperty('user_id');
  });

  it('answers retry for a replayed still and another face, and failed (FAILED) at the attempt limit', async () => {
    const sandbox = await testSandbox();
    const id = await create(sandbox);
    const replay = CompleteLivenessResponseSchema.parse((await attempt(sandbox, id, ['face.jpg', 'face.jpg', 'face.jpg'])).body);
    expect(replay).toMatchObject({ decision: 'retry', failed_attempts: 1, liveness: { status: 'FAILED' } });
    const switched = CompleteLivenessResponseSchema.parse((await attempt(sandbox, id, ['face.jpg', 'face-cropped.jpg', 'different-face.jpg'])).body);
    expect(switched).toMatchObject({ decision: 'retry', failed_attempts: 2 });
    const blank = CompleteLivenessResponseSchema.parse((await attempt(sandbox, id, ['face.jpg', 'blank.png', 'face.webp'])).body);
    expect(blank).toMatchObject({ decision: 'retry_liveness', failed_attempts: 2, max_attempts: 3 });
    const third = CompleteLivenessResponseSchema.parse((await attempt(sandbox, id, ['face.jpg', 'face.jpg', 'face.jpg'])).body);
    expect(third).toMatchObject({ decision: 'failed', failed_attempts: 3, max_attempts: 3 });
    expect((await lifecycle(sandbox, id, 'start')).body.code).toBe('already_completed');
  });

  it('magic device_fingerprint sandbox-liveness-fails fails every attempt with confidence 12.5', async () => {
    const sandbox = await testSandbox();
    const id = await create(sandbox, { device_fingerprint: 'sandbox-liveness-fails' });
    const response = await attempt(sandbox, id);
    expect(CompleteLivenessResponseSchema.parse(response.body)).toMatchObject({ decision: 'retry', liveness: { status: 'FAILED', confidence: 12.5 } });
    expect(response.headers.get('x-sandbox-explain')).toContain('magic value');
  });

  it('answers the lifecycle codes: not_found, liveness_not_started, expired, insufficient_balance; bad upload-url bodies name the field', async () => {
    const sandbox = await testSandbox();
    const unknown = await lifecycle(sandbox, '0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e', 'start');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const id = await create(sandbox);
    expect((await lifecycle(sandbox, id, 'start', {}, KEYS.other)).body.code).toBe('not_found');
    const notStarted = await lifecycle(sandbox, id, 'upload-url', { frame_count: 3 });
    expect(notStarted.status).toBe(409);
    expect(notStarted.body.code).toBe('liveness_not_started');
    expect((await lifecycle(sandbox, id, 'complete')).body.code).toBe('liveness_not_started');
    await lifecycle(sandbox, id, 'start');
    expect((await lifecycle(sandbox, id, 'complete')).body.code).toBe('liveness_upload_incomplete');
    for (const [body, field] of [
      [{ frame_count: 2 }, 'frame_count'],
      [{ frame_count: 9 }, 'frame_count'],
      [{ frame_count: 3, clip_mime_type: 'video/avi' }, 'clip_mime_type'],
    ] as const) {
      const bad = await lifecycle(sandbox, id, 'upload-url', body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain(field);
    }
    await sandbox.call('PUT', '/__sandbox/organizations/org_demo/balance', { key: null, body: { balance: 0 } });
    const broke = await lifecycle(sandbox, id, 'start');
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('insufficient_balance');
    sandbox.clock.advance(30 * 60_000);
    for (const step of ['start', 'upload-url', 'complete'] as const) {
      const expired = await lifecycle(sandbox, id, step, { frame_count: 3 });
      expect(expired.status).toBe(409);
      expect(expired.body.code).toBe('expired');
    }
  });

  it('puts the code in error and code and the sentence in message, for every lifecycle error', async () => {
    const sandbox = await testSandbox();
    const id = await create(sandbox);
    for (const [response, code, status] of [
      [await lifecycle(sandbox, '0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e', 'complete'), 'not_found', 404],
      [await lifecycle(sandbox, id, 'complete'), 'liveness_not_started', 409],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.body).toEqual({ error: code, code, message: expect.stringMatching(/^Re-verification .+\.$/) });
    }
  });

  it('mints a new attempt on every start: a new script, and the previous upload keys no longer count', async () => {
    const sandbox = await testSandbox();
    const id = await create(sandbox);
    const first = StartLivenessResponseSchema.parse((await lifecycle(sandbox, id, 'start')).body);
    const urls = UploadUrlResponseSchema.parse((await lifecycle(sandbox, id, 'upload-url', { frame_count: 3 })).body);
    for (const [index, name] of LIVE.entries()) await put(sandbox, urls.frame_upload_urls[index] as string, fixture(name), 'image/jpeg');
    await put(sandbox, urls.timeline_upload_url, Buffer.from('[]'), 'application/json');
    const second = StartLivenessResponseSchema.parse((await lifecycle(sandbox, id, 'start')).body);
    expect(second.liveness_session_id).not.toBe(first.liveness_session_id);
    expect(second.script).toEqual(scriptFor('FaceMovementAndLightChallenge', id, 2));
    sandbox.clock.advance(second.script.durationMs);
    const complete = await lifecycle(sandbox, id, 'complete');
    expect(complete.status).toBe(409);
    expect(complete.body.code).toBe('liveness_upload_incomplete');
  });

  it('gives a FaceMovementChallenge a script without colour flashes, and seeds the light script by id and attempt', () => {
    expect(scriptFor('FaceMovementChallenge', 'a', 1)).toEqual({
      challengeType: 'FaceMovementChallenge',
      durationMs: 3000,
      steps: [{ kind: 'move-closer', atMs: 1000 }],
    });
    expect(scriptFor('FaceMovementAndLightChallenge', 'a', 1)).toEqual(scriptFor('FaceMovementAndLightChallenge', 'a', 1));
    const colours = (attemptNumber: number) =>
      scriptFor('FaceMovementAndLightChallenge', 'a', attemptNumber)
        .steps.map((step) => step.color ?? '')
        .join();
    expect([2, 3, 4, 5].some((attemptNumber) => colours(attemptNumber) !== colours(1))).toBe(true);
  });
});
