/** PHONE_TRUST_CHECK on a hosted workflow session: the session's phone through the phone-trust engine, its magic numbers included. */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { expectBadBody, expectFailedAttempt, expectHeadlessRefusal, hostedSession } from './hosted.ts';
import { checkPhone } from './phone-checks.ts';

describe('PHONE_TRUST_CHECK step', () => {
  it('completes for a clean phone and attaches analysis_data.phone_checks.trust', async () => {
    const { envelope, record } = await checkPhone('PHONE_TRUST_CHECK', '+447700900007');
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', phone_trust: { tripped: false, simSwappedRisk: 'LOW_RISK' } });
    expect(record.analysis_data.phone_checks.trust).toMatchObject({ tripped: false, forwardingRisk: 'NO_RISK' });
  });

  it('completes when the carrier has no data (a missing signal never trips)', async () => {
    const { envelope } = await checkPhone('PHONE_TRUST_CHECK', '+447700900008');
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', phone_trust: { simSwappedRisk: 'NO_DATA', forwardingRisk: 'NO_DATA' } });
  });

  for (const [phone, reasons] of [
    ['+447700900003', ['SIM_SWAP_HIGH_RISK']],
    ['+447700900004', ['SIM_SWAP_MEDIUM_RISK']],
    ['+447700900005', ['CALL_FORWARDING_ACTIVE']],
    ['+447700900006', ['SIM_SWAP_HIGH_RISK', 'CALL_FORWARDING_ACTIVE']],
  ] as const) {
    it(`fails the attempt with PHONE_TRUST_TRIPPED for ${phone} (${reasons.join(', ')})`, async () => {
      const { envelope, record } = await checkPhone('PHONE_TRUST_CHECK', phone);
      expectFailedAttempt(envelope, 'PHONE_TRUST_TRIPPED');
      expect(envelope.failure_reason).toBe('PHONE_CHECK_FAILED');
      expect(envelope.phone_trust.tripReasons).toEqual(reasons);
      expect(record.analysis_data.phone_checks.trust.tripped).toBe(true);
    });
  }

  it('fails the attempt with CARRIER_UNAVAILABLE when the carrier is down, attaching nothing', async () => {
    const { envelope, record } = await checkPhone('PHONE_TRUST_CHECK', '+447700900009');
    expectFailedAttempt(envelope, 'CARRIER_UNAVAILABLE');
    expect(envelope.failure.user_action).toBe('RETRY_STEP');
    expect(record.analysis_data?.phone_checks).toBeUndefined();
  });

  it('answers 400 for a body with members, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['PHONE_TRUST_CHECK']);
    await expectBadBody(sandbox, sessionId, 'PHONE_TRUST_CHECK', { sensitivity: 'low' }, 'sensitivity');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'PHONE_TRUST_CHECK', {});
  });
});
