/** ADVERSE_MEDIA on a hosted workflow session: start queues the screening job, complete reads it on the virtual clock. */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { submit } from '../helpers.ts';
import {
  advanceClock,
  expectBadBody,
  expectFailedAttempt,
  expectHeadlessRefusal,
  expectRunEnded,
  hostedSession,
  sessionRecord,
  submitOk,
  workflowState,
} from './hosted.ts';

const person = (first_name: string, last_name: string) => ({ action: 'start', first_name, last_name, date_of_birth: '1985-03-14' });
const JOB_DONE_MS = 3000;
/** GET /v1/async-jobs/{jobId} answers 404 this long after the job was created. */
const JOB_RETENTION_MS = 24 * 3_600_000;

/** start, wait for the job, complete: the complete envelope. */
async function screen(sandbox: TestSandbox, first: string, last: string) {
  const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
  await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person(first, last));
  await advanceClock(sandbox, JOB_DONE_MS);
  return { sessionId, envelope: await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' }) };
}

describe('ADVERSE_MEDIA step', () => {
  it('start queues the job (IN_PROGRESS), complete answers 409 ADVERSE_MEDIA_NOT_READY until it is due, then completes', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const started = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', { ...person('Clara', 'Clean'), country: 'gb', email: 'clara@example.com' });
    expect(started).toMatchObject({ step_status: 'IN_PROGRESS', session_status: 'PENDING', attempts_remaining: 3, adverse_media: { status: 'pending' } });
    const jobId = started.adverse_media.job_id as string;
    expect((await sandbox.call('GET', `/v1/async-jobs/${jobId}`)).body.status).toBe('pending');

    await advanceClock(sandbox, 1000);
    const early = await submit(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' });
    expect(early.status, early.text).toBe(409);
    expect(early.body).toMatchObject({ code: 'ADVERSE_MEDIA_NOT_READY', current_step: 0, step_id: 'ADVERSE_MEDIA', ready_at: '2026-01-15T09:30:03.000Z' });
    expect((await workflowState(sandbox, sessionId)).steps[0]).toMatchObject({ status: 'IN_PROGRESS', attempts: 0 });

    await advanceClock(sandbox, 2000);
    const done = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' });
    expect(done).toMatchObject({
      step_status: 'COMPLETED',
      session_status: 'VERIFIED',
      adverse_media: { job_id: jobId, status: 'ready', risk_level: 'LOW', total_hits: 0 },
    });
    const data = (await sessionRecord(sandbox, sessionId)).analysis_data.adverse_media_data;
    expect(data.total_hits).toBe(0);
    expect(Object.keys(data.news_exposures)).toHaveLength(9);
  });

  it('answers 409 STEP_NOT_STARTED to complete before start', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const answer = await submit(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ code: 'STEP_NOT_STARTED', current_step: 0, step_id: 'ADVERSE_MEDIA' });
  });

  it('changes its result with the person: MEDIUM risk completes with its findings recorded', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, envelope } = await screen(sandbox, 'Morgan', 'Medium');
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', adverse_media: { risk_level: 'MEDIUM' } });
    expect(envelope.adverse_media.total_hits).toBeGreaterThan(0);
    const data = (await sessionRecord(sandbox, sessionId)).analysis_data.adverse_media_data;
    expect(data.total_hits).toBe(envelope.adverse_media.total_hits);
  });

  for (const [first, last, level] of [
    ['Harper', 'High', 'HIGH'],
    ['Cyrus', 'Critical', 'CRITICAL'],
  ] as const) {
    it(`ends the run with ADVERSE_MEDIA_HIT for ${level} risk (${first} ${last})`, async () => {
      const sandbox = await testSandbox({ rateLimit: false });
      const { sessionId, envelope } = await screen(sandbox, first, last);
      expectRunEnded(envelope, 'ADVERSE_MEDIA_HIT');
      expect(envelope.failure.message).toContain(`Risk ${level}`);
      expect((await sessionRecord(sandbox, sessionId)).analysis_data.adverse_media_data.total_hits).toBeGreaterThan(0);
    });
  }

  it('a failed job (Fay Failure) is a failed attempt SCREENING_UNAVAILABLE; a new start queues a new job', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, envelope } = await screen(sandbox, 'Fay', 'Failure');
    expectFailedAttempt(envelope, 'SCREENING_UNAVAILABLE');
    expect(envelope.failure.user_action).toBe('RETRY_STEP');
    const again = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Clara', 'Clean'));
    expect(again.step_status).toBe('IN_PROGRESS');
    await advanceClock(sandbox, JOB_DONE_MS);
    expect((await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' })).step_status).toBe('COMPLETED');
  });

  it('the async-jobs-fail scenario on start fails the job: SCREENING_UNAVAILABLE', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const started = await sandbox.call('POST', `/v1/sessions/${sessionId}/steps/ADVERSE_MEDIA`, {
      body: person('Clara', 'Clean'),
      headers: { 'x-sandbox-scenario': 'async-jobs-fail' },
    });
    expect(started.status, started.text).toBe(200);
    await advanceClock(sandbox, JOB_DONE_MS);
    expectFailedAttempt(await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' }), 'SCREENING_UNAVAILABLE');
  });

  it('keeps its screening once the job is retired: complete a day after start reads the result the job had', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const timely = await screen(sandbox, 'Morgan', 'Medium');
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const started = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Morgan', 'Medium'));
    const jobId = started.adverse_media.job_id as string;
    await advanceClock(sandbox, JOB_RETENTION_MS);
    expect((await sandbox.call('GET', `/v1/async-jobs/${jobId}`)).status).toBe(404);

    const late = await sandbox.call('POST', `/v1/sessions/${sessionId}/steps/ADVERSE_MEDIA`, { body: { action: 'complete' } });
    expect(late.status, late.text).toBe(200);
    expect(late.body).toMatchObject({
      step_status: 'COMPLETED',
      session_status: 'VERIFIED',
      adverse_media: { ...timely.envelope.adverse_media, job_id: jobId },
    });
    expect(late.headers.get('x-sandbox-explain')).toContain(`adverse media job ${jobId} was retired after its 24 h retention`);
    expect((await sessionRecord(sandbox, sessionId)).analysis_data.adverse_media_data).toEqual(
      (await sessionRecord(sandbox, timely.sessionId)).analysis_data.adverse_media_data,
    );
  });

  it('a retired job of the async-jobs-fail scenario is still a failed attempt SCREENING_UNAVAILABLE; a new start queues a new job', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const started = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Fay', 'Failure'));
    await advanceClock(sandbox, JOB_RETENTION_MS);
    expectFailedAttempt(await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete' }), 'SCREENING_UNAVAILABLE');
    const again = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Fay', 'Failure'));
    expect(again.adverse_media.job_id).not.toBe(started.adverse_media.job_id);
  });

  it('a start repeated once the job was retired queues a new job for the same person', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const first = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Clara', 'Clean'));
    await advanceClock(sandbox, JOB_RETENTION_MS);
    const again = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Clara', 'Clean'));
    expect(again.adverse_media).toMatchObject({ status: 'pending' });
    expect(again.adverse_media.job_id).not.toBe(first.adverse_media.job_id);
  });

  it('a repeated start with the same person keeps the job; another person gets a new one', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    const first = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Clara', 'Clean'));
    const same = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Clara', 'Clean'));
    expect(same.adverse_media.job_id).toBe(first.adverse_media.job_id);
    const other = await submitOk(sandbox, sessionId, 'ADVERSE_MEDIA', person('Harper', 'High'));
    expect(other.adverse_media.job_id).not.toBe(first.adverse_media.job_id);
  });

  it('answers 400 naming the client field for bad bodies, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['ADVERSE_MEDIA']);
    await expectBadBody(sandbox, sessionId, 'ADVERSE_MEDIA', { first_name: 'Jane', last_name: 'Doe', date_of_birth: '1990-01-01' }, 'action');
    await expectBadBody(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'finish' }, 'action');
    await expectBadBody(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'start', first_name: 'Jane', date_of_birth: '1990-01-01' }, 'last_name');
    await expectBadBody(sandbox, sessionId, 'ADVERSE_MEDIA', { ...person('Jane', 'Doe'), country: 'XX' }, 'country');
    await expectBadBody(sandbox, sessionId, 'ADVERSE_MEDIA', { action: 'complete', first_name: 'Jane' }, 'first_name');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'ADVERSE_MEDIA', { action: 'complete' });
  });
});
