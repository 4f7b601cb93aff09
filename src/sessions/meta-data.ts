/**
 * Builders for a session's `meta_data`: what the hosted page records about the applicant's submission
 * (IP, device, browser, view time, GeoIP-style location), the AI auto-decline record (`declinedData`) and
 * the failed-attempts record (`failureData`). All values are derived from seed parts, never from
 * Math.random, so the same session always gets the same metadata.
 *
 * LIMITATIONS:
 * - Applicants are placed in a small table of US cities (so an ID's issuing state and the title search's
 *   US property agree with where they submitted from); IPs come from the documentation ranges
 *   (RFC 5737), never from real networks.
 * - The member names are the observed ones; their exact formats (device and browser strings, whether
 *   applicantViewTime is an instant) are not shown in the spec and are chosen to be readable.
 */
import { rngFrom } from '../platform/random/random.ts';
import {
  OBSERVED_FAILURE_REASONS,
  type ApplicantSubmission,
  type DeclinedData,
  type FailedAttempt,
  type FailureData,
  type FailureReason,
  type FailureSlot,
  type LocationDetails,
} from './sessions.schemas.ts';

/** Where applicants submit from: coherent city, state, coordinates and time zone. */
export interface ApplicantPlace {
  city: string;
  county: string;
  subdivision: string;
  stateCode: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  zipPrefix: string;
}

export const APPLICANT_PLACES: readonly ApplicantPlace[] = [
  {
    city: 'New York',
    county: 'New York County',
    subdivision: 'New York',
    stateCode: 'NY',
    latitude: 40.7128,
    longitude: -74.006,
    timeZone: 'America/New_York',
    zipPrefix: '100',
  },
  {
    city: 'Austin',
    county: 'Travis County',
    subdivision: 'Texas',
    stateCode: 'TX',
    latitude: 30.2672,
    longitude: -97.7431,
    timeZone: 'America/Chicago',
    zipPrefix: '787',
  },
  {
    city: 'San Francisco',
    county: 'San Francisco County',
    subdivision: 'California',
    stateCode: 'CA',
    latitude: 37.7749,
    longitude: -122.4194,
    timeZone: 'America/Los_Angeles',
    zipPrefix: '941',
  },
  {
    city: 'Chicago',
    county: 'Cook County',
    subdivision: 'Illinois',
    stateCode: 'IL',
    latitude: 41.8781,
    longitude: -87.6298,
    timeZone: 'America/Chicago',
    zipPrefix: '606',
  },
  {
    city: 'Seattle',
    county: 'King County',
    subdivision: 'Washington',
    stateCode: 'WA',
    latitude: 47.6062,
    longitude: -122.3321,
    timeZone: 'America/Los_Angeles',
    zipPrefix: '981',
  },
  {
    city: 'Denver',
    county: 'Denver County',
    subdivision: 'Colorado',
    stateCode: 'CO',
    latitude: 39.7392,
    longitude: -104.9903,
    timeZone: 'America/Denver',
    zipPrefix: '802',
  },
  {
    city: 'Miami',
    county: 'Miami-Dade County',
    subdivision: 'Florida',
    stateCode: 'FL',
    latitude: 25.7617,
    longitude: -80.1918,
    timeZone: 'America/New_York',
    zipPrefix: '331',
  },
  {
    city: 'Boston',
    county: 'Suffolk County',
    subdivision: 'Massachusetts',
    stateCode: 'MA',
    latitude: 42.3601,
    longitude: -71.0589,
    timeZone: 'America/New_York',
    zipPrefix: '021',
  },
];

export const APPLICANT_COUNTRY = 'United States';

/** The place an applicant (identified by seed parts) submits from; analysis data uses the same one. */
export function applicantPlaceFor(seedParts: readonly (string | number)[]): ApplicantPlace {
  return rngFrom('applicant-place', ...seedParts).pick(APPLICANT_PLACES);
}

const DEVICES = [
  { device: 'Desktop (macOS 14.6)', browser: 'Chrome 131.0.0.0' },
  { device: 'Desktop (Windows 11)', browser: 'Edge 131.0.2903.86' },
  { device: 'iPhone (iOS 18.1)', browser: 'Mobile Safari 18.1' },
  { device: 'Android (Pixel 8, Android 15)', browser: 'Chrome Mobile 131.0.6778.81' },
  { device: 'Desktop (Ubuntu 24.04)', browser: 'Firefox 133.0' },
] as const;

const DOC_RANGES = ['192.0.2', '198.51.100', '203.0.113'] as const;

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** The events that bound a submission's derived times: the session's creation and the submission. */
export interface SubmissionTimes {
  createdAtIso: string;
  submittedAtIso: string;
  /** When the applicant really opened the hosted page, if they did: the view time then is that instant. */
  viewedAtIso?: string;
}

