import { describe, expect, it } from 'vitest';
import { failureRow } from '../../src/workflows/steps/index.ts';
import { SingleSessionResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { StepSubmissionResponseSchema, WorkflowStateSchema } from '../../src/workflows/workflow-sessions.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { APPLICANT, createHeadlessSession, createWorkflow, fixtureImage, passportAndSelfie, putBytes, submit, uploadToSession } from './helpers.ts';

async function headless(sandbox: TestSandbox, steps?: unknown[], applicant: Record<string, unknown> = APPLICANT) {
  const workflowId = await createWorkflow(sandbox, steps);
  return { workflowId, sessionId: await createHeadlessSession(sandbox, workflowId, applicant) };
}

describe('POST /v1/sessions/{id}/steps/{step_id}: the full happy path', () => {
  it('runs ID_VERIFICATION and FACE_LIVENESS on the uploaded images and leaves the outcome on the session record', async () => {
    const sandbox = await testSandbox();
    const { workflowId, sessionId } = await headless(sandbox);

    // ID_VERIFICATION: a passport of person A and a selfie of person A.
    const id = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    expect(id.status, id.text).toBe(200);
    expect(Object.keys(id.body)[0]).toBe('step_id');
    expect(StepSubmissionResponseSchema.parse(id.body)).toMatchObject({
      step_id: 'ID_VERIFICATION',
      step_status: 'COMPLETED',
      failure_reason: null,
      current_step: 1,
      attempts_remaining: 3,
      session_status: 'PENDING',
      session_progress: 'STARTED',
    });
    expect(id.body.checks.documents[0]).toMatchObject({ slot: 'PRIMARY', document_type: 'passport-us', expiry_date_pass: true, age_restriction_pass: true });
    expect(id.body.checks.face_match_confidence).toBeGreaterThanOrEqual(80);

    // FACE_LIVENESS: start mints streaming credentials, complete scores the selfie.
    const start = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'start' });
    expect(start.status, start.text).toBe(200);
    expect(start.body).toMatchObject({ step_id: 'FACE_LIVENESS', step_status: 'IN_PROGRESS', current_step: 1 });
    expect(start.body.liveness.liveness_session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(start.body.liveness.credentials).toMatchObject({ access_key_id: expect.stringMatching(/^ASIA/), expiration: '2026-01-15T09:45:00.000Z' });
    const complete = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'complete' });
    expect(complete.status, complete.text).toBe(200);
    expect(StepSubmissionResponseSchema.parse(complete.body)).toMatchObject({
      step_status: 'COMPLETED',
      current_step: null,
      session_status: 'VERIFIED',
      session_progress: 'COMPLETED',
    });
    expect(complete.body.liveness).toMatchObject({ passed: true, confidence_threshold: 70 });

    // The session's outcome in GET /v1/sessions/{id}.
    const read = await sandbox.call('GET', `/v1/sessions/${sessionId}`);
    const record = SingleSessionResponseSchema.parse(read.body).session_record;
    expect(record).toMatchObject({
      status: 'VERIFIED',
      type: 'session',
      session_progress: 'COMPLETED',
      workflow_id: workflowId,
      workflow_steps: ['id-verification', 'face-liveness'],
    });
    expect(record.uploads).toMatchObject({ id_front: true, selfie_front: true, id_back: false });
    expect(record.analysis_data).toMatchObject({
      id_matches_selfie: true,
      compare_faces_data: { face_match_result: 'MATCH' },
      selected_document_types: { primary: 'passport-us' },
      id_analysis_data: { expiry_date_pass: true, age_restriction_pass: true, valid_state_pass: true },
      faceliveness_score: complete.body.liveness.confidence,
    });
    expect(record.analysis_data?.id_analysis_data?.id_extracted_text.find((t) => t.type === 'DOCUMENT_NUMBER')?.value).toBe(
      id.body.checks.documents[0].document_number,
    );

    const state = await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expect(WorkflowStateSchema.parse(state.body)).toMatchObject({ status: 'VERIFIED', current_step: null, attempts_remaining: 3 });
    expect(state.body.steps.map((s: { status: string; attempts: number }) => [s.status, s.attempts])).toEqual([
      ['COMPLETED', 1],
      ['COMPLETED', 1],
    ]);
  });

  it('accepts file keys of the generic presign flow and flips the uploads flags it read', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox, [{ id: 'ID_VERIFICATION' }]);
    const presign = await sandbox.call('POST', '/v1/upload/presign', {
      body: {
        files: [
          { contentType: 'image/jpeg', byteLength: 200_000 },
          { contentType: 'image/jpeg', byteLength: 200_000 },
        ],
      },
    });
    const [front, selfie] = presign.body.uploads as { uploadUrl: string; fileKey: string }[];
    await putBytes(sandbox, front!.uploadUrl, fixtureImage('passport.jpg'), 'image/jpeg');
    await putBytes(sandbox, selfie!.uploadUrl, fixtureImage('face.jpg'), 'image/jpeg');
    const done = await submit(sandbox, sessionId, 'ID_VERIFICATION', {
      document_type: 'passport-ca',
      uploads: { id_front: front!.fileKey, selfie_front: selfie!.fileKey },
    });
    expect(done.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', current_step: null });
    const record = (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record;
    expect(record.uploads).toMatchObject({ id_front: true, selfie_front: true });
  });
});

