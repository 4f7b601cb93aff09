/** PHONE_VERIFICATION on a hosted workflow session: start sends a one-time code by SMS (the outbox), complete passes once it was entered. */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { submit } from '../helpers.ts';
import {
  advanceClock,
  expectBadBody,
  expectFailedAttempt,
  expectHeadlessRefusal,
  HOSTED_APPLICANT,
  hostedSession,
  sessionRecord,
  submitOk,
  workflowState,
} from './hosted.ts';

/** The codes sent to the session, newest first, read from the outbox as a tester would. */
async function sentCodes(sandbox: TestSandbox, sessionId: string): Promise<string[]> {
  const outbox = await sandbox.call('GET', `/__sandbox/outbox?session=${sessionId}&channel=sms`, { key: null });
  expect(outbox.status, outbox.text).toBe(200);
  return (outbox.body.messages as { kind: string; to: string; text: string }[]).map((message) => {
    expect(message).toMatchObject({ kind: 'phone_verification_code', to: HOSTED_APPLICANT.phone });
    return /code is (\d{6})/.exec(message.text)?.[1] as string;
  });
}

async function started(sandbox: TestSandbox) {
  const sessionId = await hostedSession(sandbox, ['PHONE_VERIFICATION']);
  const envelope = await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'start' });
  const [code] = await sentCodes(sandbox, sessionId);
  return { sessionId, envelope, code: code as string };
}

describe('PHONE_VERIFICATION step', () => {
  it('start sends a 6-digit code by SMS to the session phone and leaves the step IN_PROGRESS', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { envelope, code } = await started(sandbox);
    expect(code).toMatch(/^\d{6}$/);
    expect(envelope).toMatchObject({
      step_status: 'IN_PROGRESS',
      session_status: 'PENDING',
      attempts_remaining: 3,
      phone_verification: { status: 'CODE_SENT', phone: '+447*******01', expires_at: '2026-01-15T09:40:00.000Z' },
    });
  });

  it('complete with the code sent completes the step, records the verified phone and verifies the session', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, code } = await started(sandbox);
    const done = await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code });
    expect(done).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', phone_verification: { status: 'VERIFIED' } });
    expect((await sessionRecord(sandbox, sessionId)).analysis_data.phone_verification).toEqual({
      phone: HOSTED_APPLICANT.phone,
      verified_at: '2026-01-15T09:30:00.000Z',
      codes_sent: 1,
    });
  });

  it('changes its result with the code entered: a wrong one is a failed attempt PHONE_CODE_INCORRECT, the right one then passes', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, code } = await started(sandbox);
    const wrong = code === '000000' ? '000001' : '000000';
    const failed = await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code: wrong });
    expectFailedAttempt(failed, 'PHONE_CODE_INCORRECT');
    expect(failed.failure_reason).toBe('PHONE_CODE_INVALID');
    expect((await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code })).step_status).toBe('COMPLETED');
  });

  it('a code entered after 10 minutes is PHONE_CODE_EXPIRED; a new start sends a new code that passes', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, code } = await started(sandbox);
    await advanceClock(sandbox, 10 * 60_000 + 1000);
    expectFailedAttempt(await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code }), 'PHONE_CODE_EXPIRED');
    const again = await submit(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code });
    expect(again.status, again.text).toBe(409);
    expect(again.body.code).toBe('PHONE_VERIFICATION_NOT_STARTED');

    await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'start' });
    const [fresh, first] = await sentCodes(sandbox, sessionId);
    expect(first).toBe(code);
    expect(fresh).not.toBe(code);
    expect((await submitOk(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code: fresh })).step_status).toBe('COMPLETED');
  });

  it('answers 409 PHONE_CODE_NOT_ENTERED to the client body {action: complete} until a code is entered', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId } = await started(sandbox);
    const answer = await submit(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete' });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ code: 'PHONE_CODE_NOT_ENTERED', current_step: 0, step_id: 'PHONE_VERIFICATION' });
    expect((await workflowState(sandbox, sessionId)).steps[0]).toMatchObject({ status: 'IN_PROGRESS', attempts: 0 });
  });

  it('answers 409 PHONE_VERIFICATION_NOT_STARTED to complete before start', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PHONE_VERIFICATION']);
    const answer = await submit(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code: '123456' });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ code: 'PHONE_VERIFICATION_NOT_STARTED', current_step: 0 });
  });

  it('answers 400 naming the client field for bad bodies, storing and sending nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PHONE_VERIFICATION']);
    await expectBadBody(sandbox, sessionId, 'PHONE_VERIFICATION', {}, 'action');
    await expectBadBody(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'verify' }, 'action');
    await expectBadBody(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code: '12ab56' }, 'code');
    await expectBadBody(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'complete', code: 123456 }, 'code');
    await expectBadBody(sandbox, sessionId, 'PHONE_VERIFICATION', { action: 'start', code: '123456' }, 'code');
    expect(await sentCodes(sandbox, sessionId)).toEqual([]);
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'PHONE_VERIFICATION', { action: 'start' });
  });
});
