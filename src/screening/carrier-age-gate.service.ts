/**
 * Carrier age gate: does the mobile carrier's subscriber of a number meet a minimum age? Not in
 * api.md; the shape is the real client's (facts §6.4). Coverage is that of the other phone checks
 * (UK mobiles have data; US, Canada and everything else NO_DATA) and magic numbers force each outcome.
 *
 * Rules:
 * - PASS / VERIFIED when the subscriber's age on the check day (UTC, completed years) is at least
 *   requiredAge; FAIL / NOT_VERIFIED below it; NO_DATA / NO_DATA when the number is not covered or
 *   the carrier holds no date of birth.
 * - requiredAge defaults to 18 (the real client sends none); carrierThreshold is 18, the age UK
 *   carriers verify for their adult-content bar, reported whenever the carrier answered with data.
 *
 * LIMITATIONS:
 * - The subscriber's age comes from a synthetic date of birth (phone-carrier.ts); 4% of non-magic
 *   UK subscribers are minors and 10% have no date of birth on file.
 */
import { uuidFrom } from '../platform/random/random.ts';
import type { CarrierAgeGateResponse } from './carrier-age-gate.schemas.ts';
import { asciiExplanation } from './explain.ts';
import { CARRIER_AGE_GATE_MAGIC_NUMBERS } from './magic-values.ts';
import { carrierCoverage } from './phone-numbers.ts';
import { subscriberFor } from './phone-carrier.ts';
import { carrierUnavailable, findByPhone, invalidInput, isoFromMs, parsePhoneInput, SUPPLIER_RESPONDED, type PhoneCheckResult } from './phone-check-result.ts';

export const DEFAULT_REQUIRED_AGE = 18;
export const CARRIER_AGE_THRESHOLD = 18;

/** Completed years between a YYYY-MM-DD birth date and the UTC day of `nowMs`. */
export function ageOn(dateOfBirth: string, nowMs: number): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const now = new Date(nowMs);
  const beforeBirthday = now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day);
  return now.getUTCFullYear() - year - (beforeBirthday ? 1 : 0);
}

/** The date `years` before the UTC day of `nowMs`, moved `daysAfter` days later (YYYY-MM-DD). */
export function birthDateBefore(nowMs: number, years: number, daysAfter: number): string {
  const now = new Date(nowMs);
  const birth = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + daysAfter));
  return birth.toISOString().slice(0, 10);
}

export interface CarrierAgeGateInput {
  phone: string | undefined;
  requiredAge?: number | undefined;
  sessionId?: string | undefined;
}

export function checkCarrierAgeGate(input: CarrierAgeGateInput, nowMs: number): PhoneCheckResult<CarrierAgeGateResponse> {
  const parsed = parsePhoneInput(input.phone);
  if (!parsed.ok) return parsed.failure;
  const requiredAge = input.requiredAge ?? DEFAULT_REQUIRED_AGE;
  if (!Number.isInteger(requiredAge) || requiredAge < 0 || requiredAge > 150) {
    return invalidInput('requiredAge', 'requiredAge must be an integer from 0 to 150');
  }
  const { e164 } = parsed.phone;
  const magic = findByPhone(CARRIER_AGE_GATE_MAGIC_NUMBERS, e164);
  const magicNote = magic ? `magic value: phone ${e164} -> ${magic.description.replace(/\.$/, '')}; ` : '';
  if (magic?.effect.kind === 'carrier-outage') {
    return carrierUnavailable(asciiExplanation(`magic value: phone ${e164} -> carrier provider unavailable (503, not billed)`));
  }
  const checkedAt = isoFromMs(nowMs);
  const correlationId = uuidFrom('carrier-age-gate', e164, requiredAge, nowMs);
  const session = input.sessionId !== undefined ? { sessionId: input.sessionId } : {};

  const coverage = carrierCoverage(parsed.phone);
  const dateOfBirth =
    magic?.effect.kind === 'subscriber-born'
      ? birthDateBefore(nowMs, magic.effect.yearsBeforeCheck, magic.effect.daysAfter)
      : magic?.effect.kind === 'no-data' || !coverage.covered
        ? null
        : subscriberFor(e164).dateOfBirth;

  if (dateOfBirth === null) {
    const reason = !coverage.covered
      ? coverage.reason
      : magic
        ? 'the carrier holds no servable data for this number'
        : 'the carrier holds no date of birth for this subscriber';
    const response: CarrierAgeGateResponse = {
      outcome: 'NO_DATA',
      ageVerified: 'NO_DATA',
      requiredAge,
      statusMessage: `No data: ${reason}`,
      checkedAt,
      correlationId,
      ...session,
    };
    return { status: 'ok', response, explanation: asciiExplanation(`${magicNote}phone ${e164}: ${reason} -> NO_DATA`), billable: true };
  }

  const age = ageOn(dateOfBirth, nowMs);
  const passed = age >= requiredAge;
  const response: CarrierAgeGateResponse = {
    outcome: passed ? 'PASS' : 'FAIL',
    ageVerified: passed ? 'VERIFIED' : 'NOT_VERIFIED',
    requiredAge,
    statusMessage: SUPPLIER_RESPONDED,
    checkedAt,
    carrierThreshold: CARRIER_AGE_THRESHOLD,
    correlationId,
    ...session,
  };
  const explanation = `${magicNote}phone ${e164}: subscriber aged ${age} ${passed ? '>=' : '<'} required ${requiredAge} -> ${response.outcome}`;
  return { status: 'ok', response, explanation: asciiExplanation(explanation), billable: true };
}
