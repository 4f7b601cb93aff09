/**
 * Phone ownership match: how well a name matches the carrier's subscriber of a phone number. The
 * subscriber is never disclosed; only scores come back.
 *
 * Scores (integers; -1 no data, 0 held but no match, 1-99 partial, 100 exact):
 * - firstNameScore / lastNameScore: normalized Levenshtein similarity (name-similarity.ts) between the
 *   name sent and the subscriber's, after folding case and diacritics. Reported for the parts sent.
 * - nameScore: the mean of the two when both are sent, otherwise the one sent. Only nameScore decides:
 *   MATCH iff nameScore >= threshold (relaxed 50, medium 70, strict 90).
 * - addressScore (when address sent): word-set similarity with the subscriber's address; -1 when the
 *   carrier holds no address. dobScore (when dateOfBirth sent and the carrier holds one): 100 exact,
 *   80 day and month swapped, 60 same year and month, 50 same day and month one year off, 40 same
 *   year, else 0. Neither ever changes the outcome.
 *
 * LIMITATIONS:
 * - No nickname or initial handling in the carrier score ('Bill' vs 'William' scores low).
 * - Coverage is UK mobiles only (phone-numbers.ts); everything else is NO_DATA.
 */
import { uuidFrom } from '../platform/random/random.ts';
import { asciiExplanation } from './explain.ts';
import { PHONE_OWNERSHIP_MAGIC_NUMBERS, type PhoneOwnershipMagicEffect } from './magic-values.ts';
import { editSimilarity, tokenSetSimilarity } from './name-similarity.ts';
import { carrierCoverage } from './phone-numbers.ts';
import { subscriberFor, type CarrierSubscriber } from './phone-carrier.ts';
import { carrierUnavailable, findByPhone, invalidInput, isoFromMs, parsePhoneInput, SUPPLIER_RESPONDED, type PhoneCheckResult } from './phone-check-result.ts';
import type { PhoneOwnershipResponse, Strictness } from './phone-ownership.schemas.ts';

export const STRICTNESS_THRESHOLDS: Readonly<Record<Strictness, number>> = { relaxed: 50, medium: 70, strict: 90 };

export type PhoneOwnershipOutcome = PhoneOwnershipResponse['outcome'];

/** The spec's decision rule: MATCH at or above the threshold, NO_MATCH below, NO_DATA for -1. */
export function outcomeFor(nameScore: number, strictness: Strictness): PhoneOwnershipOutcome {
  if (nameScore < 0) return 'NO_DATA';
  return nameScore >= STRICTNESS_THRESHOLDS[strictness] ? 'MATCH' : 'NO_MATCH';
}

export interface PhoneOwnershipInput {
  /** As sent or taken from the session applicant; validated again here. */
  phone: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  address?: string | undefined;
  dateOfBirth?: string | undefined;
  strictness?: Strictness | undefined;
  /** Echoed in the response when the result is attached to a session. */
  sessionId?: string | undefined;
}

const percent = (similarity: number) => Math.round(similarity * 100);

/** The dobScore rule in the module comment. */
export function dateOfBirthScore(sent: string, held: string): number {
  if (sent === held) return 100;
  const [sy, sm, sd] = sent.split('-');
  const [hy, hm, hd] = held.split('-');
  if (sy === hy && sm === hd && sd === hm) return 80;
  if (sy === hy && sm === hm) return 60;
  if (sm === hm && sd === hd && Math.abs(Number(sy) - Number(hy)) === 1) return 50;
  if (sy === hy) return 40;
  return 0;
}

const nonEmpty = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);

