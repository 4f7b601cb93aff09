/**
 * Phone trust: a passive carrier check for a recent SIM swap and active unconditional call
 * forwarding. Nothing is sent to the phone and nothing is blocked; the check only says whether the
 * signals trip at the chosen sensitivity.
 *
 * Trip rules (spec, exactly; `tripDecision`):
 * - low: trips on a SIM swap in the last 72 hours (HIGH_RISK) only;
 * - medium and high: trip on a SIM swap within 72 hours or 30 days (HIGH_RISK, MEDIUM_RISK), or on
 *   active unconditional call forwarding (HIGH_RISK);
 * - a NO_DATA signal never trips.
 * tripReasons lists every signal that tripped, SIM first. medium and high are the same rule set,
 * as the spec gives them.
 *
 * LIMITATIONS:
 * - simChangedDate is reported whenever the SIM signal has data (LOW_RISK included).
 * - Signals of non-magic numbers are derived from the number (phone-carrier.ts), relative to the
 *   check time.
 */
import { uuidFrom } from '../platform/random/random.ts';
import { asciiExplanation } from './explain.ts';
import { PHONE_TRUST_MAGIC_NUMBERS } from './magic-values.ts';
import { carrierCoverage } from './phone-numbers.ts';
import { HOUR_MS, signalsFor, type CarrierSignals } from './phone-carrier.ts';
import { carrierUnavailable, findByPhone, isoFromMs, parsePhoneInput, SUPPLIER_RESPONDED, type PhoneCheckResult } from './phone-check-result.ts';
import type { ForwardingRisk, PhoneTrustResponse, Sensitivity, SimSwapRisk, TripReason } from './phone-trust.schemas.ts';

export interface TripDecision {
  tripped: boolean;
  tripReasons: TripReason[];
}

export function tripDecision(sensitivity: Sensitivity, simSwappedRisk: SimSwapRisk, forwardingRisk: ForwardingRisk): TripDecision {
  const tripReasons: TripReason[] = [];
  if (simSwappedRisk === 'HIGH_RISK') tripReasons.push('SIM_SWAP_HIGH_RISK');
  if (sensitivity !== 'low') {
    if (simSwappedRisk === 'MEDIUM_RISK') tripReasons.push('SIM_SWAP_MEDIUM_RISK');
    if (forwardingRisk === 'HIGH_RISK') tripReasons.push('CALL_FORWARDING_ACTIVE');
  }
  return { tripped: tripReasons.length > 0, tripReasons };
}

export interface PhoneTrustInput {
  phone: string | undefined;
  sensitivity?: Sensitivity | undefined;
  sessionId?: string | undefined;
}

export function checkPhoneTrust(input: PhoneTrustInput, nowMs: number): PhoneCheckResult<PhoneTrustResponse> {
  const parsed = parsePhoneInput(input.phone);
  if (!parsed.ok) return parsed.failure;
  const { e164 } = parsed.phone;
  const sensitivity = input.sensitivity ?? 'medium';
  const magic = findByPhone(PHONE_TRUST_MAGIC_NUMBERS, e164);
  const magicNote = magic ? `magic value: phone ${e164} -> ${magic.description.replace(/\.$/, '')}; ` : '';
  if (magic?.effect.kind === 'carrier-outage') {
    return carrierUnavailable(asciiExplanation(`magic value: phone ${e164} -> carrier provider unavailable (503, not billed)`));
  }

  const coverage = carrierCoverage(parsed.phone);
  let signals: CarrierSignals;
  let noDataReason: string | undefined;
  if (magic?.effect.kind === 'no-data' || !coverage.covered) {
    noDataReason = coverage.covered ? 'the carrier holds no servable data for this number' : coverage.reason;
    signals = { simSwappedRisk: 'NO_DATA', forwardingRisk: 'NO_DATA' };
  } else if (magic?.effect.kind === 'signals') {
    signals = {
      simSwappedRisk: magic.effect.simSwappedRisk,
      simChangedAtMs: nowMs - magic.effect.simChangedHoursAgo * HOUR_MS,
      forwardingRisk: magic.effect.forwardingRisk,
    };
  } else {
    signals = signalsFor(e164, nowMs);
  }

  const decision = tripDecision(sensitivity, signals.simSwappedRisk, signals.forwardingRisk);
  const response: PhoneTrustResponse = {
    tripped: decision.tripped,
    tripReasons: decision.tripReasons,
    simSwappedRisk: signals.simSwappedRisk,
    ...(signals.simChangedAtMs !== undefined ? { simChangedDate: isoFromMs(signals.simChangedAtMs) } : {}),
    forwardingRisk: signals.forwardingRisk,
    sensitivity,
    statusMessage: noDataReason === undefined ? SUPPLIER_RESPONDED : `No data: ${noDataReason}`,
    checkedAt: isoFromMs(nowMs),
    correlationId: uuidFrom('phone-trust', e164, sensitivity, nowMs),
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
  };
  const verdict = decision.tripped ? `tripped at ${sensitivity}: ${decision.tripReasons.join(', ')}` : `not tripped at ${sensitivity}`;
  const why = noDataReason ?? `SIM ${signals.simSwappedRisk}, forwarding ${signals.forwardingRisk}`;
  return { status: 'ok', response, explanation: asciiExplanation(`${magicNote}phone ${e164}: ${why} -> ${verdict}`), billable: true };
}