/**
 * The applicant* members of meta_data for a submission. applicantViewTime is when the hosted page was
 * opened; without an opening (a control-plane outcome) it is derived: a few minutes before the submission,
 * but never before the session existed. Either way it lies between the two.
 */
export function buildApplicantSubmission(seedParts: readonly (string | number)[], times: SubmissionTimes): ApplicantSubmission {
  const rng = rngFrom('applicant-submission', ...seedParts);
  const place = applicantPlaceFor(seedParts);
  const { device, browser } = rng.pick(DEVICES);
  const derivedViewMs = Date.parse(times.submittedAtIso) - rng.int(120, 900) * 1000;
  const openedMs = times.viewedAtIso === undefined ? derivedViewMs : Date.parse(times.viewedAtIso);
  const viewMs = Math.min(Date.parse(times.submittedAtIso), Math.max(Date.parse(times.createdAtIso), openedMs));
  const details: LocationDetails = {
    accuracyRadius: rng.pick([5, 10, 20, 50, 100]),
    continent: 'North America',
    country: APPLICANT_COUNTRY,
    countryIsoCode: 'US',
    latitude: round(place.latitude + rng.float(-0.05, 0.05), 4),
    longitude: round(place.longitude + rng.float(-0.05, 0.05), 4),
    subdivision: place.subdivision,
    timeZone: place.timeZone,
  };
  return {
    applicantSubmissionIp: `${rng.pick(DOC_RANGES)}.${rng.int(1, 254)}`,
    applicantSubmissionDevice: device,
    applicantViewTime: new Date(viewMs).toISOString(),
    applicantSubmissionBrowser: browser,
    applicantSubmissionLocation: `${place.city}, ${place.subdivision}, ${APPLICANT_COUNTRY}`,
    applicantSubmissionLocationDetails: details,
  };
}

/** The face-match threshold below which the AI declines (the face compare operation's default, 80). */
export const FACE_MATCH_THRESHOLD = 80;

export interface DeclineInput {
  /** The decisive score, e.g. the face match confidence 42.3. */
  score: number;
  declinedAtIso: string;
  code?: string;
  slot?: string;
  severity?: string;
  detail?: string;
}

/** meta_data.declinedData for an AI auto-decline (observed: LOW_FACE_MATCH, PRIMARY, CRITICAL). */
export function buildDeclinedData(input: DeclineInput): DeclinedData {
  const code = input.code ?? 'LOW_FACE_MATCH';
  return {
    declined: true,
    score: input.score,
    declinedAt: input.declinedAtIso,
    reason: {
      code,
      detail:
        input.detail ??
        (code === 'LOW_FACE_MATCH'
          ? `Face match confidence ${input.score} is below the required ${FACE_MATCH_THRESHOLD}: the selfie does not match the photo on the primary ID`
          : `Automatic decline: ${code}`),
      slot: input.slot ?? 'PRIMARY',
      severity: input.severity ?? 'CRITICAL',
    },
  };
}

export interface FailureInput {
  /** How many failed attempts (the workflow's limit when the session failed). */
  count: number;
  /** When the last attempt failed; earlier ones are spaced one to four minutes apart before it. */
  lastFailedAtIso: string;
  /** When the session was created: no attempt failed before it. */
  createdAtIso: string;
  /** Force the reasons (cycled); by default they are drawn from the seed. */
  reasons?: readonly FailureReason[];
  slots?: readonly FailureSlot[];
}

/** meta_data.failureData with `count` attempts in chronological order. */
export function buildFailureData(input: FailureInput, seedParts: readonly (string | number)[]): FailureData {
  const rng = rngFrom('failure-data', ...seedParts);
  const gaps = Array.from({ length: input.count }, () => rng.int(60, 240) * 1000);
  let at = Date.parse(input.lastFailedAtIso);
  const createdMs = Date.parse(input.createdAtIso);
  const times: number[] = [];
  for (let i = input.count - 1; i >= 0; i--) {
    times[i] = Math.max(createdMs, at);
    at -= gaps[i] ?? 0;
  }
  const attempts: FailedAttempt[] = times.map((ms, i) => ({
    reason: input.reasons?.[i % input.reasons.length] ?? rng.pick(OBSERVED_FAILURE_REASONS),
    slot: input.slots?.[i % input.slots.length] ?? (rng.chance(0.75) ? 'PRIMARY' : 'SECONDARY'),
    failedAt: new Date(ms).toISOString(),
  }));
  return { failedAttempts: attempts.length, attempts };
}
