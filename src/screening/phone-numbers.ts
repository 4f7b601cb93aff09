/**
 * Phone number parsing and carrier coverage for the phone checks (ownership, trust, carrier age gate).
 *
 * Numbers are parsed with libphonenumber-js (full metadata) and normalized to E.164. Accepted forms:
 * '+447700900001', '+44 7700 900001', '+44 (0)7700 900001', '0044 7700 900001', and a bare 10-digit
 * North American number ('2015550123' or '201-555-0123', also with a leading 1) which becomes +1.
 * A national number with a trunk 0 and no country code ('07700 900001') is refused with a message
 * that shows the +44 form: the API takes E.164 and guessing the country would hide client bugs.
 *
 * Any E.164-shaped number is accepted (the real client's rule: '+' then 10-15 digits, the first 1-9),
 * whether or not the numbering plan allocates its range: a carrier lookup of a number nobody holds
 * answers with no data, never with a validation error.
 *
 * Coverage (spec: 'UK numbers return live data; US and Canadian numbers return NO_DATA'):
 * - A number in a range the numbering plan does not allocate (libphonenumber: not valid): no carrier
 *   holds it, NO_DATA.
 * - UK mobile numbers (and the Ofcom drama range +44 7700 900000-900999, which libphonenumber treats
 *   as invalid because it is reserved for fiction) have carrier data.
 * - UK numbers that are not mobiles (landlines, VoIP, freephone) have no SIM and no subscriber
 *   record at a mobile carrier: NO_DATA.
 * - US and Canadian numbers: NO_DATA. Every other country: NO_DATA too, the conservative reading of
 *   a spec that names only the UK as covered.
 *
 * LIMITATIONS:
 * - Allocation is libphonenumber's metadata: a newly allocated real range answers NO_DATA until the
 *   library is updated.
 */
import { packageOnFirstUse } from '../platform/package-on-first-use.ts';
import { E164_PATTERN } from '../platform/validation/request-fields.ts';

/** libphonenumber's full metadata is 180 KB of code: it loads on the first phone number, not at start-up. */
const libphonenumber = packageOnFirstUse<typeof import('libphonenumber-js/max')>(import.meta.url, 'libphonenumber-js/max');

export interface ParsedPhone {
  /** E.164, e.g. '+447700900001'. */
  e164: string;
  /** ISO 3166-1 alpha-2 of the number's region, when libphonenumber can tell. */
  country: string | undefined;
  /** libphonenumber's number type (MOBILE, FIXED_LINE, ...) when known. */
  type: string | undefined;
  /** Whether the numbering plan allocates the number's range (a carrier can hold it). */
  allocated: boolean;
}

export type PhoneParseResult = ({ ok: true } & ParsedPhone) | { ok: false; message: string };

/** Ofcom reserves 07700 900000-900999 for drama: never a real subscriber, so safe as test numbers. */
export const OFCOM_DRAMA_RANGE = /^\+447700900\d{3}$/;

const EXAMPLE_NUMBER = '+447700900001';
const EXAMPLE = `e.g. ${EXAMPLE_NUMBER}`;

export function normalizePhone(raw: string): PhoneParseResult {
  const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw);
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: false, message: `phone must not be empty: send an E.164 number, ${EXAMPLE}` };
  if (!/^\+?[0-9\s\-.()/]+$/.test(trimmed)) {
    return {
      ok: false,
      message: `phone ${shown} may contain only digits, spaces, dashes, dots, parentheses and a leading +: send an E.164 number, ${EXAMPLE}`,
    };
  }
  // '(0)' is the UK habit of showing the trunk prefix inside an international number.
  let compact = trimmed.replace(/\(0\)/g, '').replace(/[\s\-.()/]/g, '');
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  if (!compact.startsWith('+')) {
    if (/^\d{10}$/.test(compact)) compact = `+1${compact}`;
    else if (/^1\d{10}$/.test(compact)) compact = `+${compact}`;
    else {
      return {
        ok: false,
        message: `phone ${shown} has no country code: send it in E.164 form with a leading + and the country code (a UK number as +44 without its leading 0, ${EXAMPLE}); only a bare 10-digit North American number may omit it`,
      };
    }
  }
  if (!E164_PATTERN.test(compact)) {
    return { ok: false, message: `phone ${shown} is not an E.164 number (a + and 10-15 digits, the first 1-9): send it as ${EXAMPLE_NUMBER}` };
  }
  if (OFCOM_DRAMA_RANGE.test(compact)) return { ok: true, e164: compact, country: 'GB', type: 'MOBILE', allocated: true };
  const parsed = libphonenumber().parsePhoneNumberFromString(compact);
  if (!parsed?.isValid()) return { ok: true, e164: compact, country: parsed?.country, type: undefined, allocated: false };
  return { ok: true, e164: parsed.number, country: parsed.country, type: parsed.getType(), allocated: true };
}

export type CarrierCoverage = { covered: true } | { covered: false; reason: string };

/** Whether the simulated carrier holds data for the number (see the module comment). */
export function carrierCoverage(phone: ParsedPhone): CarrierCoverage {
  if (!phone.allocated) {
    return { covered: false, reason: `no carrier holds ${phone.e164}: its range is not allocated in the numbering plan` };
  }
  if (phone.e164.startsWith('+1')) {
    return { covered: false, reason: `carrier data is not available for US and Canadian numbers (${phone.e164})` };
  }
  if (phone.e164.startsWith('+44')) {
    if (phone.type === 'MOBILE') return { covered: true };
    return {
      covered: false,
      reason: `carrier data covers UK mobile numbers only; ${phone.e164} is ${phone.type ?? 'not a mobile number'}`,
    };
  }
  return {
    covered: false,
    reason: `carrier data is not available for ${phone.country ?? 'this country'} numbers (${phone.e164}); only UK mobiles are covered`,
  };
}
