/** The three carrier steps share a shape: a hosted session whose applicant has the phone under test, one `{}` submission. */
import { expect } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { HOSTED_APPLICANT, hostedSession, sessionRecord, submitOk } from './hosted.ts';

export async function checkPhone(step: string, phone: string, applicant: Record<string, unknown> = {}) {
  const sandbox = await testSandbox({ rateLimit: false });
  const sessionId = await hostedSession(sandbox, [step], { ...HOSTED_APPLICANT, ...applicant, phone });
  const envelope = await submitOk(sandbox, sessionId, step, {});
  expect(envelope.step_id).toBe(step);
  return { sandbox, sessionId, envelope, record: await sessionRecord(sandbox, sessionId) };
}
