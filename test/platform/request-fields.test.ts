import type { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { E164_PATTERN, e164Phone, email, flag, httpsUrl, identifier, isHttpsUrl, personName } from '../../src/platform/validation/request-fields.ts';

/** The one message a schema gives for `value`, or 'ok'. */
function verdict(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : result.error.issues.map((issue) => issue.message).join(' | ');
}

describe('shared request fields', () => {
  it('trims person names and refuses blank, over-long and non-string ones, naming the key', () => {
    const name = personName('given_name', "the applicant's given name");
    expect(name.parse('  Ana  ')).toBe('Ana');
    expect(name.parse('x'.repeat(255))).toHaveLength(255);
    expect(verdict(name, '   ')).toBe("given_name must not be empty: send the applicant's name, 1-255 characters");
    expect(verdict(name, 'x'.repeat(256))).toBe('given_name must be at most 255 characters long; got 256 characters');
    expect(verdict(name, 42)).toBe('given_name must be a string of 1-255 characters; got 42');
    expect(verdict(name, undefined)).toBe("given_name is required: send the applicant's given name, 1-255 characters");
  });

  it('accepts e-mail addresses up to 320 characters and says what a valid one looks like', () => {
    const field = email('contact');
    expect(field.parse(' ana@example.com ')).toBe('ana@example.com');
    expect(verdict(field, 'ana-at-example')).toBe('contact must be a valid e-mail address such as jane.doe@example.com; got "ana-at-example"');
    expect(verdict(field, `${'a'.repeat(310)}@example.com`)).toBe('contact must be at most 320 characters long; got 322 characters');
    expect(verdict(field, undefined)).toBe("contact is required: it must be the applicant's e-mail address, e.g. jane.doe@example.com");
  });

  it('takes E.164 phones of 10 to 15 digits after "+", the first 1-9', () => {
    const phone = e164Phone('mobile');
    for (const ok of ['+1234567890', '+123456789012345', '+447700900123']) expect(verdict(phone, ok), ok).toBe('ok');
    const rule = 'mobile must be in E.164 format: "+" then 10-15 digits, the first 1-9, no spaces (e.g. +14155550123)';
    for (const bad of ['4155550123', '+0123456789', '+123456789', '+1234567890123456', '+1 415 555 0123']) {
      expect(verdict(phone, bad), bad).toBe(`${rule}; got ${JSON.stringify(bad)}`);
    }
    expect(E164_PATTERN.test('+14155550123')).toBe(true);
  });

  it('accepts only absolute https URLs with a host, at most 2048 characters', () => {
    expect(isHttpsUrl('https://example.com/done?x=1')).toBe(true);
    for (const bad of ['http://example.com', 'javascript:alert(1)', 'ftp://example.com/x', '/done', 'https://', `https://example.com/${'a'.repeat(2030)}`]) {
      expect(isHttpsUrl(bad), bad.slice(0, 40)).toBe(false);
    }
    expect(verdict(httpsUrl('back_url'), 'http://example.com')).toBe(
      'back_url must be a valid https:// URL (http and other schemes are refused), e.g. https://example.com/verified; got "http://example.com"',
    );
  });

  it('refuses empty identifiers and string flags, saying what to send', () => {
    expect(verdict(identifier('ref', 'your own reference'), '')).toBe('ref must not be empty: omit it or send your own reference');
    expect(verdict(identifier('ref', 'your own reference'), 'x'.repeat(255))).toBe('ok');
    expect(verdict(flag('notify'), 'true')).toBe('notify must be a JSON boolean, true or false; got the string "true"');
    expect(verdict(flag('notify'), null)).toBe('notify must be a JSON boolean, true or false; got null (omit the key instead of sending null)');
  });
});
