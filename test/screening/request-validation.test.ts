import { describe, expect, it } from 'vitest';
import type { z } from '@hono/zod-openapi';
import { AdverseMediaRequestSchema } from '../../src/screening/adverse-media.schemas.ts';
import { PepSanctionsRequestSchema } from '../../src/screening/pep-sanctions.schemas.ts';
import { PhoneOwnershipRequestSchema } from '../../src/screening/phone-ownership.schemas.ts';
import { PhoneTrustRequestSchema } from '../../src/screening/phone-trust.schemas.ts';
import { CarrierAgeGateRequestSchema } from '../../src/screening/carrier-age-gate.schemas.ts';
import { TitleCheckRequestSchema } from '../../src/screening/title-check.schemas.ts';
import { isCalendarDate, placeholderEmail } from '../../src/screening/screening.schemas.ts';

const person = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23' };

/** The messages of a failed parse, as `path: message`. */
function problems(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('adverse media body', () => {
  it('accepts a full body and an omitted e-mail and country', () => {
    expect(AdverseMediaRequestSchema.parse({ ...person, country: 'GB' })).toEqual({ ...person, country: 'GB' });
    expect(problems(AdverseMediaRequestSchema, { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23' })).toEqual([]);
  });

  it('rejects 2023-02-30 as not a real calendar date', () => {
    expect(problems(AdverseMediaRequestSchema, { ...person, dateOfBirth: '2023-02-30' })).toEqual([
      'dateOfBirth: dateOfBirth 2023-02-30 is not a real calendar date: check the month and day',
    ]);
  });

  it('rejects a date in another format, naming the format', () => {
    expect(problems(AdverseMediaRequestSchema, { ...person, dateOfBirth: '23/04/1980' })).toEqual([
      'dateOfBirth: dateOfBirth must use the format YYYY-MM-DD, e.g. 1980-04-23',
    ]);
  });

  it('knows leap years', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2023-13-01')).toBe(false);
  });

  it.each([['ZZ'], ['GBR'], ['1A'], ['']])('rejects country %j as not an ISO 3166-1 alpha-2 code', (country) => {
    expect(problems(AdverseMediaRequestSchema, { ...person, country })).toEqual([
      `country: country ${JSON.stringify(country)} is not an ISO 3166-1 alpha-2 code: send two letters such as GB or US`,
    ]);
  });

  it('accepts a real code in either case', () => {
    expect(problems(AdverseMediaRequestSchema, { ...person, country: 'de' })).toEqual([]);
    expect(problems(AdverseMediaRequestSchema, { ...person, country: 'XK' })).toEqual([]);
  });

  it('rejects names that are empty, blank or longer than 255 characters', () => {
    expect(problems(AdverseMediaRequestSchema, { ...person, firstName: 'x'.repeat(256) })).toEqual([
      'firstName: firstName is too long: send at most 255 characters',
    ]);
    expect(problems(AdverseMediaRequestSchema, { ...person, lastName: 'x'.repeat(255) })).toEqual([]);
    expect(problems(AdverseMediaRequestSchema, { ...person, lastName: '' })).toEqual(['lastName: lastName must not be empty: send 1-255 characters']);
    expect(problems(AdverseMediaRequestSchema, { ...person, lastName: '   ' })).toEqual(['lastName: lastName must contain a non-space character']);
  });

  it('names missing and mistyped fields', () => {
    expect(problems(AdverseMediaRequestSchema, { email: 'nope', firstName: 7 })).toEqual([
      'email: email must be a valid e-mail address such as jane.doe@example.com',
      'firstName: firstName must be a string: send 1-255 characters',
      'lastName: lastName is required: send 1-255 characters',
      'dateOfBirth: dateOfBirth is required: send a date as YYYY-MM-DD, e.g. 1980-04-23',
    ]);
  });
});

describe('PEP and sanctions body', () => {
  it('has the same rules for names and date of birth', () => {
    expect(problems(PepSanctionsRequestSchema, { ...person, dateOfBirth: '2023-02-30', firstName: 'y'.repeat(300) })).toEqual([
      'firstName: firstName is too long: send at most 255 characters',
      'dateOfBirth: dateOfBirth 2023-02-30 is not a real calendar date: check the month and day',
    ]);
  });
});

describe('phone ownership body', () => {
  it('defaults strictness to medium', () => {
    expect(PhoneOwnershipRequestSchema.parse({ phone: '+447700900001', firstName: 'Jane' }).strictness).toBe('medium');
  });

  it('requires a phone and a name unless sessionId is given', () => {
    expect(problems(PhoneOwnershipRequestSchema, {})).toEqual([
      'phone: phone is required unless sessionId is given: send an E.164 number such as +447700900001',
      'firstName: firstName or lastName is required unless sessionId is given: send the name to match against the subscriber',
    ]);
    expect(problems(PhoneOwnershipRequestSchema, { sessionId: 'b1946ac9-2a4e-4f0e-9f57-2b2b5a0b7c1d' })).toEqual([]);
  });

  it('rejects a bad phone, strictness, address and date of birth with their fixes', () => {
    expect(
      problems(PhoneOwnershipRequestSchema, {
        phone: '07700 900001',
        lastName: 'Doe',
        strictness: 'lenient',
        address: 'a'.repeat(501),
        dateOfBirth: '1980-02-30',
      }),
    ).toEqual([
      'phone: phone "07700 900001" has no country code: send it in E.164 form with a leading + and the country code (a UK number as +44 without its leading 0, e.g. +447700900001); only a bare 10-digit North American number may omit it',
      'address: address is too long: send at most 500 characters',
      'dateOfBirth: dateOfBirth 1980-02-30 is not a real calendar date: check the month and day',
      'strictness: strictness must be one of relaxed, medium, strict (default medium)',
    ]);
  });

  it('accepts a bare 10-digit North American number', () => {
    expect(problems(PhoneOwnershipRequestSchema, { phone: '2015550123', firstName: 'Jane' })).toEqual([]);
  });
});

describe('phone trust and carrier age gate bodies', () => {
  it('defaults sensitivity to medium and refuses unknown values', () => {
    expect(PhoneTrustRequestSchema.parse({ phone: '+447700900003' }).sensitivity).toBe('medium');
    expect(problems(PhoneTrustRequestSchema, { phone: '+447700900003', sensitivity: 'extreme' })).toEqual([
      'sensitivity: sensitivity must be one of low, medium, high (default medium)',
    ]);
  });

  it('need a phone or a sessionId', () => {
    expect(problems(PhoneTrustRequestSchema, {})).toEqual(['phone: phone is required unless sessionId is given: send an E.164 number such as +447700900003']);
    expect(problems(CarrierAgeGateRequestSchema, { email: 'a@example.com' })).toEqual([
      'phone: phone or sessionId is required: send an E.164 number such as +447700900011 or the id of a session',
    ]);
    expect(problems(CarrierAgeGateRequestSchema, { sessionId: 'abc' })).toEqual([]);
  });
});

describe('title check body', () => {
  it('requires e-mail, names and an address of 1-500 characters', () => {
    expect(problems(TitleCheckRequestSchema, { firstName: 'Jane', lastName: 'Doe', address: '' })).toEqual([
      'email: email is required: send an e-mail address such as jane.doe@example.com',
      'address: address must not be empty: send the US property address, 1-500 characters',
    ]);
    expect(problems(TitleCheckRequestSchema, { email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe', address: 'x'.repeat(501) })).toEqual([
      'address: address is too long: send at most 500 characters',
    ]);
  });
});

describe('placeholderEmail', () => {
  it('synthesizes an address on a reserved domain from the name', () => {
    expect(placeholderEmail('Émile', 'Vautrin-Lacoste')).toBe('emile.vautrinlacoste@screening.invalid');
    expect(placeholderEmail(undefined, undefined)).toBe('applicant@screening.invalid');
  });
});
