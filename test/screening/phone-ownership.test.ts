import { describe, expect, it } from 'vitest';
import { checkPhoneOwnership, dateOfBirthScore, outcomeFor, STRICTNESS_THRESHOLDS } from '../../src/screening/phone-ownership.service.ts';
import { PhoneOwnershipResponseSchema, type PhoneOwnershipResponse } from '../../src/screening/phone-ownership.schemas.ts';
import { subscriberFor } from '../../src/screening/phone-carrier.ts';
import { MAGIC_PHONES } from '../../src/screening/magic-values.ts';
import type { PhoneCheckResult } from '../../src/screening/phone-check-result.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const UK_NUMBER = '+447425604497';

function okResponse(result: PhoneCheckResult<PhoneOwnershipResponse>): PhoneOwnershipResponse {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  expect(PhoneOwnershipResponseSchema.parse(result.response)).toEqual(result.response);
  return result.response;
}

describe('threshold edges', () => {
  it('uses the spec thresholds relaxed 50, medium 70, strict 90', () => {
    expect(STRICTNESS_THRESHOLDS).toEqual({ relaxed: 50, medium: 70, strict: 90 });
  });

  it.each([
    [70, 'medium', 'MATCH'],
    [69, 'medium', 'NO_MATCH'],
    [50, 'relaxed', 'MATCH'],
    [49, 'relaxed', 'NO_MATCH'],
    [90, 'strict', 'MATCH'],
    [89, 'strict', 'NO_MATCH'],
    [100, 'strict', 'MATCH'],
    [0, 'relaxed', 'NO_MATCH'],
    [-1, 'relaxed', 'NO_DATA'],
  ] as const)('scores %i at %s as %s', (score, strictness, outcome) => {
    expect(outcomeFor(score, strictness)).toBe(outcome);
  });

  it('answers MATCH for a name scoring exactly 70 at medium and NO_MATCH for 69 (magic numbers)', () => {
    const at70 = okResponse(checkPhoneOwnership({ phone: MAGIC_PHONES.nameScore70, firstName: 'Any', lastName: 'Name' }, NOW));
    const at69 = okResponse(checkPhoneOwnership({ phone: MAGIC_PHONES.nameScore69, firstName: 'Any', lastName: 'Name' }, NOW));
    expect([at70.nameScore, at70.threshold, at70.outcome]).toEqual([70, 70, 'MATCH']);
    expect([at69.nameScore, at69.threshold, at69.outcome]).toEqual([69, 70, 'NO_MATCH']);
  });
});

describe('name scores from string similarity with the synthetic subscriber', () => {
  const subscriber = subscriberFor(UK_NUMBER);

  it('derives the same subscriber from the same number and a different one from another number', () => {
    expect(subscriberFor(UK_NUMBER)).toEqual(subscriber);
    expect(subscriberFor('+447425604498')).not.toEqual(subscriber);
  });

  it('scores 100 for the subscriber exact name, ignoring case and diacritics', () => {
    const response = okResponse(
      checkPhoneOwnership(
        { phone: UK_NUMBER, firstName: subscriber.firstName.toUpperCase(), lastName: subscriber.lastName.toLowerCase(), strictness: 'strict' },
        NOW,
      ),
    );
    expect(response).toMatchObject({ outcome: 'MATCH', nameScore: 100, firstNameScore: 100, lastNameScore: 100, threshold: 90 });
  });

  it('scores a one-letter surname typo by edit distance and averages it with the first name', () => {
    const typo = `${subscriber.lastName}x`;
    const expectedLast = Math.round((1 - 1 / typo.length) * 100);
    const response = okResponse(checkPhoneOwnership({ phone: UK_NUMBER, firstName: subscriber.firstName, lastName: typo }, NOW));
    expect(response.firstNameScore).toBe(100);
    expect(response.lastNameScore).toBe(expectedLast);
    expect(response.nameScore).toBe(Math.round((100 + (1 - 1 / typo.length) * 100) / 2));
  });

  it('reports only the name parts sent', () => {
    const response = okResponse(checkPhoneOwnership({ phone: UK_NUMBER, lastName: subscriber.lastName }, NOW));
    expect(response.nameScore).toBe(100);
    expect(response.lastNameScore).toBe(100);
    expect('firstNameScore' in response).toBe(false);
  });

  it('gives a low score to an unrelated name', () => {
    const response = okResponse(checkPhoneOwnership({ phone: UK_NUMBER, firstName: 'Xq', lastName: 'Zzyzx' }, NOW));
    expect(response.nameScore).toBeLessThan(20);
    expect(response.outcome).toBe('NO_MATCH');
  });
});

