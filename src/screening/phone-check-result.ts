/**
 * What the three carrier-backed checks (phone ownership, phone trust, carrier age gate) hand back to
 * their routes. The route maps the status: 'ok' -> 200 with `response`, 'carrier-unavailable' -> 503
 * (nothing billed), 'invalid-input' -> 400 with `message`. `billable` says whether the call may be
 * charged (a 200, NO_DATA included: the spec bills on success and the carrier did answer).
 */
import { normalizePhone, type ParsedPhone } from './phone-numbers.ts';

export type PhoneCheckResult<TResponse> =
  | { status: 'ok'; response: TResponse; explanation: string; billable: true }
  | { status: 'carrier-unavailable'; explanation: string; billable: false }
  | { status: 'invalid-input'; field: string; message: string; explanation: string; billable: false };

export type PhoneCheckFailure = Exclude<PhoneCheckResult<never>, { status: 'ok' }>;

export function invalidInput(field: string, message: string): PhoneCheckFailure {
  return { status: 'invalid-input', field, message, explanation: `invalid input: ${message}`, billable: false };
}

export function carrierUnavailable(explanation: string): PhoneCheckFailure {
  return { status: 'carrier-unavailable', explanation, billable: false };
}

/** Parses the phone (which may come from a session applicant, so it is checked again here). */
export function parsePhoneInput(phone: string | undefined): { ok: true; phone: ParsedPhone } | { ok: false; failure: PhoneCheckFailure } {
  if (phone === undefined || phone.trim() === '') {
    return {
      ok: false,
      failure: invalidInput('phone', 'phone is required: send an E.164 number such as +447700900001, or a sessionId whose applicant has a phone'),
    };
  }
  const parsed = normalizePhone(phone);
  if (!parsed.ok) return { ok: false, failure: invalidInput('phone', parsed.message) };
  const { ok: _ok, ...phoneOnly } = parsed;
  return { ok: true, phone: phoneOnly };
}

export function isoFromMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** The statusMessage when the carrier answered (the wording the real service uses). */
export const SUPPLIER_RESPONDED = 'Response from one supplier';

export function findByPhone<T extends { phone: string }>(table: readonly T[], e164: string): T | undefined {
  return table.find((row) => row.phone === e164);
}
