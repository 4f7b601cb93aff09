import { describe, expect, it } from 'vitest';
import { CreditCheckBodySchema } from '../../src/credit-check/credit-check.schemas.ts';

const minimal = { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', phone: '+14165550123' };

function issuePaths(input: unknown): string[] {
  const result = CreditCheckBodySchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('credit check create body', () => {
  it('normalizes a snake_case body to camelCase with both invites defaulting to true and uat false', () => {
    expect(CreditCheckBodySchema.parse(minimal)).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      phone: '+14165550123',
      sendEmailInvite: true,
      sendPhoneInvite: true,
      uat: false,
    });
  });

  it('accepts every camelCase alias and carries the optional fields through', () => {
    const parsed = CreditCheckBodySchema.parse({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      phone: '+447700900123',
      externalId: 'cust-42',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      redirectUrl: 'https://example.com/done?x=1',
      uat: true,
      uatType: 'BANKRUPTCY_DISCHARGED',
    });
    expect(parsed).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      phone: '+447700900123',
      externalId: 'cust-42',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      redirectUrl: 'https://example.com/done?x=1',
      uat: true,
      uatType: 'BANKRUPTCY_DISCHARGED',
    });
  });

  it('lets the camelCase value win when both spellings are sent', () => {
    const parsed = CreditCheckBodySchema.parse({
      ...minimal,
      firstName: 'Camel',
      lastName: 'Case',
      external_id: 'snake-id',
      externalId: 'camel-id',
      send_email_invite: true,
      sendEmailInvite: false,
      send_phone_invite: false,
      sendPhoneInvite: true,
      redirect_url: 'https://snake.example.com/',
      redirectUrl: 'https://camel.example.com/',
      uat_type: 'SHELL_FILE',
      uatType: 'TELCO',
    });
    expect(parsed.firstName).toBe('Camel');
    expect(parsed.lastName).toBe('Case');
    expect(parsed.externalId).toBe('camel-id');
    expect(parsed.sendEmailInvite).toBe(false);
    expect(parsed.sendPhoneInvite).toBe(true);
    expect(parsed.redirectUrl).toBe('https://camel.example.com/');
    expect(parsed.uatType).toBe('TELCO');
  });

  it('ignores an invalid snake_case value entirely when its camelCase twin is sent', () => {
    const parsed = CreditCheckBodySchema.parse({
      ...minimal,
      first_name: '',
      firstName: 'Camel',
      external_id: '',
      externalId: 'cust-1',
      send_email_invite: 'yes',
      sendEmailInvite: false,
      redirect_url: 'http://insecure.example/done',
      redirectUrl: 'https://ok.example/done',
      uat_type: 42,
      uatType: 'TELCO',
    });
    expect(parsed).toEqual({
      firstName: 'Camel',
      lastName: 'Doe',
      email: 'jane@example.com',
      phone: '+14165550123',
      externalId: 'cust-1',
      sendEmailInvite: false,
      sendPhoneInvite: true,
      redirectUrl: 'https://ok.example/done',
      uat: false,
      uatType: 'TELCO',
    });
  });

  it('trims names and e-mail, and refuses a name of blanks', () => {
    expect(CreditCheckBodySchema.parse({ ...minimal, first_name: '  Jane ', email: ' jane@example.com ' })).toMatchObject({
      firstName: 'Jane',
      email: 'jane@example.com',
    });
    expect(issuePaths({ ...minimal, last_name: '   ' })).toEqual(['last_name']);
  });

  it('uses the snake_case value when only it is sent for a field', () => {
    const parsed = CreditCheckBodySchema.parse({ ...minimal, uat: true, uat_type: 'MORTGAGE', send_phone_invite: false });
    expect(parsed.uatType).toBe('MORTGAGE');
    expect(parsed.sendPhoneInvite).toBe(false);
    expect(parsed.sendEmailInvite).toBe(true);
  });

  it('omits optional keys that were not sent instead of setting them to undefined', () => {
    const parsed = CreditCheckBodySchema.parse(minimal);
    expect(Object.keys(parsed).sort()).toEqual(['email', 'firstName', 'lastName', 'phone', 'sendEmailInvite', 'sendPhoneInvite', 'uat']);
  });

  it('requires a first and last name in either spelling, naming the snake_case field', () => {
    expect(issuePaths({ email: 'jane@example.com', phone: '+14165550123' }).sort()).toEqual(['first_name', 'last_name']);
  });

  it('refuses empty and over-long names', () => {
    expect(issuePaths({ ...minimal, first_name: '' })).toEqual(['first_name']);
    expect(issuePaths({ ...minimal, lastName: 'x'.repeat(256) })).toEqual(['lastName']);
    expect(CreditCheckBodySchema.safeParse({ ...minimal, lastName: 'x'.repeat(255) }).success).toBe(true);
  });

  it('requires a valid e-mail address', () => {
    expect(issuePaths({ ...minimal, email: undefined })).toEqual(['email']);
    expect(issuePaths({ ...minimal, email: 'not-an-email' })).toEqual(['email']);
  });

  it.each([
    ['no plus sign', '14165550123'],
    ['leading zero after the plus', '+04165550123'],
    ['too short (9 digits)', '+141655501'],
    ['too long (16 digits)', '+1416555012345678'],
    ['spaces', '+1 416 555 0123'],
    ['letters', '+1416555CALL'],
  ])('refuses a phone with %s', (_label, phone) => {
    expect(issuePaths({ ...minimal, phone })).toEqual(['phone']);
  });

  it('accepts phones of 10 and 15 digits after the plus', () => {
    expect(CreditCheckBodySchema.safeParse({ ...minimal, phone: '+1416555012' }).success).toBe(true);
    expect(CreditCheckBodySchema.safeParse({ ...minimal, phone: '+123456789012345' }).success).toBe(true);
  });

  it('requires the phone', () => {
    expect(issuePaths({ ...minimal, phone: undefined })).toEqual(['phone']);
  });

  it.each([
    ['http', 'http://example.com/done'],
    ['javascript', 'javascript:alert(1)'],
    ['ftp', 'ftp://example.com/x'],
    ['a relative path', '/done'],
  ])('refuses a redirect_url with %s', (_label, url) => {
    expect(issuePaths({ ...minimal, redirect_url: url })).toEqual(['redirect_url']);
    expect(issuePaths({ ...minimal, redirectUrl: url })).toEqual(['redirectUrl']);
  });

  it('refuses non-boolean invites and uat', () => {
    expect(issuePaths({ ...minimal, send_email_invite: 'yes', uat: 1 }).sort()).toEqual(['send_email_invite', 'uat']);
  });

  it('accepts any uat_type string: an unrecognized one is resolved later, never a 400', () => {
    expect(CreditCheckBodySchema.parse({ ...minimal, uat: true, uat_type: 'x'.repeat(500) }).uatType).toHaveLength(500);
  });

  it('ignores unknown keys', () => {
    const parsed = CreditCheckBodySchema.parse({ ...minimal, favourite_colour: 'blue' });
    expect(parsed).not.toHaveProperty('favourite_colour');
  });
});
