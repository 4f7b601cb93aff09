/** PHONE_OWNERSHIP_MATCH on a hosted workflow session: the applicant's name against the carrier's subscriber of the session's phone. */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { expectBadBody, expectFailedAttempt, expectHeadlessRefusal, hostedSession } from './hosted.ts';
import { checkPhone } from './phone-checks.ts';

describe('PHONE_OWNERSHIP_MATCH step', () => {
  it('completes when the subscriber is the applicant and attaches analysis_data.phone_checks.ownership', async () => {
    const { envelope, record } = await checkPhone('PHONE_OWNERSHIP_MATCH', '+447700900001');
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', phone_ownership: { outcome: 'MATCH', nameScore: 100 } });
    expect(record.analysis_data.phone_checks.ownership.outcome).toBe('MATCH');
  });

  it('changes its result with the phone: name score 70 matches at medium strictness, 69 does not', async () => {
    expect((await checkPhone('PHONE_OWNERSHIP_MATCH', '+447700900170')).envelope.step_status).toBe('COMPLETED');
    const below = await checkPhone('PHONE_OWNERSHIP_MATCH', '+447700900169');
    expectFailedAttempt(below.envelope, 'PHONE_OWNERSHIP_MISMATCH');
    expect(below.envelope.phone_ownership).toMatchObject({ nameScore: 69, threshold: 70 });
  });

  it('fails the attempt with PHONE_OWNERSHIP_MISMATCH when the subscriber is someone else', async () => {
    expectFailedAttempt((await checkPhone('PHONE_OWNERSHIP_MATCH', '+447700900002')).envelope, 'PHONE_OWNERSHIP_MISMATCH');
  });

  for (const phone of ['+447700900008', '+12015550123']) {
    it(`fails the attempt with PHONE_OWNERSHIP_NO_DATA when the carrier has no subscriber data (${phone})`, async () => {
      const { envelope } = await checkPhone('PHONE_OWNERSHIP_MATCH', phone);
      expectFailedAttempt(envelope, 'PHONE_OWNERSHIP_NO_DATA');
      expect(envelope.phone_ownership).toMatchObject({ outcome: 'NO_DATA', nameScore: -1 });
    });
  }

  it('fails the attempt with CARRIER_UNAVAILABLE when the carrier is down', async () => {
    expectFailedAttempt((await checkPhone('PHONE_OWNERSHIP_MATCH', '+447700900009')).envelope, 'CARRIER_UNAVAILABLE');
  });

  it('answers 400 for a body with members, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PHONE_OWNERSHIP_MATCH']);
    await expectBadBody(sandbox, sessionId, 'PHONE_OWNERSHIP_MATCH', { strictness: 'strict' }, 'strictness');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'PHONE_OWNERSHIP_MATCH', {});
  });
});
