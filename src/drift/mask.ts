/**
 * What of a recording a report may show. A report shows recorded values only where they are
 * enum-like tokens (statuses, codes, verdicts); everything else appears as its type, a route template,
 * or a short hash where two places must be seen to agree. The rules here decide those cases.
 */
import { createHash } from 'node:crypto';

/** Field names whose values are personal whatever they look like. */
const PERSONAL_FIELD = /(name|mail|phone|address|street|city|postal|zip|document|number|birth|dob|ssn|iban|account|key|token|secret|password|ip$)/i;

/** Field names whose values are enum-like: compared by value, and shown. */
const ENUM_FIELD = /(status|verdict|code|risk|level|result|state|decision|severity|outcome|kind|type|rel|slot|reason|mode)$/i;

/** An enum value is a short token: no spaces, no `@`, no long run of digits (a number, not a code). */
const TOKEN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const DIGIT_RUN = /\d{5,}/;

export const isEnumToken = (value: string) => TOKEN.test(value) && !DIGIT_RUN.test(value);

/** Whether the field `name` holding `value` compares by value (else by type only). */
export function isEnumLike(name: string | number | undefined, value: string): boolean {
  return typeof name === 'string' && ENUM_FIELD.test(name) && !PERSONAL_FIELD.test(name) && isEnumToken(value);
}

/** A short, stable hash: the same recorded value gives the same text, from which it cannot be read. */
export const shortHash = (value: string) => `#${createHash('sha256').update(value).digest('hex').slice(0, 8)}`;

/** A literal path segment of an API (`v1`, `sessions`, `bank-statements`, `externalId`): anything else may be data. */
const LITERAL_SEGMENT = /^(v\d+|[a-z]+([A-Z][a-z]+)*(-[a-z]+)*)$/;

/** A path the sandbox does not serve, with every segment that may be data replaced by its short hash; the query is left out. */
export function maskedPath(path: string): string {
  return `/${path
    .split('/')
    .filter(Boolean)
    .map((segment) => (LITERAL_SEGMENT.test(segment) ? segment : `{${shortHash(segment)}}`))
    .join('/')}`;
}

/**
 * Every string a recording holds under a personal field name (in any request or response body), lower-cased:
 * a value shown as an enum token that is one of them is hashed instead, whatever field it turned up in.
 */
export function personalValues(bodies: Iterable<unknown>): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown, personal: boolean): void => {
    if (typeof value === 'string') {
      if (personal) found.add(value.toLowerCase());
    } else if (Array.isArray(value)) value.forEach((item) => walk(item, personal));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) walk(item, personal || PERSONAL_FIELD.test(key));
  };
  for (const body of bodies) walk(body, false);
  return found;
}

/** A value for the report: a hash when the recording held it as personal data. */
export const shownValue = (value: string, personal: ReadonlySet<string>) => (personal.has(value.toLowerCase()) ? shortHash(value) : value);
