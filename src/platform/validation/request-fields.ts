/**
 * The field rules request bodies share (applicant names, e-mail, E.164 phone, https redirect URL, your own
 * identifiers, flags, session expiry in hours), written once so every area refuses the same input with the same sentence.
 *
 * Each factory takes the key as the caller spelled it, because every message is a full sentence that starts
 * with that key and says how to fix the value (describeZodError in src/platform/errors/api-error.ts keeps
 * such sentences as they are): `phone must be in E.164 format: ...; got "604 555 0177"`.
 *
 * LIMITATIONS:
 * - E-mail addresses are checked by zod's pattern, not by a mailbox lookup.
 * - Phone numbers are checked for E.164 shape only (the real client's rule), not against numbering plans.
 */
import { z } from '@hono/zod-openapi';

/** E.164 as the real client checks it: '+', then 10-15 digits, the first 1-9 (real-client-facts §6.2). */
export const E164_PATTERN = /^\+[1-9]\d{9,14}$/;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * A zod error map: `<field> must be <rule>` plus what was actually received, or `<field> is required: ...`
 * when the key is missing (`required` replaces the default `it must be <rule>` there).
 */
export function mustBe(field: string, rule: string, required?: string) {
  return (issue: { code?: string; input?: unknown }): string => {
    const input = issue.input;
    if (input === undefined && issue.code === 'invalid_type') return `${field} is required: ${required ?? `it must be ${rule}`}`;
    let got = '';
    if (input === null) got = '; got null (omit the key instead of sending null)';
    else if (issue.code === 'invalid_type') {
      if (typeof input === 'number' || typeof input === 'boolean') got = `; got ${String(input)}`;
      else if (typeof input === 'string' && input.length <= 60) got = `; got the string ${JSON.stringify(input)}`;
      else got = `; got ${kindOf(input)}`;
    } else if (typeof input === 'string' && input.length > 60) got = `; got ${input.length} characters`;
    else if (typeof input === 'string' || typeof input === 'number') got = `; got ${JSON.stringify(input)}`;
    return `${field} must be ${rule}${got}`;
  };
}

/**
 * A person's name, 1-255 characters after trimming. `what` says whose name it is in the message for a
 * missing key ("the applicant's first name").
 */
export function personName(field: string, what = "the applicant's name") {
  return z
    .string({ error: mustBe(field, 'a string of 1-255 characters', `send ${what}, 1-255 characters`) })
    .trim()
    .min(1, { error: `${field} must not be empty: send the applicant's name, 1-255 characters` })
    .max(255, { error: mustBe(field, 'at most 255 characters long') })
    .openapi({ description: `${what}, 1-255 characters` });
}

/** An e-mail address, trimmed, at most 320 characters. */
export function email(field = 'email') {
  return z
    .string({ error: mustBe(field, "the applicant's e-mail address, e.g. jane.doe@example.com") })
    .trim()
    .max(320, { error: mustBe(field, 'at most 320 characters long') })
    .pipe(z.email({ error: mustBe(field, 'a valid e-mail address such as jane.doe@example.com') }))
    .openapi({ format: 'email', example: 'jane.doe@example.com' });
}

/** A phone number in E.164 format. */
export function e164Phone(field = 'phone') {
  return z
    .string({ error: mustBe(field, 'an E.164 phone number such as +14155550123') })
    .regex(E164_PATTERN, {
      error: mustBe(field, 'in E.164 format: "+" then 10-15 digits, the first 1-9, no spaces (e.g. +14155550123)'),
    })
    .openapi({ example: '+14155550123', description: 'E.164: "+" then 10-15 digits, the first 1-9' });
}

/** A parseable absolute https URL with a host, at most 2048 characters. */
export function isHttpsUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Where to send the applicant afterwards: https only (http and other schemes are refused). */
export function httpsUrl(field: string) {
  return z
    .string({ error: mustBe(field, 'an https:// URL, e.g. https://example.com/verified') })
    .refine(isHttpsUrl, { error: mustBe(field, 'a valid https:// URL (http and other schemes are refused), e.g. https://example.com/verified') })
    .openapi({ format: 'uri', pattern: '^https://', example: 'https://example.com/verified' });
}

/** An identifier of 1-255 characters: the caller's own reference, or the id of one of its resources. */
export function identifier(field: string, what: string) {
  return z
    .string({ error: mustBe(field, `a string of 1-255 characters (${what})`) })
    .min(1, { error: `${field} must not be empty: omit it or send ${what}` })
    .max(255, { error: mustBe(field, 'at most 255 characters long') });
}

/** A JSON boolean (the strings "true" and "false" are refused: the real client sends booleans). */
export function flag(field: string) {
  return z.boolean({ error: mustBe(field, 'a JSON boolean, true or false') });
}

/** A session's expiry in whole hours, 1-8760 (one year): expires_in_hours / expiresInHours. */
export function expiresInHours(field: string) {
  return z
    .number({ error: mustBe(field, 'an integer number of hours from 1 to 8760') })
    .int({ error: mustBe(field, 'a whole number of hours from 1 to 8760') })
    .min(1, { error: mustBe(field, 'at least 1 (hours)') })
    .max(8760, { error: mustBe(field, 'at most 8760 hours (one year)') });
}