export function checkPhoneOwnership(input: PhoneOwnershipInput, nowMs: number): PhoneCheckResult<PhoneOwnershipResponse> {
  const parsed = parsePhoneInput(input.phone);
  if (!parsed.ok) return parsed.failure;
  const { e164 } = parsed.phone;
  const firstName = nonEmpty(input.firstName);
  const lastName = nonEmpty(input.lastName);
  if (firstName === undefined && lastName === undefined) {
    return invalidInput('firstName', 'firstName or lastName is required: send the name to match, or a sessionId whose applicant has a name');
  }
  const strictness = input.strictness ?? 'medium';
  const threshold = STRICTNESS_THRESHOLDS[strictness];
  const magic = findByPhone(PHONE_OWNERSHIP_MAGIC_NUMBERS, e164);
  const magicNote = magic ? `magic value: phone ${e164} -> ${magic.outcome}; ` : '';

  if (magic?.effect.kind === 'carrier-outage') {
    return carrierUnavailable(asciiExplanation(`magic value: phone ${e164} -> carrier provider unavailable (503, not billed)`));
  }
  const base = {
    strictness,
    threshold,
    checkedAt: isoFromMs(nowMs),
    correlationId: uuidFrom('phone-ownership', e164, firstName ?? '', lastName ?? '', input.address ?? '', input.dateOfBirth ?? '', strictness, nowMs),
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
  };

  const coverage = carrierCoverage(parsed.phone);
  if (magic?.effect.kind === 'no-data' || !coverage.covered) {
    const reason = coverage.covered ? 'the carrier holds no servable data for this number' : coverage.reason;
    const response: PhoneOwnershipResponse = {
      outcome: 'NO_DATA',
      nameScore: -1,
      ...(input.address !== undefined ? { addressScore: -1 } : {}),
      strictness: base.strictness,
      threshold: base.threshold,
      statusMessage: `No data: ${reason}`,
      checkedAt: base.checkedAt,
      correlationId: base.correlationId,
      ...(base.sessionId !== undefined ? { sessionId: base.sessionId } : {}),
    };
    return ok(response, `${magicNote}phone ${e164}: ${reason} -> NO_DATA (nameScore -1)`);
  }

  const subscriber = subscriberForCheck(e164, magic?.effect, { firstName, lastName, address: input.address, dateOfBirth: input.dateOfBirth });
  const scores = nameScores(firstName, lastName, subscriber, magic?.effect);
  const outcome = outcomeFor(scores.nameScore, strictness);
  const dobScore = input.dateOfBirth !== undefined && subscriber.dateOfBirth !== null ? dateOfBirthScore(input.dateOfBirth, subscriber.dateOfBirth) : undefined;
  const addressScore =
    input.address === undefined ? undefined : subscriber.address === null ? -1 : percent(tokenSetSimilarity(input.address, subscriber.address));
  const response: PhoneOwnershipResponse = {
    outcome,
    nameScore: scores.nameScore,
    ...(scores.firstNameScore !== undefined ? { firstNameScore: scores.firstNameScore } : {}),
    ...(scores.lastNameScore !== undefined ? { lastNameScore: scores.lastNameScore } : {}),
    ...(dobScore !== undefined ? { dobScore } : {}),
    ...(addressScore !== undefined ? { addressScore } : {}),
    strictness,
    threshold,
    statusMessage: SUPPLIER_RESPONDED,
    checkedAt: base.checkedAt,
    correlationId: base.correlationId,
    ...(base.sessionId !== undefined ? { sessionId: base.sessionId } : {}),
  };
  const parts = [
    scores.firstNameScore !== undefined ? `first ${scores.firstNameScore}` : '',
    scores.lastNameScore !== undefined ? `last ${scores.lastNameScore}` : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
  const comparison = outcome === 'MATCH' ? '>=' : '<';
  return ok(response, `${magicNote}name score ${scores.nameScore} (${parts}) ${comparison} threshold ${threshold} (${strictness}) -> ${outcome}`);
}

function ok(response: PhoneOwnershipResponse, explanation: string): PhoneCheckResult<PhoneOwnershipResponse> {
  return { status: 'ok', response, explanation: asciiExplanation(explanation), billable: true };
}

function subscriberForCheck(
  e164: string,
  effect: PhoneOwnershipMagicEffect | undefined,
  sent: { firstName: string | undefined; lastName: string | undefined; address: string | undefined; dateOfBirth: string | undefined },
): CarrierSubscriber {
  const synthetic = subscriberFor(e164);
  if (effect?.kind !== 'subscriber-is-caller') return synthetic;
  return {
    firstName: sent.firstName ?? synthetic.firstName,
    lastName: sent.lastName ?? synthetic.lastName,
    address: sent.address ?? synthetic.address,
    dateOfBirth: sent.dateOfBirth ?? synthetic.dateOfBirth,
  };
}

interface NameScores {
  nameScore: number;
  firstNameScore?: number;
  lastNameScore?: number;
}

function nameScores(
  firstName: string | undefined,
  lastName: string | undefined,
  subscriber: CarrierSubscriber,
  effect: PhoneOwnershipMagicEffect | undefined,
): NameScores {
  if (effect?.kind === 'forced-name-score') {
    const forced = effect.nameScore;
    return {
      nameScore: forced,
      ...(firstName !== undefined ? { firstNameScore: forced } : {}),
      ...(lastName !== undefined ? { lastNameScore: forced } : {}),
    };
  }
  const first = firstName !== undefined ? editSimilarity(firstName, subscriber.firstName) : undefined;
  const last = lastName !== undefined ? editSimilarity(lastName, subscriber.lastName) : undefined;
  const given = [first, last].filter((value): value is number => value !== undefined);
  const mean = given.reduce((sum, value) => sum + value, 0) / given.length;
  return {
    nameScore: percent(mean),
    ...(first !== undefined ? { firstNameScore: percent(first) } : {}),
    ...(last !== undefined ? { lastNameScore: percent(last) } : {}),
  };
}
