import { describe, expect, it } from 'vitest';
import { ageOn, birthDateBefore, checkCarrierAgeGate } from '../../src/screening/carrier-age-gate.service.ts';
import { CarrierAgeGateResponseSchema, type CarrierAgeGateResponse } from '../../src/screening/carrier-age-gate.schemas.ts';
import { subscriberFor } from '../../src/screening/phone-carrier.ts';
import { MAGIC_PHONES } from '../../src/screening/magic-values.ts';
import type { PhoneCheckResult } from '../../src/screening/phone-check-result.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

function okResponse(result: PhoneCheckResult<CarrierAgeGateResponse>): CarrierAgeGateResponse {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  expect(CarrierAgeGateResponseSchema.parse(result.response)).toEqual(result.response);
  return result.response;
}

describe('age arithmetic', () => {
  it('counts completed years on the UTC day of the check', () => {
    expect(ageOn('2008-03-01', NOW)).toBe(18);
    expect(ageOn('2008-03-02', NOW)).toBe(17);
    expect(ageOn('2008-02-29', NOW)).toBe(18);
    expect(ageOn('1990-12-31', NOW)).toBe(35);
  });

  it('places a birth date a number of years before the check day', () => {
    expect(birthDateBefore(NOW, 18, 0)).toBe('2008-03-01');
    expect(birthDateBefore(NOW, 18, 1)).toBe('2008-03-02');
  });
});

describe('checkCarrierAgeGate', () => {
  it('passes a subscriber who turns 18 on the day of the check and fails one who turns 18 the next day', () => {
    expect(okResponse(checkCarrierAgeGate({ phone: MAGIC_PHONES.turns18Today }, NOW))).toMatchObject({
      outcome: 'PASS',
      ageVerified: 'VERIFIED',
      requiredAge: 18,
    });
    expect(okResponse(checkCarrierAgeGate({ phone: MAGIC_PHONES.turns18Tomorrow }, NOW))).toMatchObject({
      outcome: 'FAIL',
      ageVerified: 'NOT_VERIFIED',
      requiredAge: 18,
    });
  });

  it('answers the full documented shape for a covered number', () => {
    const response = okResponse(checkCarrierAgeGate({ phone: MAGIC_PHONES.happyPath, sessionId: 'sess-2' }, NOW));
    expect(response).toEqual({
      outcome: 'PASS',
      ageVerified: 'VERIFIED',
      requiredAge: 18,
      statusMessage: 'Response from one supplier',
      checkedAt: '2026-03-01T12:00:00.000Z',
      carrierThreshold: 18,
      correlationId: response.correlationId,
      sessionId: 'sess-2',
    });
  });

  it('applies a higher required age when the caller asks for one', () => {
    expect(okResponse(checkCarrierAgeGate({ phone: MAGIC_PHONES.turns18Today, requiredAge: 21 }, NOW))).toMatchObject({ outcome: 'FAIL', requiredAge: 21 });
  });

  it('follows the synthetic subscriber date of birth for ordinary UK mobiles', () => {
    const phone = '+447425604497';
    const dob = subscriberFor(phone).dateOfBirth as string;
    const expected = ageOn(dob, NOW) >= 18 ? 'PASS' : 'FAIL';
    expect(okResponse(checkCarrierAgeGate({ phone }, NOW)).outcome).toBe(expected);
  });

  it('answers NO_DATA without carrierThreshold for Canadian numbers', () => {
    const response = okResponse(checkCarrierAgeGate({ phone: '+14165550123' }, NOW));
    expect(response).toMatchObject({ outcome: 'NO_DATA', ageVerified: 'NO_DATA' });
    expect('carrierThreshold' in response).toBe(false);
  });

  it('answers NO_DATA when the carrier has no date of birth on file', () => {
    const phone = Array.from({ length: 200 }, (_, i) => `+44742560${String(1000 + i)}`).find((p) => subscriberFor(p).dateOfBirth === null) as string;
    const response = okResponse(checkCarrierAgeGate({ phone }, NOW));
    expect(response.outcome).toBe('NO_DATA');
    expect(response.statusMessage).toBe('No data: the carrier holds no date of birth for this subscriber');
  });

  it('answers carrier-unavailable for the outage number and invalid-input for a bad phone', () => {
    expect(checkCarrierAgeGate({ phone: MAGIC_PHONES.carrierOutage }, NOW)).toMatchObject({ status: 'carrier-unavailable', billable: false });
    expect(checkCarrierAgeGate({ phone: '12345' }, NOW)).toMatchObject({ status: 'invalid-input', field: 'phone', billable: false });
  });
});
