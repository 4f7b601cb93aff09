import { describe, expect, it } from 'vitest';
import { carrierCoverage, normalizePhone } from '../../src/screening/phone-numbers.ts';

describe('normalizePhone', () => {
  it.each([
    ['+447700900001', '+447700900001'],
    ['+44 7700 900001', '+447700900001'],
    ['+44 (0)7700 900001', '+447700900001'],
    ['0044 7700 900001', '+447700900001'],
    ['+44-7425-604497', '+447425604497'],
    ['2015550123', '+12015550123'],
    ['(201) 555-0123', '+12015550123'],
    ['201.555.0123', '+12015550123'],
    ['1 201 555 0123', '+12015550123'],
    ['+1 416 555 0123', '+14165550123'],
    ['+33 6 12 34 56 78', '+33612345678'],
  ])('reads %s as %s', (input, e164) => {
    const parsed = normalizePhone(input);
    expect(parsed).toMatchObject({ ok: true, e164 });
  });

  it('knows the region and type of a number', () => {
    expect(normalizePhone('+447700900001')).toEqual({ ok: true, e164: '+447700900001', country: 'GB', type: 'MOBILE', allocated: true });
    expect(normalizePhone('+442079460000')).toMatchObject({ country: 'GB', type: 'FIXED_LINE' });
    expect(normalizePhone('2015550123')).toMatchObject({ country: 'US' });
    expect(normalizePhone('+14165550123')).toMatchObject({ country: 'CA' });
  });

  it.each([
    ['', 'phone must not be empty'],
    ['call me', 'may contain only digits'],
    ['07700 900001', 'has no country code'],
    ['12345', 'has no country code'],
    ['+0123', 'is not an E.164 number'],
    ['+4412', 'is not an E.164 number'],
    ['+44 1234 5', 'is not an E.164 number'],
    ['+1 555 555 5555 55555', 'is not an E.164 number'],
  ])('refuses %j with a message saying %s', (input, message) => {
    const parsed = normalizePhone(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain(message);
      expect(parsed.message).toMatch(/^phone /);
      expect(parsed.message).toContain('+447700900001');
    }
  });
});

describe('numbers in ranges the numbering plan does not allocate (issue: +447690415328 was refused)', () => {
  it.each(['+447690415328', '+15555550123', '+999123456789', '+8801000000000'])('accepts %s as E.164 and marks it unallocated', (input) => {
    expect(normalizePhone(input)).toMatchObject({ ok: true, e164: input, type: undefined, allocated: false });
  });

  it('gives no carrier coverage to an unallocated number, saying why', () => {
    const parsed = normalizePhone('+447690415328');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(carrierCoverage(parsed)).toEqual({ covered: false, reason: 'no carrier holds +447690415328: its range is not allocated in the numbering plan' });
  });
});

describe('carrierCoverage', () => {
  const coverageOf = (phone: string) => {
    const parsed = normalizePhone(phone);
    if (!parsed.ok) throw new Error(parsed.message);
    return carrierCoverage(parsed);
  };

  it('covers UK mobiles, the drama range included', () => {
    expect(coverageOf('+447425604497')).toEqual({ covered: true });
    expect(coverageOf('+447700900500')).toEqual({ covered: true });
  });

  it('does not cover the US, Canada, other countries or UK landlines', () => {
    expect(coverageOf('+12015550123')).toEqual({ covered: false, reason: 'carrier data is not available for US and Canadian numbers (+12015550123)' });
    expect(coverageOf('+14165550123').covered).toBe(false);
    expect(coverageOf('+33612345678')).toEqual({
      covered: false,
      reason: 'carrier data is not available for FR numbers (+33612345678); only UK mobiles are covered',
    });
    expect(coverageOf('+442079460000')).toEqual({ covered: false, reason: 'carrier data covers UK mobile numbers only; +442079460000 is FIXED_LINE' });
  });
});
