/**
 * Every phone field takes any E.164-shaped number (the real client's only rule), and a carrier check of
 * a number no carrier holds answers NO_DATA with the reason in X-Sandbox-Explain, never a 400.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { PhoneOwnershipResponseSchema } from '../../src/screening/phone-ownership.schemas.ts';
import { PhoneTrustResponseSchema } from '../../src/screening/phone-trust.schemas.ts';

/** In a UK range Ofcom has not allocated: libphonenumber calls it invalid, the client sends it. */
const UNALLOCATED_UK = '+447690415328';
const APPLICANT = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' };

describe('phone numbers in ranges no carrier holds', () => {
  it('phone ownership answers NO_DATA, nameScore -1, and explains it', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', '/v1/screening/phone-ownership', {
      body: { phone: UNALLOCATED_UK, firstName: 'Jane', lastName: 'Doe', address: '1 High St' },
    });
    expect(answer.status).toBe(200);
    const body = PhoneOwnershipResponseSchema.parse(answer.body);
    expect([body.outcome, body.nameScore, body.addressScore]).toEqual(['NO_DATA', -1, -1]);
    expect(answer.headers.get('x-sandbox-explain')).toContain(
      `no carrier holds ${UNALLOCATED_UK}: its range is not allocated in the numbering plan -> NO_DATA`,
    );
  });

  it('phone trust answers NO_DATA on both signals and does not trip, at every sensitivity', async () => {
    const sandbox = await testSandbox();
    for (const sensitivity of ['low', 'medium', 'high']) {
      const answer = await sandbox.call('POST', '/v1/screening/phone-trust', { body: { phone: UNALLOCATED_UK, sensitivity } });
      expect(answer.status).toBe(200);
      const body = PhoneTrustResponseSchema.parse(answer.body);
      expect([body.tripped, body.tripReasons, body.simSwappedRisk, body.forwardingRisk]).toEqual([false, [], 'NO_DATA', 'NO_DATA']);
      expect(answer.headers.get('x-sandbox-explain')).toContain('its range is not allocated in the numbering plan');
    }
  });

  it('is accepted by every phone field that creates something, and kept as sent', async () => {
    const sandbox = await testSandbox();
    const session = await sandbox.call('POST', '/v1/sessions', { body: { ...APPLICANT, phone: UNALLOCATED_UK } });
    expect(session.status).toBe(200);
    const record = await sandbox.call('GET', `/v1/sessions/${session.body.id}`);
    expect(record.body.user.phone).toBe(UNALLOCATED_UK);
    // The session's applicant phone feeds the phone checks: NO_DATA, not a 400.
    const ownership = await sandbox.call('POST', '/v1/screening/phone-ownership', { body: { sessionId: session.body.id } });
    expect([ownership.status, ownership.body.outcome]).toEqual([200, 'NO_DATA']);
    for (const path of ['/v1/credit-check/soft', '/v1/financial']) {
      const created = await sandbox.call('POST', path, { body: { ...APPLICANT, phone: UNALLOCATED_UK } });
      expect(created.status, path).toBe(200);
    }
  });

  it('still refuses what is not E.164-shaped, naming the field and the fix', async () => {
    const sandbox = await testSandbox();
    for (const phone of ['+44769041', '+0447690415328', '+4476904153281234']) {
      const answer = await sandbox.call('POST', '/v1/screening/phone-trust', { body: { phone } });
      expect(answer.status, phone).toBe(400);
      expect(answer.body.error, phone).toMatch(/phone .* is not an E\.164 number \(a \+ and 10-15 digits, the first 1-9\)/);
    }
  });
});