describe('address and date of birth scores', () => {
  it('scores dates of birth: exact, swapped day and month, same month, a year off, same year, different', () => {
    expect(dateOfBirthScore('1980-04-23', '1980-04-23')).toBe(100);
    expect(dateOfBirthScore('1980-03-04', '1980-04-03')).toBe(80);
    expect(dateOfBirthScore('1980-04-01', '1980-04-23')).toBe(60);
    expect(dateOfBirthScore('1981-04-23', '1980-04-23')).toBe(50);
    expect(dateOfBirthScore('1980-09-01', '1980-04-23')).toBe(40);
    expect(dateOfBirthScore('1975-09-01', '1980-04-23')).toBe(0);
  });

  it('reports addressScore and dobScore only when sent, and never lets them change the outcome', () => {
    const withExtras = okResponse(
      checkPhoneOwnership(
        { phone: MAGIC_PHONES.nameScore90, firstName: 'A', lastName: 'B', address: '1 Nowhere Road', dateOfBirth: '1901-01-01', strictness: 'strict' },
        NOW,
      ),
    );
    const without = okResponse(checkPhoneOwnership({ phone: MAGIC_PHONES.nameScore90, firstName: 'A', lastName: 'B', strictness: 'strict' }, NOW));
    expect(withExtras.outcome).toBe('MATCH');
    expect(without.outcome).toBe('MATCH');
    expect(typeof withExtras.addressScore).toBe('number');
    expect('addressScore' in without).toBe(false);
    expect('dobScore' in without).toBe(false);
  });

  it('answers addressScore -1 when the carrier holds no address for the subscriber', () => {
    let checked = 0;
    for (let i = 0; i < 60 && checked < 3; i++) {
      const phone = `+44742560${String(1000 + i)}`;
      if (subscriberFor(phone).address !== null) continue;
      checked++;
      const response = okResponse(checkPhoneOwnership({ phone, lastName: 'Doe', address: '1 High Street, Leeds' }, NOW));
      expect(response.addressScore).toBe(-1);
    }
    expect(checked).toBe(3);
  });

  it('scores the subscriber own address 100 and another street low', () => {
    const phone = Array.from({ length: 50 }, (_, i) => `+44742560${String(1000 + i)}`).find((p) => subscriberFor(p).address !== null) as string;
    const address = subscriberFor(phone).address as string;
    expect(okResponse(checkPhoneOwnership({ phone, lastName: 'Doe', address: address.toUpperCase() }, NOW)).addressScore).toBe(100);
    expect(okResponse(checkPhoneOwnership({ phone, lastName: 'Doe', address: '99 Quixotic Boulevard, Zyxburgh, ZZ9 9ZZ' }, NOW)).addressScore).toBeLessThan(30);
  });
});

describe('coverage, outages and bad input', () => {
  it('answers NO_DATA with nameScore -1 for a North American number given as 10 bare digits', () => {
    const result = checkPhoneOwnership({ phone: '2015550123', firstName: 'Jane', lastName: 'Doe' }, NOW);
    const response = okResponse(result);
    expect(response).toMatchObject({ outcome: 'NO_DATA', nameScore: -1, threshold: 70, strictness: 'medium' });
    expect(response.statusMessage).toContain('US and Canadian');
    expect(result.billable).toBe(true);
  });

  it('answers carrier-unavailable without billing for the outage number', () => {
    expect(checkPhoneOwnership({ phone: MAGIC_PHONES.carrierOutage, firstName: 'Jane' }, NOW)).toEqual({
      status: 'carrier-unavailable',
      explanation: 'magic value: phone +447700900009 -> carrier provider unavailable (503, not billed)',
      billable: false,
    });
  });

  it('refuses a check without any name, naming the fields', () => {
    const result = checkPhoneOwnership({ phone: UK_NUMBER, firstName: '  ' }, NOW);
    expect(result).toMatchObject({ status: 'invalid-input', field: 'firstName', billable: false });
    if (result.status === 'invalid-input') expect(result.message).toContain('firstName or lastName is required');
  });

  it('stamps checkedAt from the clock, echoes sessionId, and derives correlationId from inputs and time', () => {
    const a = okResponse(checkPhoneOwnership({ phone: UK_NUMBER, firstName: 'Jane', sessionId: 'sess-9' }, NOW));
    const b = okResponse(checkPhoneOwnership({ phone: UK_NUMBER, firstName: 'Jane', sessionId: 'sess-9' }, NOW));
    const later = okResponse(checkPhoneOwnership({ phone: UK_NUMBER, firstName: 'Jane' }, NOW + 60_000));
    expect(a).toEqual(b);
    expect(a.checkedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(a.sessionId).toBe('sess-9');
    expect(later.checkedAt).toBe('2026-03-01T12:01:00.000Z');
    expect(later.correlationId).not.toBe(a.correlationId);
    expect('sessionId' in later).toBe(false);
  });
});
