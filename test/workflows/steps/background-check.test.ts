/** BACKGROUND_CHECK on a hosted workflow session: screens the identity ID_VERIFICATION read from the document. */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { submit, uploadToSession } from '../helpers.ts';
import { advanceClock, expectBadBody, expectFailedAttempt, expectHeadlessRefusal, HOSTED_APPLICANT, hostedSession, sessionRecord, submitOk } from './hosted.ts';

const STEPS = ['ID_VERIFICATION', 'BACKGROUND_CHECK'];
const JOB_DONE_MS = 3000;
/** GET /v1/async-jobs/{jobId} answers 404 this long after the job was created. */
const JOB_RETENTION_MS = 24 * 3_600_000;

/** ID_VERIFICATION passes with the document `idFront` (and the face.jpg selfie); returns the session id and the identity read. */
async function verifiedIdentity(sandbox: TestSandbox, idFront: string, applicant: Record<string, unknown> = HOSTED_APPLICANT) {
  const sessionId = await hostedSession(sandbox, STEPS, applicant);
  const keys = await uploadToSession(sandbox, sessionId, { id_front: idFront, selfie_front: 'face.jpg' });
  const id = await submitOk(sandbox, sessionId, 'ID_VERIFICATION', {
    document_type: 'passport-us',
    uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front },
  });
  expect(id.step_status, JSON.stringify(id)).toBe('COMPLETED');
  const text = (await sessionRecord(sandbox, sessionId)).analysis_data.id_analysis_data.id_extracted_text as { type: string; value: string }[];
  const field = (type: string) => text.find((entry) => entry.type === type)?.value;
  return { sessionId, identity: { first_name: field('FIRST_NAME'), last_name: field('LAST_NAME'), date_of_birth: field('DATE_OF_BIRTH') } };
}

async function runCheck(sandbox: TestSandbox, sessionId: string) {
  await submitOk(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'start' });
  await advanceClock(sandbox, JOB_DONE_MS);
  return submitOk(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'complete' });
}

describe('BACKGROUND_CHECK step', () => {
  it('screens the identity read from the document, not the applicant name, and completes when clear', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, identity } = await verifiedIdentity(sandbox, 'passport.jpg');
    expect(identity.last_name).not.toBe('DOE');
    const started = await submitOk(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'start' });
    expect(started).toMatchObject({ step_status: 'IN_PROGRESS', background_check: { status: 'pending', identity } });

    const early = await submit(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'complete' });
    expect(early.status, early.text).toBe(409);
    expect(early.body).toMatchObject({
      code: 'BACKGROUND_CHECK_NOT_READY',
      current_step: 1,
      step_id: 'BACKGROUND_CHECK',
      ready_at: '2026-01-15T09:30:03.000Z',
    });

    await advanceClock(sandbox, JOB_DONE_MS);
    const done = await submitOk(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'complete' });
    expect(done).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', background_check: { identity, result: 'CLEAR' } });
    const record = (await sessionRecord(sandbox, sessionId)).analysis_data.background_check;
    expect(record).toEqual(done.background_check);
    expect(record.pep_sanctions).toEqual({ peps: [], sanctions: [], both: [] });
  });

  it('changes its result with the document: another document is another identity with other findings', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const passport = await verifiedIdentity(sandbox, 'passport.jpg');
    const national = await verifiedIdentity(sandbox, 'national-id.jpg');
    expect(national.identity).not.toEqual(passport.identity);
    const [a, b] = [await runCheck(sandbox, passport.sessionId), await runCheck(sandbox, national.sessionId)];
    expect(b.background_check.identity).toEqual(national.identity);
    expect(b.background_check.adverse_media).not.toEqual(a.background_check.adverse_media);
  });

  it('answers 409 STEP_NOT_STARTED to complete before start', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId } = await verifiedIdentity(sandbox, 'passport.jpg');
    const answer = await submit(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'complete' });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ code: 'STEP_NOT_STARTED', current_step: 1, step_id: 'BACKGROUND_CHECK' });
  });

  it('keeps its screening once the job is retired: complete a day after start completes with the same record', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const timely = await verifiedIdentity(sandbox, 'passport.jpg');
    const expected = (await runCheck(sandbox, timely.sessionId)).background_check;
    const { sessionId } = await verifiedIdentity(sandbox, 'passport.jpg');
    await submitOk(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'start' });
    await advanceClock(sandbox, JOB_RETENTION_MS);
    const late = await submit(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'complete' });
    expect(late.status, late.text).toBe(200);
    expect(late.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', background_check: expected });
  });

  it('a failed screening job (async-jobs-fail) is a failed attempt SCREENING_UNAVAILABLE', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId } = await verifiedIdentity(sandbox, 'passport.jpg');
    const started = await sandbox.call('POST', `/v1/sessions/${sessionId}/steps/BACKGROUND_CHECK`, {
      body: { action: 'start' },
      headers: { 'x-sandbox-scenario': 'async-jobs-fail' },
    });
    expect(started.status, started.text).toBe(200);
    await advanceClock(sandbox, JOB_DONE_MS);
    expectFailedAttempt(await submitOk(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'complete' }), 'SCREENING_UNAVAILABLE');
  });

  it('BACKGROUND_CHECK_HIT, scripted in advance, fails the check whatever the identity', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId } = await verifiedIdentity(sandbox, 'passport.jpg', {
      ...HOSTED_APPLICANT,
      external_id: 'sandbox-attempts:BACKGROUND_CHECK=BACKGROUND_CHECK_HIT',
    });
    const envelope = await runCheck(sandbox, sessionId);
    expect(envelope.failure).toMatchObject({ code: 'BACKGROUND_CHECK_HIT', category: 'OTHER' });
    expect(envelope.failure_reason).toBe('SCREENING_MATCH');
  });

  it('answers 400 naming the client field for bad bodies, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId } = await verifiedIdentity(sandbox, 'passport.jpg');
    await expectBadBody(sandbox, sessionId, 'BACKGROUND_CHECK', {}, 'action');
    await expectBadBody(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'begin' }, 'action');
    await expectBadBody(sandbox, sessionId, 'BACKGROUND_CHECK', { action: 'start', first_name: 'Jane' }, 'first_name');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'BACKGROUND_CHECK', { action: 'start' });
  });
});
