/**
 * Every failure code of a headless step (WORKFLOW_FAILURES) from its documented magic last name and from
 * real image content, as the envelope's `failure`, the state's step `failure` and the session's
 * meta_data.failureData record it.
 */
import { describe, expect, it } from 'vitest';
import { failureRow, WORKFLOW_FAILURES, type WorkflowFailureRow } from '../../src/workflows/steps/index.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { APPLICANT, createHeadlessSession, createWorkflow, fixtureImage, putBytes, submit, uploadToSession } from './helpers.ts';

async function idAttempt(sandbox: TestSandbox, lastName: string, files: Record<string, string>, documentType = 'passport-us') {
  const workflowId = await createWorkflow(sandbox);
  const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, last_name: lastName });
  const keys = await uploadToSession(sandbox, sessionId, files);
  const answer = await submit(sandbox, sessionId, 'ID_VERIFICATION', { document_type: documentType, uploads: keys });
  expect(answer.status, answer.text).toBe(200);
  return { sessionId, answer };
}

/** ID_VERIFICATION passes (passport + face.jpg), then one liveness attempt with the named frames. */
async function livenessAttempt(sandbox: TestSandbox, lastName: string, frames: readonly string[]) {
  const { sessionId, answer } = await idAttempt(sandbox, lastName, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
  expect(answer.body.step_status).toBe('COMPLETED');
  await submit(sandbox, sessionId, 'face-liveness', { action: 'start' });
  const urls = await submit(sandbox, sessionId, 'face-liveness', { action: 'upload-url', frame_count: frames.length });
  for (const [index, name] of frames.entries()) await putBytes(sandbox, urls.body.liveness.frame_upload_urls[index], fixtureImage(name), 'image/jpeg');
  const complete = await submit(sandbox, sessionId, 'face-liveness', { action: 'complete' });
  expect(complete.status, complete.text).toBe(200);
  return { sessionId, answer: complete };
}

async function expectFailure(sandbox: TestSandbox, sessionId: string, answer: { body: any }, code: string) {
  const row = failureRow(code);
  expect(answer.body.failure, JSON.stringify(answer.body)).toMatchObject({
    code,
    category: row.category,
    user_action: row.user_action,
    retryable: true,
    message: expect.stringContaining(row.message),
  });
  expect(answer.body.failure.slot).toBe(row.category === 'DOCUMENT' ? 'PRIMARY' : null);
  expect(answer.body.step_status).toBe('IN_PROGRESS');
  const state = await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`);
  const step = state.body.steps.find((candidate: { step_id: string }) => candidate.step_id === row.step);
  expect(step.failure).toEqual(answer.body.failure);
  const record = (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record;
  expect(record.meta_data.failureData.attempts.at(-1)).toMatchObject({ slot: row.step === 'FACE_LIVENESS' ? 'LIVENESS' : 'PRIMARY' });
}

describe('failure codes from magic last names', () => {
  const headless = (Object.entries(WORKFLOW_FAILURES) as [string, WorkflowFailureRow][]).filter(
    ([, row]) => row.step === 'ID_VERIFICATION' || row.step === 'FACE_LIVENESS',
  );
  for (const [code, row] of headless) {
    it(`last name ${row.magicLastName} -> ${code} (${row.reason})`, async () => {
      const sandbox = await testSandbox({ rateLimit: false });
      const { sessionId, answer } =
        row.step === 'ID_VERIFICATION'
          ? await idAttempt(sandbox, row.magicLastName as string, { id_front: 'passport.jpg', selfie_front: 'face.jpg' })
          : await livenessAttempt(sandbox, row.magicLastName as string, ['face.jpg', 'face-cropped.jpg', 'face.webp']);
      await expectFailure(sandbox, sessionId, answer, code);
      if (code !== 'UNKNOWN') expect(answer.body.failure_reason).toBe(row.reason);
    });
  }
});

describe('failure codes from image content and inputs', () => {
  // Types that are not front-only take a back image (passport.jpg stands in for it).
  const ID_CASES: [string, { id_front: string; id_back?: string; selfie_front: string }, string][] = [
    ['DOCUMENT_TYPE_UNRECOGNIZED', { id_front: 'passport.jpg', id_back: 'passport.jpg', selfie_front: 'face.jpg' }, 'library-card'],
    ['DOCUMENT_TYPE_NOT_ACCEPTED', { id_front: 'passport.jpg', id_back: 'passport.jpg', selfie_front: 'face.jpg' }, 'passport-gb'],
    ['ID_TEXT_NOT_READABLE', { id_front: 'blank.png', selfie_front: 'face.jpg' }, 'passport-us'],
    ['DOCUMENT_TYPE_LOW_CONFIDENCE', { id_front: 'face.jpg', selfie_front: 'face.jpg' }, 'passport-us'],
    ['SELFIE_FACE_NOT_DETECTED', { id_front: 'passport.jpg', selfie_front: 'blank.png' }, 'passport-us'],
    ['SELFIE_MULTIPLE_FACES', { id_front: 'passport.jpg', selfie_front: 'passport.jpg' }, 'passport-us'],
    ['SELFIE_ID_FACE_MISMATCH', { id_front: 'passport.jpg', selfie_front: 'different-face.jpg' }, 'passport-us'],
  ];
  for (const [code, files, documentType] of ID_CASES) {
    it(`${files.id_front} + ${files.selfie_front} as ${documentType} -> ${code}`, async () => {
      const sandbox = await testSandbox({ rateLimit: false });
      const { sessionId, answer } = await idAttempt(sandbox, 'Doe', files, documentType);
      await expectFailure(sandbox, sessionId, answer, code);
    });
  }

  it('liveness frames without a face -> LIVENESS_FAILED, status FAILED, confidence null, passed false', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, answer } = await livenessAttempt(sandbox, 'Doe', ['blank.png', 'blank.png', 'blank.png']);
    expect(answer.body.liveness).toMatchObject({ status: 'FAILED', confidence: null, passed: false });
    await expectFailure(sandbox, sessionId, answer, 'LIVENESS_FAILED');
  });

  it('liveness frames of another person than the selfie -> LIVENESS_ID_MISMATCH, passed false', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, answer } = await livenessAttempt(sandbox, 'Doe', ['different-face.jpg', 'different-face.jpg', 'different-face.jpg']);
    expect(answer.body.liveness).toMatchObject({ status: 'SUCCEEDED', passed: false, confidence: expect.any(Number) });
    await expectFailure(sandbox, sessionId, answer, 'LIVENESS_ID_MISMATCH');
  });

  it('the same frames of the selfie person pass: no failure key, the step COMPLETED', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { answer } = await livenessAttempt(sandbox, 'Doe', ['face.jpg', 'face-cropped.jpg', 'face.webp']);
    expect(answer.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', liveness: { status: 'SUCCEEDED', passed: true } });
    expect(answer.body).not.toHaveProperty('failure');
  });
});

describe('session_failure', () => {
  it('ATTEMPTS_EXHAUSTED once the limit is reached: on the envelope and the state, failure not retryable', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const workflowId = await createWorkflow(sandbox);
    const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, last_name: 'Mismatch' });
    let last: { body: any } | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const keys = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
      last = await submit(sandbox, sessionId, 'ID_VERIFICATION', { document_type: 'passport-us', uploads: keys });
    }
    const expected = {
      code: 'ATTEMPTS_EXHAUSTED',
      step_id: 'ID_VERIFICATION',
      failure: { code: 'SELFIE_ID_FACE_MISMATCH', category: 'FACE_MATCH', user_action: 'NONE', retryable: false, slot: null, message: expect.any(String) },
    };
    expect(last?.body).toMatchObject({ step_status: 'FAILED', session_status: 'FAILED', current_step: null, session_failure: expected });
    const state = await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expect(state.body.session_failure).toEqual(last?.body.session_failure);
  });

  it('SESSION_EXPIRED once expires_at passed with a step open', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const workflowId = await createWorkflow(sandbox);
    const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, expires_in_hours: 1 });
    sandbox.clock.advance(3_600_000);
    const state = await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expect(state.body.session_failure).toEqual({ code: 'SESSION_EXPIRED', step_id: 'ID_VERIFICATION' });
    const refused = await submit(sandbox, sessionId, 'ID_VERIFICATION', {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'SESSION_TERMINAL', current_step: null });
  });
});
