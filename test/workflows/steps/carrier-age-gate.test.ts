/** CARRIER_AGE_GATE on a hosted workflow session: the carrier's date of birth for the session's phone against 18. */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { expectBadBody, expectFailedAttempt, expectHeadlessRefusal, hostedSession } from './hosted.ts';
import { checkPhone } from './phone-checks.ts';

describe('CARRIER_AGE_GATE step', () => {
  it('completes when the subscriber is of age and attaches analysis_data.phone_checks.carrier_age_gate', async () => {
    const { envelope, record } = await checkPhone('CARRIER_AGE_GATE', '+447700900001');
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', carrier_age_gate: { outcome: 'PASS', ageVerified: 'VERIFIED' } });
    expect(record.analysis_data.phone_checks.carrier_age_gate.outcome).toBe('PASS');
  });

  it('changes its result with the phone: the subscriber who turns 18 today passes, tomorrow fails', async () => {
    expect((await checkPhone('CARRIER_AGE_GATE', '+447700900018')).envelope.step_status).toBe('COMPLETED');
    expectFailedAttempt((await checkPhone('CARRIER_AGE_GATE', '+447700900017')).envelope, 'CARRIER_AGE_NOT_VERIFIED');
  });

  it('fails the attempt with CARRIER_AGE_NOT_VERIFIED for a 16-year-old subscriber', async () => {
    const { envelope } = await checkPhone('CARRIER_AGE_GATE', '+447700900010');
    expectFailedAttempt(envelope, 'CARRIER_AGE_NOT_VERIFIED');
    expect(envelope.carrier_age_gate).toMatchObject({ outcome: 'FAIL', ageVerified: 'NOT_VERIFIED' });
  });

  for (const phone of ['+447700900008', '+12015550123']) {
    it(`fails the attempt with CARRIER_AGE_NO_DATA when the carrier holds no date of birth (${phone})`, async () => {
      const { envelope } = await checkPhone('CARRIER_AGE_GATE', phone);
      expectFailedAttempt(envelope, 'CARRIER_AGE_NO_DATA');
      expect(envelope.carrier_age_gate.outcome).toBe('NO_DATA');
    });
  }

  it('fails the attempt with CARRIER_UNAVAILABLE when the carrier is down', async () => {
    expectFailedAttempt((await checkPhone('CARRIER_AGE_GATE', '+447700900009')).envelope, 'CARRIER_UNAVAILABLE');
  });

  it('answers 400 for a body with members, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['CARRIER_AGE_GATE']);
    await expectBadBody(sandbox, sessionId, 'CARRIER_AGE_GATE', { required_age: 21 }, 'required_age');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'CARRIER_AGE_GATE', {});
  });
});
