/** BANK_STATEMENT_UPLOAD on a hosted workflow session: the session's bank-statement request, linked on start, ready on the clock. */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { submit } from '../helpers.ts';
import { advanceClock, expectBadBody, expectHeadlessRefusal, hostedSession, sessionRecord, submitOk, workflowState } from './hosted.ts';

const READY_MS = 5000;

describe('BANK_STATEMENT_UPLOAD step', () => {
  it('start links the default bank (IN_PROGRESS), complete answers 409 BANK_STATEMENT_NOT_READY until the statement is ready, then completes', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['BANK_STATEMENT_UPLOAD']);
    const requestId = (await sessionRecord(sandbox, sessionId)).bank_statement_request_id as string;
    const started = await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start' });
    expect(started).toMatchObject({
      step_status: 'IN_PROGRESS',
      session_status: 'PENDING',
      bank_statement: { bank_statement_request_id: requestId, status: 'IN_PROGRESS', type: 'request', ready_at: '2026-01-15T09:30:05.000Z' },
    });

    await advanceClock(sandbox, READY_MS - 1000);
    const early = await submit(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' });
    expect(early.status, early.text).toBe(409);
    expect(early.body).toMatchObject({
      code: 'BANK_STATEMENT_NOT_READY',
      current_step: 0,
      step_id: 'BANK_STATEMENT_UPLOAD',
      ready_at: '2026-01-15T09:30:05.000Z',
    });
    expect((await workflowState(sandbox, sessionId)).steps[0]).toMatchObject({ status: 'IN_PROGRESS', attempts: 0 });

    await advanceClock(sandbox, 1000);
    const done = await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' });
    expect(done).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED' });
    expect((await sessionRecord(sandbox, sessionId)).analysis_data.bank_statement_upload).toEqual({
      bank_statement_request_id: requestId,
      status: 'COMPLETED',
      type: 'request',
      ready_at: '2026-01-15T09:30:05.000Z',
      period_months: 3,
      institution: 'Sandbox Capital',
      accounts: 2,
    });
    const financial = await sandbox.call('GET', `/v1/financial/${requestId}`);
    expect(financial.body).toMatchObject({ status: 'COMPLETED', statement: { Institution: 'SandboxCapital' } });
  });

  it('changes its result with the bank: BorealisCU gives a one-account statement', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['BANK_STATEMENT_UPLOAD']);
    await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start', bank: 'BorealisCU' });
    await advanceClock(sandbox, READY_MS);
    const done = await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' });
    expect(done.bank_statement).toMatchObject({ institution: 'Borealis Credit Union', accounts: 1 });
  });

  it('completes a day after start: the linked statement stays ready', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['BANK_STATEMENT_UPLOAD']);
    await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start' });
    await advanceClock(sandbox, 24 * 3_600_000);
    const late = await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' });
    expect(late).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', bank_statement: { status: 'COMPLETED' } });
  });

  it('answers 409 STEP_NOT_STARTED to complete before any bank is linked', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['BANK_STATEMENT_UPLOAD']);
    const answer = await submit(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body).toMatchObject({ code: 'STEP_NOT_STARTED', current_step: 0, step_id: 'BANK_STATEMENT_UPLOAD' });
  });

  it('a repeated start keeps the bank already linked', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['BANK_STATEMENT_UPLOAD']);
    await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start', bank: 'TrueNorth' });
    await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start', bank: 'BorealisCU' });
    await advanceClock(sandbox, READY_MS);
    expect((await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' })).bank_statement.institution).toBe('True North Financial');
  });

  it('answers 400 naming the client field for bad bodies, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['BANK_STATEMENT_UPLOAD']);
    await expectBadBody(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', {}, 'action');
    await expectBadBody(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'upload' }, 'action');
    await expectBadBody(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start', bank: 'Gringotts' }, 'bank');
    await expectBadBody(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete', bank: 'TrueNorth' }, 'bank');
    const financial = await sandbox.call('GET', `/v1/financial/${(await sessionRecord(sandbox, sessionId)).bank_statement_request_id}`);
    expect(financial.body.status).toBe('PENDING');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'BANK_STATEMENT_UPLOAD', { action: 'start' });
  });
});