describe('failed attempts', () => {
  it('fails the face step with a selfie of another person, and the step can be retried', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId, 'different-face.jpg'));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      step_status: 'IN_PROGRESS',
      failure_reason: 'LOW_FACE_MATCH',
      current_step: 0,
      attempts_remaining: 2,
      session_status: 'PENDING',
    });
    expect(response.body.checks.id_matches_selfie).toBe(false);
    expect(response.headers.get('x-sandbox-explain')).toMatch(/face similarity [\d.]+ < threshold 80/);
    const record = (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record;
    expect(record.analysis_data).toMatchObject({ id_matches_selfie: false, compare_faces_data: { face_match_result: 'NO_MATCH' } });
    expect(record.meta_data.failureData).toEqual({
      failedAttempts: 1,
      attempts: [{ reason: 'LOW_FACE_MATCH', slot: 'PRIMARY', failedAt: '2026-01-15T09:30:00.000Z' }],
    });

    const retry = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    expect(retry.body).toMatchObject({ step_status: 'COMPLETED', current_step: 1, attempts_remaining: 2 });
  });

  it('ends the session FAILED with failureData when the failed attempts reach the workflow limit', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const body = await passportAndSelfie(sandbox, sessionId, 'blank.png');
    const reasons: unknown[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      sandbox.clock.advance(60_000);
      const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', body);
      expect(response.status, response.text).toBe(200);
      reasons.push([response.body.step_status, response.body.attempts_remaining, response.body.session_status]);
    }
    expect(reasons).toEqual([
      ['IN_PROGRESS', 2, 'PENDING'],
      ['IN_PROGRESS', 1, 'PENDING'],
      ['FAILED', 0, 'FAILED'],
    ]);
    const record = (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record;
    expect(record).toMatchObject({ status: 'FAILED', session_progress: 'COMPLETED' });
    expect(record.meta_data.failureData.failedAttempts).toBe(3);
    expect(record.meta_data.failureData.attempts.map((a: { reason: string; failedAt: string }) => [a.reason, a.failedAt])).toEqual([
      ['NO_FACE_DETECTED', '2026-01-15T09:31:00.000Z'],
      ['NO_FACE_DETECTED', '2026-01-15T09:32:00.000Z'],
      ['NO_FACE_DETECTED', '2026-01-15T09:33:00.000Z'],
    ]);
    const state = (await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`)).body;
    expect(state).toMatchObject({ status: 'FAILED', current_step: null, attempts_remaining: 0 });
    expect(state.steps[0]).toMatchObject({ status: 'FAILED', attempts: 3, failure_reason: 'NO_FACE_DETECTED', completed_at: '2026-01-15T09:33:00.000Z' });

    const after = await submit(sandbox, sessionId, 'ID_VERIFICATION', body);
    expect(after.status).toBe(409);
    expect(after.body.error).toMatch(/is FAILED \(terminal\).*POST \/v1\/workflows\/.*\/sessions/);
  });

  it('fails an unreadable document with OCR_NAME_MISSING and an unknown document type with DOC_TYPE_NOT_ALLOWED', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const keys = await uploadToSession(sandbox, sessionId, { id_front: 'blank.png', id_back: 'passport.jpg', selfie_front: 'face.jpg' });
    const unreadable = await submit(sandbox, sessionId, 'ID_VERIFICATION', {
      document_type: 'passport-us',
      uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front },
    });
    expect(unreadable.body.failure_reason).toBe('OCR_NAME_MISSING');
    const notAllowed = await submit(sandbox, sessionId, 'ID_VERIFICATION', {
      document_type: 'library-card',
      uploads: { id_front: keys.id_front, id_back: keys.id_back, selfie_front: keys.selfie_front },
    });
    expect(notAllowed.body.failure_reason).toBe('DOC_TYPE_NOT_ALLOWED');
  });
});

describe('magic inputs', () => {
  it('reads every document as expired for the last name Expired', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox, undefined, { ...APPLICANT, last_name: 'Expired' });
    const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    expect(response.body).toMatchObject({ step_status: 'IN_PROGRESS', failure_reason: 'DOCUMENT_EXPIRED' });
    expect(response.body.checks.documents[0]).toMatchObject({ expiry_date_pass: false, age_restriction_pass: true });
    const text = (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record.analysis_data.id_analysis_data.id_extracted_text;
    expect(text.find((t: { type: string }) => t.type === 'EXPIRATION_DATE').value).toBe('2023-01-15');
  });

  it('reads the holder as under minimum_age for the last name Underage (any case)', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox, [{ id: 'ID_VERIFICATION', config: { minimum_age: 21 } }], { ...APPLICANT, last_name: 'UNDERAGE' });
    const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    expect(response.body).toMatchObject({ failure_reason: 'AGE_RESTRICTION_FAILED' });
    expect(response.body.checks.documents[0]).toMatchObject({ expiry_date_pass: true, age_restriction_pass: false });
  });

  it('lists the magic inputs in the catalog', async () => {
    const sandbox = await testSandbox();
    const catalog = (await sandbox.call('GET', '/__sandbox/catalog', { key: null })).body;
    const inputs = catalog.magicValues.map((entry: { input: string }) => entry.input);
    expect(inputs).toEqual(
      expect.arrayContaining([
        'last_name Expired (any case)',
        'last_name Underage (any case)',
        'last_name Mismatch (any case)',
        'last_name Slowliveness (any case)',
        failureRow('SELFIE_ID_FACE_MISMATCH').content,
      ]),
    );
  });

  it('fails FACE_LIVENESS when the score is under confidence_threshold', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox, [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS', config: { confidence_threshold: 100 } }]);
    await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'start' });
    const complete = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'complete' });
    expect(complete.body).toMatchObject({
      step_status: 'IN_PROGRESS',
      failure_reason: 'LIVENESS_FAILED',
      attempts_remaining: 2,
      liveness: { passed: false, confidence_threshold: 100 },
    });
    const again = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'complete' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/submit \{"action": "start"\} first/);
  });
});

describe('FACE_LIVENESS upload-url', () => {
  it('presigns 1-8 frame URLs in the sandbox upload store and scores the frames that arrived', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox, [{ id: 'FACE_LIVENESS' }]);
    for (const frame_count of [0, 9, 2.5, '3']) {
      const bad = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'upload-url', frame_count });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/frame_count/);
    }
    const badClip = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'upload-url', frame_count: 2, clip_mime_type: 'video/avi' });
    expect(badClip.body.error).toMatch(/clip_mime_type must be video\/webm or video\/mp4/);
    const urls = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'upload-url', frame_count: 2, clip_mime_type: 'video/mp4' });
    expect(urls.status, urls.text).toBe(200);
    expect(urls.body.liveness.frame_upload_urls).toHaveLength(2);
    expect(urls.body.liveness.frame_keys).toHaveLength(2);
    expect(urls.body.liveness).toMatchObject({ frame_content_type: 'image/jpeg', clip_content_type: 'video/mp4' });
    for (const url of urls.body.liveness.frame_upload_urls) await putBytes(sandbox, url, fixtureImage('face.jpg'), 'image/jpeg');
    await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'start' });
    const complete = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'complete' });
    expect(complete.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED' });
    expect(complete.headers.get('x-sandbox-explain')).toMatch(/from 2 uploaded frame\(s\)/);
  });
});

describe('order, repetition, concurrency and expiry', () => {
  it('refuses a step out of order and a repeated one with 409 (code, current_step, step_id), one the workflow does not have with 404', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const early = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'start' });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      error: `FACE_LIVENESS is PENDING on session ${sessionId}, and steps go in order: submit ID_VERIFICATION (step 0) next.`,
      code: 'STEP_OUT_OF_ORDER',
      current_step: 0,
      step_id: 'ID_VERIFICATION',
    });
    await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    const repeated = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
    expect(repeated.status).toBe(409);
    expect(repeated.body.error).toMatch(/ID_VERIFICATION is COMPLETED .* submit FACE_LIVENESS \(step 1\) next/);
    expect(repeated.body).toMatchObject({ code: 'STEP_NOT_SUBMITTABLE', current_step: 1, step_id: 'ID_VERIFICATION' });

    const only = await headless(sandbox, [{ id: 'ID_VERIFICATION' }]);
    const missing = await submit(sandbox, only.sessionId, 'FACE_LIVENESS', { action: 'start' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'STEP_NOT_FOUND', error: expect.stringMatching(/has no FACE_LIVENESS step/) });
  });

  it('refuses a second submission while the first one runs', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const body = await passportAndSelfie(sandbox, sessionId);
    const [first, second] = await Promise.all([submit(sandbox, sessionId, 'ID_VERIFICATION', body), submit(sandbox, sessionId, 'ID_VERIFICATION', body)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect(refused.body.error).toMatch(/still running: wait for its response/);
    const state = (await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`)).body;
    expect(state.steps[0]).toMatchObject({ status: 'COMPLETED', attempts: 1 });
  });

  it('refuses steps once the session expired on the virtual clock', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, expires_in_hours: 1 });
    const body = await passportAndSelfie(sandbox, sessionId);
    sandbox.clock.advance(3_600_000);
    const late = await submit(sandbox, sessionId, 'ID_VERIFICATION', body);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(
      `Session ${sessionId} expired at 2026-01-15T10:30:00.000Z: no step can be submitted any more; create a new session with POST /v1/workflows/${workflowId}/sessions.`,
    );
    const start = await sandbox.call('POST', `/v1/sessions/${sessionId}/workflow/start`, { body: {} });
    expect(start.status).toBe(409);
  });
});

