/**
 * The simulated mobile carrier behind the phone checks. For a covered number it holds a subscriber
 * (a synthetic UK person derived from the number alone, so the same number always belongs to the same
 * person) and two signals: when the SIM last changed and whether unconditional call forwarding is on.
 * Magic numbers (magic-values.ts) override this; everything else is derived here.
 *
 * Shares for non-magic UK mobiles, from a hash of the number:
 * - subscriber: 90% have a date of birth on file (4% of all are minors, born 2009-2012), 85% an
 *   address;
 * - SIM: 4% NO_DATA, 3% changed in the last 72 h, 8% within 30 days, the rest 31 days to 5 years ago;
 * - forwarding: 2% NO_DATA, 3% active, the rest none.
 *
 * LIMITATIONS:
 * - The SIM change date is held as an offset before the check time, so the same number reports the
 *   same risk whenever it is checked (a real SIM change would age out of the 72 h window).
 * - One carrier, one subscriber per number; no porting history, no business accounts.
 */
import { fakerFrom, rngFrom } from '../platform/random/random.ts';
import type { ForwardingRisk, SimSwapRisk } from './phone-trust.schemas.ts';

export interface CarrierSubscriber {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD, or null when the carrier holds none. */
  dateOfBirth: string | null;
  /** One line, or null when the carrier holds none. */
  address: string | null;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function subscriberFor(e164: string): CarrierSubscriber {
  const faker = fakerFrom('en_GB', 'carrier-subscriber', e164);
  const rng = rngFrom('carrier-subscriber-record', e164);
  const firstName = faker.person.firstName();
  const lastName = faker.person.lastName();
  const address = `${faker.location.buildingNumber()} ${faker.location.street()}, ${faker.location.city()}, ${faker.location.zipCode()}`;
  const hasDateOfBirth = rng.chance(0.9);
  const minor = rng.chance(0.04);
  const year = minor ? rng.int(2009, 2012) : rng.int(1940, 2005);
  const month = rng.int(1, 12);
  const day = rng.int(1, 28);
  const hasAddress = rng.chance(0.85);
  return {
    firstName,
    lastName,
    dateOfBirth: hasDateOfBirth ? `${year}-${pad(month)}-${pad(day)}` : null,
    address: hasAddress ? address : null,
  };
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Spec: HIGH_RISK = changed in the last 72 hours, MEDIUM_RISK = in the last 30 days. */
export const SIM_SWAP_HIGH_RISK_WINDOW_MS = 72 * HOUR_MS;
export const SIM_SWAP_MEDIUM_RISK_WINDOW_MS = 30 * DAY_MS;

/** The risk band of a SIM change at `changedAtMs` seen from `nowMs` (window ends inclusive). */
export function simSwapRiskFor(changedAtMs: number, nowMs: number): Exclude<SimSwapRisk, 'NO_DATA'> {
  const age = nowMs - changedAtMs;
  if (age <= SIM_SWAP_HIGH_RISK_WINDOW_MS) return 'HIGH_RISK';
  if (age <= SIM_SWAP_MEDIUM_RISK_WINDOW_MS) return 'MEDIUM_RISK';
  return 'LOW_RISK';
}

export interface CarrierSignals {
  simSwappedRisk: SimSwapRisk;
  /** Epoch ms of the last SIM change; absent when the SIM signal is NO_DATA. */
  simChangedAtMs?: number;
  forwardingRisk: ForwardingRisk;
}

export function signalsFor(e164: string, nowMs: number): CarrierSignals {
  const rng = rngFrom('carrier-signals', e164);
  const simDraw = rng.next();
  const forwardingDraw = rng.next();
  const minutes = (min: number, max: number) => rng.int(min, max) * 60_000;
  let simChangedAtMs: number | undefined;
  if (simDraw < 0.04) simChangedAtMs = undefined;
  else if (simDraw < 0.07) simChangedAtMs = nowMs - minutes(60, 71 * 60);
  else if (simDraw < 0.15) simChangedAtMs = nowMs - minutes(73 * 60, 29 * 24 * 60);
  else simChangedAtMs = nowMs - minutes(31 * 24 * 60, 5 * 365 * 24 * 60);
  const forwardingRisk: ForwardingRisk = forwardingDraw < 0.02 ? 'NO_DATA' : forwardingDraw < 0.05 ? 'HIGH_RISK' : 'NO_RISK';
  return simChangedAtMs === undefined
    ? { simSwappedRisk: 'NO_DATA', forwardingRisk }
    : { simSwappedRisk: simSwapRiskFor(simChangedAtMs, nowMs), simChangedAtMs, forwardingRisk };
}
