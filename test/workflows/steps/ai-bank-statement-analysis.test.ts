/** AI_BANK_STATEMENT_ANALYSIS on a hosted workflow session: the statement of the earlier BANK_STATEMENT_UPLOAD, read by the financial area's analysis. */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { postPageForm } from '../../financial/helpers.ts';
import { PAGE_TOKEN_PARAM } from '../../../src/platform/secrets/page-tokens.ts';
import { advanceClock, expectBadBody, expectFailedAttempt, expectHeadlessRefusal, expectRunEnded, hostedSession, sessionRecord, submitOk } from './hosted.ts';

const STEPS = ['BANK_STATEMENT_UPLOAD', 'AI_BANK_STATEMENT_ANALYSIS'];

/** BANK_STATEMENT_UPLOAD completed with `bank`; returns the session id. */
async function uploaded(sandbox: TestSandbox, bank: string): Promise<string> {
  const sessionId = await hostedSession(sandbox, STEPS);
  await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'start', bank });
  await advanceClock(sandbox, 5000);
  expect((await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' })).step_status).toBe('COMPLETED');
  return sessionId;
}

describe('AI_BANK_STATEMENT_ANALYSIS step', () => {
  it('analyses the linked statement, records ai_bank_statement_analysis and verifies the session', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await uploaded(sandbox, 'SandboxCapital');
    const envelope = await submitOk(sandbox, sessionId, 'AI_BANK_STATEMENT_ANALYSIS', {});
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', bank_statement_analysis: { institution: 'Sandbox Capital', period_months: 3 } });
    expect(['LOW', 'MEDIUM']).toContain(envelope.bank_statement_analysis.risk_level);
    expect(envelope.bank_statement_analysis.monthly_income).toBeGreaterThan(0);
    expect(envelope.bank_statement_analysis.lowest_balance).toBeGreaterThanOrEqual(0);
    const record = await sessionRecord(sandbox, sessionId);
    expect(record.analysis_data.ai_bank_statement_analysis).toEqual(envelope.bank_statement_analysis);
    expect(record.analysis_data.ai_bank_statement_analysis.bank_statement_request_id).toBe(record.bank_statement_request_id);
  });

  it('changes its result with the statement: a PrairieSky overdraft ends the run with BANK_STATEMENT_HIGH_RISK', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await uploaded(sandbox, 'PrairieSky');
    const envelope = await submitOk(sandbox, sessionId, 'AI_BANK_STATEMENT_ANALYSIS', {});
    expectRunEnded(envelope, 'BANK_STATEMENT_HIGH_RISK');
    expect(envelope.failure_reason).toBe('BANK_STATEMENT_REJECTED');
    expect(envelope.bank_statement_analysis).toMatchObject({ risk_level: 'HIGH', flags: expect.arrayContaining(['NEGATIVE_BALANCE']) });
    expect(envelope.bank_statement_analysis.lowest_balance).toBeLessThan(0);
    expect((await sessionRecord(sandbox, sessionId)).status).toBe('REJECTED');
  });

  it('fails the attempt with BANK_STATEMENT_NOT_ANALYSABLE when the applicant uploaded statements instead of linking a bank', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, STEPS);
    const requestId = (await sessionRecord(sandbox, sessionId)).bank_statement_request_id as string;
    expect((await postPageForm(sandbox, `/verify/bank-statements/${requestId}/link?${PAGE_TOKEN_PARAM}=${sandbox.pageToken(requestId)}`, { action: 'upload' })).status).toBe(303);
    await advanceClock(sandbox, 5000);
    const upload = await submitOk(sandbox, sessionId, 'BANK_STATEMENT_UPLOAD', { action: 'complete' });
    expect(upload).toMatchObject({ step_status: 'COMPLETED', bank_statement: { type: 'upload' } });
    expectFailedAttempt(await submitOk(sandbox, sessionId, 'AI_BANK_STATEMENT_ANALYSIS', {}), 'BANK_STATEMENT_NOT_ANALYSABLE');
  });

  it('answers 400 for a body with members, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await uploaded(sandbox, 'SandboxCapital');
    await expectBadBody(sandbox, sessionId, 'AI_BANK_STATEMENT_ANALYSIS', { period: '6' }, 'period');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'AI_BANK_STATEMENT_ANALYSIS', {});
  });
});