describe('file keys', () => {
  it("refuses another organization's file key with 403 and changes nothing", async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const own = await passportAndSelfie(sandbox, sessionId);
    const presign = await sandbox.call('POST', '/v1/upload/presign', {
      key: KEYS.other,
      body: { files: [{ contentType: 'image/jpeg', byteLength: 100_000 }] },
    });
    const foreign = presign.body.uploads[0] as { uploadUrl: string; fileKey: string };
    await putBytes(sandbox, foreign.uploadUrl, fixtureImage('face.jpg'), 'image/jpeg');
    const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', { ...own, uploads: { ...own.uploads, selfie_front: foreign.fileKey } });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/is not readable by this organization/);
    const state = (await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`)).body;
    expect(state.steps[0]).toMatchObject({ status: 'PENDING', attempts: 0 });
  });

  it('refuses a value that is not a file key, and bytes that are not an image', async () => {
    const sandbox = await testSandbox();
    const { sessionId } = await headless(sandbox);
    const own = await passportAndSelfie(sandbox, sessionId);
    const notKey = await submit(sandbox, sessionId, 'ID_VERIFICATION', { ...own, uploads: { ...own.uploads, id_front: 'aGVsbG8=' } });
    expect(notKey.status).toBe(400);
    expect(notKey.body.error).toMatch(/uploads.id_front "aGVsbG8=" is not a file key/);
    const presign = await sandbox.call('POST', '/v1/upload/presign', { body: { files: [{ contentType: 'image/jpeg', byteLength: 100 }] } });
    await putBytes(sandbox, presign.body.uploads[0].uploadUrl, Buffer.from('not an image at all'), 'image/jpeg');
    const broken = await submit(sandbox, sessionId, 'ID_VERIFICATION', { ...own, uploads: { ...own.uploads, id_front: presign.body.uploads[0].fileKey } });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/uploads.id_front/);
  });
});
