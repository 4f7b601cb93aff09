/**
 * Request fields shared by the screening endpoints. Every message names the field and says how to fix
 * it, because the route returns it verbatim as the 400 `error`.
 *
 * Choices where the spec is silent:
 * - `email` is optional wherever the real client may omit it (adverse media, PEP and sanctions, phone
 *   checks; facts §6.4: 'omitted -> server synthesizes one'), but when sent it must be an address.
 * - `country` accepts either case ('gb' or 'GB') and must be a real ISO 3166-1 alpha-2 code.
 * - Names must contain a non-space character; surrounding spaces are kept (and ignored by matching).
 * - `sessionId` is any non-empty string: an id that does not exist is a 404 (the route's job), not a
 *   400.
 */
import { z } from '@hono/zod-openapi';
import { countries } from './countries.ts';
import { normalizePhone } from './phone-numbers.ts';

function requiredOrType(field: string, fix: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required: ${fix}` : `${field} must be a string: ${fix}`);
}

/** A first or last name, 1-255 characters. */
export function nameField(field: string, example: string) {
  const fix = 'send 1-255 characters';
  return z
    .string({ error: requiredOrType(field, fix) })
    .min(1, { error: `${field} must not be empty: ${fix}`, abort: true })
    .max(255, `${field} is too long: send at most 255 characters`)
    .refine((value) => value.trim().length > 0, `${field} must contain a non-space character`)
    .openapi({ example, minLength: 1, maxLength: 255 });
}

export const EmailSchema = z.lazy(() =>
  z
    .email({
      error: (issue) =>
        issue.input === undefined
          ? 'email is required: send an e-mail address such as jane.doe@example.com'
          : 'email must be a valid e-mail address such as jane.doe@example.com',
    })
    .max(254, 'email is too long: send at most 254 characters')
    .openapi({ example: 'jane.doe@example.com' }),
);

/** True when `text` is YYYY-MM-DD and names a day that exists (2024-02-29 yes, 2023-02-30 no). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function dateField(field: string, example: string) {
  return z
    .string({ error: requiredOrType(field, 'send a date as YYYY-MM-DD, e.g. 1980-04-23') })
    .superRefine((value, ctx) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        ctx.addIssue({ code: 'custom', message: `${field} must use the format YYYY-MM-DD, e.g. 1980-04-23` });
      } else if (!isCalendarDate(value)) {
        ctx.addIssue({ code: 'custom', message: `${field} ${value} is not a real calendar date: check the month and day` });
      }
    })
    .openapi({ format: 'date', example });
}

export const DateOfBirthSchema = z.lazy(() => dateField('dateOfBirth', '1980-04-23'));

export const CountrySchema = z.lazy(() =>
  z
    .string({ error: 'country must be a string: send an ISO 3166-1 alpha-2 code such as GB or US' })
    .superRefine((value, ctx) => {
      if (!/^[A-Za-z]{2}$/.test(value) || !countries.isValid(value.toUpperCase())) {
        ctx.addIssue({
          code: 'custom',
          message: `country ${JSON.stringify(value)} is not an ISO 3166-1 alpha-2 code: send two letters such as GB or US`,
        });
      }
    })
    .openapi({ example: 'GB', description: 'ISO 3166-1 alpha-2 country code' }),
);

export const PhoneSchema = z.lazy(() =>
  z
    .string({ error: requiredOrType('phone', 'send an E.164 number such as +447700900001') })
    .superRefine((value, ctx) => {
      const parsed = normalizePhone(value);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
    })
    .openapi({
      example: '+447700900001',
      description: 'E.164; a bare 10-digit North American number is treated as +1',
    }),
);

export const SessionIdSchema = z.lazy(() =>
  z
    .string({ error: 'sessionId must be a string: send the id of a session of your organization' })
    .min(1, 'sessionId must not be empty: send the id of a session of your organization')
    .max(255, 'sessionId is too long: send the id of a session of your organization')
    .openapi({ example: '3f1c2b9a-6d4e-4f7a-9c2b-1a2b3c4d5e6f' }),
);

/** Placeholder used when a screening request omits `email` (facts §6.4: the server synthesizes one). */
export function placeholderEmail(firstName: string | undefined, lastName: string | undefined): string {
  const local = [firstName, lastName]
    .map((part) =>
      (part ?? '')
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ''),
    )
    .filter((part) => part !== '')
    .join('.');
  return `${local === '' ? 'applicant' : local}@screening.invalid`;
}
