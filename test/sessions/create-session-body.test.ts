import { describe, expect, it } from 'vitest';
import { CreateSessionBodySchema } from '../../src/sessions/sessions.schemas.ts';

const valid = { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com' };

/** The messages of a rejected body, by the path they point at. */
function problems(body: unknown): Record<string, string> {
  const result = CreateSessionBodySchema.safeParse(body);
  if (result.success) throw new Error(`expected a validation error, got ${JSON.stringify(result.data)}`);
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('POST /v1/sessions body', () => {
  it('normalizes a minimal snake_case body to camelCase with both invites defaulting to true', () => {
    expect(CreateSessionBodySchema.parse(valid)).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      sendEmailInvite: true,
      sendPhoneInvite: true,
    });
  });

  it('accepts every field in camelCase, the way the real client sends it', () => {
    expect(
      CreateSessionBodySchema.parse({
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane.doe@example.com',
        phone: '+14155550123',
        externalId: 'customer-1',
        sendEmailInvite: false,
        sendPhoneInvite: false,
        workflowId: 'wf-1',
        redirectUrl: 'https://example.com/done?x=1',
        expiresInHours: 48,
      }),
    ).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      phone: '+14155550123',
      externalId: 'customer-1',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      workflowId: 'wf-1',
      redirectUrl: 'https://example.com/done?x=1',
      expiresInHours: 48,
    });
  });

  it('accepts every field in snake_case', () => {
    const parsed = CreateSessionBodySchema.parse({
      ...valid,
      external_id: 'customer-2',
      send_email_invite: false,
      send_phone_invite: false,
      workflow_id: 'wf-2',
      redirect_url: 'https://example.com/back',
      expires_in_hours: 1,
    });
    expect(parsed).toMatchObject({
      externalId: 'customer-2',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      workflowId: 'wf-2',
      redirectUrl: 'https://example.com/back',
      expiresInHours: 1,
    });
  });

  it('lets camelCase win over snake_case for every aliased field', () => {
    const parsed = CreateSessionBodySchema.parse({
      first_name: 'Snake',
      firstName: 'Camel',
      last_name: 'Snake',
      lastName: 'Camel',
      email: 'a@example.com',
      external_id: 'snake',
      externalId: 'camel',
      send_email_invite: true,
      sendEmailInvite: false,
      send_phone_invite: true,
      sendPhoneInvite: false,
      workflow_id: 'snake',
      workflowId: 'camel',
      redirect_url: 'https://snake.example.com',
      redirectUrl: 'https://camel.example.com',
      expires_in_hours: 5,
      expiresInHours: 6,
    });
    expect(parsed).toEqual({
      firstName: 'Camel',
      lastName: 'Camel',
      email: 'a@example.com',
      externalId: 'camel',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      workflowId: 'camel',
      redirectUrl: 'https://camel.example.com',
      expiresInHours: 6,
    });
  });

  it('ignores an invalid snake_case value when its camelCase twin is sent', () => {
    const parsed = CreateSessionBodySchema.parse({
      ...valid,
      redirect_url: 'http://insecure.example.com',
      redirectUrl: 'https://ok.example.com',
      expires_in_hours: 0,
      expiresInHours: 2,
    });
    expect(parsed.redirectUrl).toBe('https://ok.example.com');
    expect(parsed.expiresInHours).toBe(2);
  });

  it('omits optional fields that were not sent instead of setting them to undefined', () => {
    const parsed = CreateSessionBodySchema.parse(valid);
    expect(Object.keys(parsed).sort()).toEqual(['email', 'firstName', 'lastName', 'sendEmailInvite', 'sendPhoneInvite']);
  });

  it('requires first_name and last_name, naming both spellings', () => {
    expect(problems({ email: 'a@example.com' })).toEqual({
      first_name: "first_name (or firstName) is required: send the applicant's first name, 1-255 characters",
      last_name: "last_name (or lastName) is required: send the applicant's last name, 1-255 characters",
    });
  });

  it('refuses empty and blank names', () => {
    expect(problems({ ...valid, first_name: '' })).toEqual({ first_name: "first_name must not be empty: send the applicant's name, 1-255 characters" });
    expect(problems({ ...valid, firstName: '   ' })).toEqual({ firstName: "firstName must not be empty: send the applicant's name, 1-255 characters" });
  });

  it('refuses names longer than 255 characters and accepts exactly 255', () => {
    expect(problems({ ...valid, lastName: 'x'.repeat(256) })).toEqual({ lastName: 'lastName must be at most 255 characters long; got 256 characters' });
    expect(CreateSessionBodySchema.parse({ ...valid, last_name: 'x'.repeat(255) }).lastName).toHaveLength(255);
  });

  it('refuses a name of the wrong type, saying what it got', () => {
    expect(problems({ ...valid, first_name: 42 })).toEqual({ first_name: 'first_name must be a string of 1-255 characters; got 42' });
  });

  it('requires email and refuses a malformed one', () => {
    expect(problems({ first_name: 'Jane', last_name: 'Doe' })).toEqual({
      email: "email is required: it must be the applicant's e-mail address, e.g. jane.doe@example.com",
    });
    expect(problems({ ...valid, email: 'not-an-email' })).toEqual({
      email: 'email must be a valid e-mail address such as jane.doe@example.com; got "not-an-email"',
    });
  });

  it('refuses a phone that is not E.164', () => {
    const e164 = 'phone must be in E.164 format: "+" then 10-15 digits, the first 1-9, no spaces (e.g. +14155550123)';
    for (const phone of ['4155550123', '+1 415 555 0123', '+0123456789', '+123456789', '+1234567890123456', '+44-7700-900123']) {
      expect(problems({ ...valid, phone })).toEqual({ phone: `${e164}; got ${JSON.stringify(phone)}` });
    }
  });

  it('accepts E.164 phones of 10 and 15 digits', () => {
    expect(CreateSessionBodySchema.parse({ ...valid, phone: '+1234567890' }).phone).toBe('+1234567890');
    expect(CreateSessionBodySchema.parse({ ...valid, phone: '+123456789012345' }).phone).toBe('+123456789012345');
  });

  it('refuses an http redirect_url and anything that is not an https URL', () => {
    const rule = 'redirect_url must be a valid https:// URL (http and other schemes are refused), e.g. https://example.com/verified';
    expect(problems({ ...valid, redirect_url: 'http://example.com/done' })).toEqual({ redirect_url: `${rule}; got "http://example.com/done"` });
    expect(problems({ ...valid, redirect_url: 'example.com/done' })).toEqual({ redirect_url: `${rule}; got "example.com/done"` });
    expect(problems({ ...valid, redirectUrl: 'javascript:alert(1)' })).toEqual({
      redirectUrl:
        'redirectUrl must be a valid https:// URL (http and other schemes are refused), e.g. https://example.com/verified; got "javascript:alert(1)"',
    });
  });

  it('refuses expires_in_hours 0 and 8761 and accepts the bounds 1 and 8760', () => {
    expect(problems({ ...valid, expires_in_hours: 0 })).toEqual({ expires_in_hours: 'expires_in_hours must be at least 1 (hours); got 0' });
    expect(problems({ ...valid, expires_in_hours: 8761 })).toEqual({ expires_in_hours: 'expires_in_hours must be at most 8760 hours (one year); got 8761' });
    expect(problems({ ...valid, expiresInHours: 1.5 })).toEqual({ expiresInHours: 'expiresInHours must be a whole number of hours from 1 to 8760; got 1.5' });
    expect(problems({ ...valid, expires_in_hours: '24' })).toEqual({
      expires_in_hours: 'expires_in_hours must be an integer number of hours from 1 to 8760; got the string "24"',
    });
    expect(CreateSessionBodySchema.parse({ ...valid, expires_in_hours: 1 }).expiresInHours).toBe(1);
    expect(CreateSessionBodySchema.parse({ ...valid, expires_in_hours: 8760 }).expiresInHours).toBe(8760);
  });

  it('refuses non-boolean invite flags and null optional fields', () => {
    expect(problems({ ...valid, send_email_invite: 'yes' })).toEqual({
      send_email_invite: 'send_email_invite must be a JSON boolean, true or false; got the string "yes"',
    });
    expect(problems({ ...valid, external_id: null })).toEqual({
      external_id: 'external_id must be a string of 1-255 characters (your own reference for the applicant); got null (omit the key instead of sending null)',
    });
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'text', 42]) {
      expect(Object.values(problems(body))).toEqual(['the request body must be a JSON object with first_name, last_name and email']);
    }
  });

  it('reports every problem at once', () => {
    expect(Object.keys(problems({ email: 'bad', phone: '123', redirect_url: 'http://x.example', expires_in_hours: 0 })).sort()).toEqual([
      'email',
      'expires_in_hours',
      'first_name',
      'last_name',
      'phone',
      'redirect_url',
    ]);
  });

  it('drops unknown and hostile keys without touching the prototype', () => {
    const body = JSON.parse('{"first_name":"Jane","last_name":"Doe","email":"jane@example.com","__proto__":{"admin":true},"extra":1}');
    const parsed = CreateSessionBodySchema.parse(body) as unknown as Record<string, unknown>;
    expect(parsed.admin).toBeUndefined();
    expect(parsed.extra).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
