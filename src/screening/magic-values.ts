/**
 * Magic values of the screening endpoints: documented inputs that force an outcome, like a payment
 * sandbox's test card numbers. These tables are the single source: the services look inputs up here,
 * the watchlist generator writes the listed persons from here, and the catalog / docs/reference.md rows come from
 * `SCREENING_MAGIC_VALUES` (each row { endpoint, input, outcome, description }).
 *
 * Phone numbers are in Ofcom's drama range +44 7700 900000-900999, reserved for fiction, so no real
 * subscriber can ever be hit by a test.
 */
import type { CatalogTrigger } from '../platform/catalog/catalog.ts';
import type { RiskLevel } from './adverse-media.schemas.ts';
import type { ForwardingRisk, SimSwapRisk } from './phone-trust.schemas.ts';
import type { TitleCheckStatus } from './title-check.schemas.ts';

export interface MagicValue {
  endpoint: string;
  input: string;
  outcome: string;
  description: string;
  trigger?: CatalogTrigger;
}

export const SCREENING_ENDPOINTS = {
  adverseMedia: 'POST /v1/screening/adverse-media',
  pepSanctions: 'POST /v1/screening/pep-sanctions',
  phoneOwnership: 'POST /v1/screening/phone-ownership',
  phoneTrust: 'POST /v1/screening/phone-trust',
  carrierAgeGate: 'POST /v1/screening/carrier-age-gate',
  titleCheck: 'POST /v1/screening/title-check',
} as const;

// ---------------------------------------------------------------------------------------------
// Adverse media: magic names (first + last name, compared after normalization; any date of birth)
// ---------------------------------------------------------------------------------------------

export type AdverseMediaMagicEffect = { kind: 'risk-level'; riskLevel: RiskLevel } | { kind: 'job-failed'; error: string };

export interface AdverseMediaMagicName extends MagicValue {
  firstName: string;
  lastName: string;
  effect: AdverseMediaMagicEffect;
}

function adverseMediaName(firstName: string, lastName: string, effect: AdverseMediaMagicEffect, outcome: string, description: string): AdverseMediaMagicName {
  return {
    endpoint: SCREENING_ENDPOINTS.adverseMedia,
    input: `firstName ${firstName}, lastName ${lastName} (any dateOfBirth)`,
    outcome,
    description,
    firstName,
    lastName,
    effect,
  };
}

export const ADVERSE_MEDIA_MAGIC_NAMES: readonly AdverseMediaMagicName[] = [
  adverseMediaName(
    'Clara',
    'Clean',
    { kind: 'risk-level', riskLevel: 'LOW' },
    'job ready: riskLevel LOW, 0 findings',
    'A guaranteed clean person (most other names are clean too, but not all).',
  ),
  adverseMediaName(
    'Morgan',
    'Medium',
    { kind: 'risk-level', riskLevel: 'MEDIUM' },
    'job ready: riskLevel MEDIUM, MEDIUM-severity findings',
    'Regulatory, reputational or court-record findings of medium severity.',
  ),
  adverseMediaName(
    'Harper',
    'High',
    { kind: 'risk-level', riskLevel: 'HIGH' },
    'job ready: riskLevel HIGH, at least one HIGH finding',
    'Financial or criminal findings; the highest severity is HIGH.',
  ),
  adverseMediaName(
    'Cyrus',
    'Critical',
    { kind: 'risk-level', riskLevel: 'CRITICAL' },
    'job ready: riskLevel CRITICAL, at least one CRITICAL finding',
    'Terrorism, organised or financial crime at critical severity.',
  ),
  adverseMediaName(
    'Fay',
    'Failure',
    { kind: 'job-failed', error: 'upstream timeout' },
    "job failed: error 'upstream timeout'",
    'The job ends in status failed; the real client throws AdverseMediaFailedError.',
  ),
];

// ---------------------------------------------------------------------------------------------
// PEP and sanctions: persons written into fixtures/watchlists.json, and the queries that hit them
// ---------------------------------------------------------------------------------------------

export const WATCHLIST_DATASET_IDS = {
  pepGlobal: 'sandbox-pep-global',
  pepRelatives: 'sandbox-pep-relatives-associates',
  ofacLike: 'sandbox-ofac-like-sdn',
  eu: 'sandbox-eu-consolidated',
  un: 'sandbox-un-security-council',
  ukHmt: 'sandbox-uk-hmt',
} as const;

export interface ListedPerson {
  key: 'peps-only' | 'sanctions-only' | 'both';
  country: string;
  remarks: string;
  /** One entry per list, spelled as that list spells it. */
  listings: { dataset: string; name: string; dateOfBirth: string | null; aliases: string[] }[];
}

export const PEP_SANCTIONS_LISTED_PERSONS: readonly ListedPerson[] = [
  {
    key: 'peps-only',
    country: 'GB',
    remarks: 'Minister of State for Coastal Affairs (fictional)',
    listings: [{ dataset: WATCHLIST_DATASET_IDS.pepGlobal, name: 'Ottoline BRACKENBURY', dateOfBirth: '1961-07-14', aliases: [] }],
  },
  {
    key: 'sanctions-only',
    country: 'BG',
    remarks: 'SANDBOX-ARMS programme: procurement agent (fictional)',
    listings: [
      { dataset: WATCHLIST_DATASET_IDS.ofacLike, name: 'Radomir KESTRELOV', dateOfBirth: '1966-09-30', aliases: ['Radomir KESTRELOFF'] },
      { dataset: WATCHLIST_DATASET_IDS.eu, name: 'Radomir KESTRELOV', dateOfBirth: '1966-09-30', aliases: [] },
      { dataset: WATCHLIST_DATASET_IDS.ukHmt, name: 'Radomir KESTRELOV', dateOfBirth: null, aliases: [] },
    ],
  },
  {
    key: 'both',
    country: 'FR',
    remarks: 'Former deputy minister; SANDBOX-CORRUPTION designation (fictional)',
    listings: [
      { dataset: WATCHLIST_DATASET_IDS.pepGlobal, name: 'Émile VAUTRIN-LACOSTE', dateOfBirth: '1955-11-23', aliases: [] },
      { dataset: WATCHLIST_DATASET_IDS.eu, name: 'Émile VAUTRIN-LACOSTE', dateOfBirth: '1955-11-23', aliases: [] },
      { dataset: WATCHLIST_DATASET_IDS.un, name: 'Emile VAUTRIN-LACOSTE', dateOfBirth: null, aliases: ['Emile LACOSTE'] },
    ],
  },
];

export interface PepSanctionsMagicName extends MagicValue {
  query: { firstName: string; lastName: string; dateOfBirth: string };
  expected: { peps: number; sanctions: number; both: number; confidence?: number };
}

function pepQuery(
  firstName: string,
  lastName: string,
  dateOfBirth: string,
  expected: PepSanctionsMagicName['expected'],
  outcome: string,
  description: string,
): PepSanctionsMagicName {
  return {
    endpoint: SCREENING_ENDPOINTS.pepSanctions,
    input: `firstName ${firstName}, lastName ${lastName}, dateOfBirth ${dateOfBirth}`,
    outcome,
    description,
    query: { firstName, lastName, dateOfBirth },
    expected,
  };
}

export const PEP_SANCTIONS_MAGIC_NAMES: readonly PepSanctionsMagicName[] = [
  pepQuery(
    'Ottoline',
    'Brackenbury',
    '1961-07-14',
    { peps: 1, sanctions: 0, both: 0, confidence: 1 },
    'peps: 1 match, confidence 1',
    'On sandbox-pep-global only; name and date of birth agree.',
  ),
  pepQuery(
    'Radomir',
    'Kestrelov',
    '1966-09-30',
    { peps: 0, sanctions: 1, both: 0, confidence: 1 },
    'sanctions: 1 match on 3 lists, confidence 1',
    'On the OFAC-like, EU and UK lists; the three entries merge into one match (de-duplicated by name).',
  ),
  pepQuery(
    'Emile',
    'Vautrin-Lacoste',
    '1955-11-23',
    { peps: 0, sanctions: 0, both: 1, confidence: 1 },
    'both: 1 match (PEP and sanctions lists), confidence 1',
    "Listed as 'Émile VAUTRIN-LACOSTE': matching ignores diacritics, case and punctuation.",
  ),
  pepQuery(
    'Dorothea',
    'Brackenbury',
    '1961-07-14',
    { peps: 0, sanctions: 0, both: 0 },
    'no matches (near-miss below threshold)',
    'Same surname and date of birth as a listed PEP but a different given name: name similarity stays under the 0.80 gate.',
  ),
  pepQuery(
    'Radomir',
    'Kestrelova',
    '1970-01-01',
    { peps: 0, sanctions: 1, both: 0, confidence: 0.91 },
    'sanctions: 1 weak match on 1 list, confidence 0.91',
    'A one-letter variant of a listed name with another date of birth: the two lists that carry a date rule it out; the UK list, which has none, still matches.',
  ),
  pepQuery(
    'Jane',
    'Doe',
    '1990-01-01',
    { peps: 0, sanctions: 0, both: 0 },
    'no matches',
    'Common test names (Jane Doe, John Doe, John Smith, ...) are kept off the generated lists.',
  ),
];

/** Names the watchlist generator must never list, so that typical test people stay clean. */
export const RESERVED_CLEAN_NAMES: readonly string[] = [
  'Jane Doe',
  'John Doe',
  'John Smith',
  'Jane Smith',
  'Test User',
  'Max Mustermann',
  'Erika Mustermann',
  'Jean Dupont',
  'Mario Rossi',
  'Juan Perez',
  'Dorothea Brackenbury',
  ...ADVERSE_MEDIA_MAGIC_NAMES.map((row) => `${row.firstName} ${row.lastName}`),
];

// ---------------------------------------------------------------------------------------------
// Phone checks: UK numbers in the Ofcom drama range
// ---------------------------------------------------------------------------------------------

export const MAGIC_PHONES = {
  happyPath: '+447700900001',
  noMatch: '+447700900002',
  simSwap72h: '+447700900003',
  simSwap30d: '+447700900004',
  callForwarding: '+447700900005',
  simSwapAndForwarding: '+447700900006',
  clean: '+447700900007',
  noData: '+447700900008',
  carrierOutage: '+447700900009',
  under18: '+447700900010',
  turns18Tomorrow: '+447700900017',
  turns18Today: '+447700900018',
  nameScore49: '+447700900149',
  nameScore50: '+447700900150',
  nameScore69: '+447700900169',
  nameScore70: '+447700900170',
  nameScore89: '+447700900189',
  nameScore90: '+447700900190',
} as const;

const NO_DATA_DESCRIPTION = 'A UK mobile whose carrier holds no servable data.';
const OUTAGE_DESCRIPTION = 'The carrier data provider is down: the route answers 503 and bills nothing.';

export type PhoneOwnershipMagicEffect =
  | { kind: 'subscriber-is-caller' }
  | { kind: 'forced-name-score'; nameScore: number }
  | { kind: 'no-data' }
  | { kind: 'carrier-outage' };

export interface PhoneOwnershipMagicNumber extends MagicValue {
  phone: string;
  effect: PhoneOwnershipMagicEffect;
}

function ownershipNumber(phone: string, effect: PhoneOwnershipMagicEffect, outcome: string, description: string): PhoneOwnershipMagicNumber {
  return { endpoint: SCREENING_ENDPOINTS.phoneOwnership, input: `phone ${phone}`, outcome, description, phone, effect };
}

function scoreDial(phone: string, nameScore: number, strictness: string, outcome: 'MATCH' | 'NO_MATCH'): PhoneOwnershipMagicNumber {
  return ownershipNumber(
    phone,
    { kind: 'forced-name-score', nameScore },
    `nameScore ${nameScore}: ${outcome} at ${strictness}`,
    `Threshold edge: the name scores exactly ${nameScore} whatever name is sent.`,
  );
}

export const PHONE_OWNERSHIP_MAGIC_NUMBERS: readonly PhoneOwnershipMagicNumber[] = [
  ownershipNumber(
    MAGIC_PHONES.happyPath,
    { kind: 'subscriber-is-caller' },
    'MATCH, every score 100',
    'The subscriber record mirrors the name, address and date of birth sent.',
  ),
  ownershipNumber(
    MAGIC_PHONES.noMatch,
    { kind: 'forced-name-score', nameScore: 0 },
    'NO_MATCH, nameScore 0',
    'The carrier holds a subscriber whose name shares nothing with the one sent.',
  ),
  ownershipNumber(MAGIC_PHONES.noData, { kind: 'no-data' }, 'NO_DATA, nameScore -1', NO_DATA_DESCRIPTION),
  ownershipNumber(MAGIC_PHONES.carrierOutage, { kind: 'carrier-outage' }, '503 carrier unavailable', OUTAGE_DESCRIPTION),
  scoreDial(MAGIC_PHONES.nameScore49, 49, 'relaxed (threshold 50)', 'NO_MATCH'),
  scoreDial(MAGIC_PHONES.nameScore50, 50, 'relaxed (threshold 50)', 'MATCH'),
  scoreDial(MAGIC_PHONES.nameScore69, 69, 'medium (threshold 70)', 'NO_MATCH'),
  scoreDial(MAGIC_PHONES.nameScore70, 70, 'medium (threshold 70)', 'MATCH'),
  scoreDial(MAGIC_PHONES.nameScore89, 89, 'strict (threshold 90)', 'NO_MATCH'),
  scoreDial(MAGIC_PHONES.nameScore90, 90, 'strict (threshold 90)', 'MATCH'),
];

export type PhoneTrustMagicEffect =
  | { kind: 'signals'; simSwappedRisk: Exclude<SimSwapRisk, 'NO_DATA'>; simChangedHoursAgo: number; forwardingRisk: Exclude<ForwardingRisk, 'NO_DATA'> }
  | { kind: 'no-data' }
  | { kind: 'carrier-outage' };

export interface PhoneTrustMagicNumber extends MagicValue {
  phone: string;
  effect: PhoneTrustMagicEffect;
}

function trustNumber(phone: string, effect: PhoneTrustMagicEffect, outcome: string, description: string): PhoneTrustMagicNumber {
  return { endpoint: SCREENING_ENDPOINTS.phoneTrust, input: `phone ${phone}`, outcome, description, phone, effect };
}

const LONG_AGO_HOURS = 400 * 24;

export const PHONE_TRUST_MAGIC_NUMBERS: readonly PhoneTrustMagicNumber[] = [
  trustNumber(
    MAGIC_PHONES.happyPath,
    { kind: 'signals', simSwappedRisk: 'LOW_RISK', simChangedHoursAgo: LONG_AGO_HOURS, forwardingRisk: 'NO_RISK' },
    'not tripped at any sensitivity',
    'The happy-path number: SIM unchanged for 400 days, no forwarding.',
  ),
  trustNumber(
    MAGIC_PHONES.simSwap72h,
    { kind: 'signals', simSwappedRisk: 'HIGH_RISK', simChangedHoursAgo: 26, forwardingRisk: 'NO_RISK' },
    'tripped at low, medium and high: SIM_SWAP_HIGH_RISK',
    'SIM swap within 72 h (26 h before the check).',
  ),
  trustNumber(
    MAGIC_PHONES.simSwap30d,
    { kind: 'signals', simSwappedRisk: 'MEDIUM_RISK', simChangedHoursAgo: 12 * 24, forwardingRisk: 'NO_RISK' },
    'tripped at medium and high: SIM_SWAP_MEDIUM_RISK; not at low',
    'SIM swap within 30 days (12 days before the check).',
  ),
  trustNumber(
    MAGIC_PHONES.callForwarding,
    { kind: 'signals', simSwappedRisk: 'LOW_RISK', simChangedHoursAgo: LONG_AGO_HOURS, forwardingRisk: 'HIGH_RISK' },
    'tripped at medium and high: CALL_FORWARDING_ACTIVE; not at low',
    'Unconditional call forwarding is active.',
  ),
  trustNumber(
    MAGIC_PHONES.simSwapAndForwarding,
    { kind: 'signals', simSwappedRisk: 'HIGH_RISK', simChangedHoursAgo: 5, forwardingRisk: 'HIGH_RISK' },
    'tripped: SIM_SWAP_HIGH_RISK at low; SIM_SWAP_HIGH_RISK and CALL_FORWARDING_ACTIVE at medium and high',
    'SIM swapped 5 h ago and calls forwarded: the account-takeover pattern.',
  ),
  trustNumber(
    MAGIC_PHONES.clean,
    { kind: 'signals', simSwappedRisk: 'LOW_RISK', simChangedHoursAgo: LONG_AGO_HOURS, forwardingRisk: 'NO_RISK' },
    'not tripped: LOW_RISK, NO_RISK',
    'Clean: SIM unchanged for 400 days, no forwarding.',
  ),
  trustNumber(MAGIC_PHONES.noData, { kind: 'no-data' }, 'not tripped: simSwappedRisk NO_DATA, forwardingRisk NO_DATA', NO_DATA_DESCRIPTION),
  trustNumber(MAGIC_PHONES.carrierOutage, { kind: 'carrier-outage' }, '503 carrier unavailable', OUTAGE_DESCRIPTION),
];

export type CarrierAgeGateMagicEffect =
  | { kind: 'subscriber-born'; yearsBeforeCheck: number; daysAfter: number }
  | { kind: 'no-data' }
  | { kind: 'carrier-outage' };

export interface CarrierAgeGateMagicNumber extends MagicValue {
  phone: string;
  effect: CarrierAgeGateMagicEffect;
}

function ageGateNumber(phone: string, effect: CarrierAgeGateMagicEffect, outcome: string, description: string): CarrierAgeGateMagicNumber {
  return { endpoint: SCREENING_ENDPOINTS.carrierAgeGate, input: `phone ${phone}`, outcome, description, phone, effect };
}

export const CARRIER_AGE_GATE_MAGIC_NUMBERS: readonly CarrierAgeGateMagicNumber[] = [
  ageGateNumber(
    MAGIC_PHONES.happyPath,
    { kind: 'subscriber-born', yearsBeforeCheck: 35, daysAfter: 0 },
    'PASS, VERIFIED',
    'The happy-path number: the subscriber is 35.',
  ),
  ageGateNumber(MAGIC_PHONES.under18, { kind: 'subscriber-born', yearsBeforeCheck: 16, daysAfter: 0 }, 'FAIL, NOT_VERIFIED', 'The subscriber is 16.'),
  ageGateNumber(
    MAGIC_PHONES.turns18Today,
    { kind: 'subscriber-born', yearsBeforeCheck: 18, daysAfter: 0 },
    'PASS, VERIFIED',
    'Age edge: the subscriber turns 18 on the day of the check.',
  ),
  ageGateNumber(
    MAGIC_PHONES.turns18Tomorrow,
    { kind: 'subscriber-born', yearsBeforeCheck: 18, daysAfter: 1 },
    'FAIL, NOT_VERIFIED',
    'Age edge: the subscriber turns 18 the day after the check.',
  ),
  ageGateNumber(MAGIC_PHONES.noData, { kind: 'no-data' }, 'NO_DATA', NO_DATA_DESCRIPTION),
  ageGateNumber(MAGIC_PHONES.carrierOutage, { kind: 'carrier-outage' }, '503 carrier unavailable', OUTAGE_DESCRIPTION),
];

/** Coverage examples (not forced: they follow from the coverage rules in phone-numbers.ts). */
export const PHONE_COVERAGE_EXAMPLES: readonly { phone: string; description: string }[] = [
  { phone: '+12015550123', description: 'US numbers: no carrier data.' },
  { phone: '2015550123', description: 'A bare 10-digit number is North American (+1): no carrier data.' },
  { phone: '+14165550123', description: 'Canadian numbers: no carrier data.' },
  { phone: '+33612345678', description: 'Other countries: no carrier data (only UK mobiles are covered).' },
  { phone: '+442079460000', description: 'UK landlines have no SIM or mobile subscriber: no carrier data.' },
];

// ---------------------------------------------------------------------------------------------
// Title check: magic addresses (compared after normalization)
// ---------------------------------------------------------------------------------------------

export interface TitleCheckMagicAddress extends MagicValue {
  address: string;
  status: TitleCheckStatus;
}

function titleAddress(address: string, status: TitleCheckStatus, outcome: string, description: string): TitleCheckMagicAddress {
  return { endpoint: SCREENING_ENDPOINTS.titleCheck, input: `address ${address}`, outcome, description, address, status };
}

export const TITLE_CHECK_MAGIC_ADDRESSES: readonly TitleCheckMagicAddress[] = [
  titleAddress(
    '1 Sandbox Way, Springfield, IL 62701',
    'found',
    'status found, owner = the applicant',
    'A full record whose first owner is the firstName/lastName sent.',
  ),
  titleAddress(
    '2 Sandbox Towers, Springfield, IL 62701',
    'multiple_properties',
    'status multiple_properties (units 1A, 1B, 2A, 2B)',
    'A building with several units; resend with a unit to get one record.',
  ),
  titleAddress('404 Nowhere Lane, Springfield, IL 62701', 'not_found', 'status not_found', 'A US address with no property record.'),
  titleAddress(
    '221B Baker Street, London NW1 6XE, United Kingdom',
    'unsupported_region',
    'status unsupported_region',
    'Any address outside the US gives unsupported_region (a result, not an error).',
  ),
];

// ---------------------------------------------------------------------------------------------
// The catalog rows
// ---------------------------------------------------------------------------------------------

/** A catalog row, with the request members that carry the value (the endpoint is the operation). */
function row(value: MagicValue, body: Record<string, unknown>, status?: number): MagicValue {
  return {
    endpoint: value.endpoint,
    input: value.input,
    outcome: value.outcome,
    description: value.description,
    trigger: { operation: value.endpoint, body, ...(status === undefined ? {} : { status }) },
  };
}

/**
 * A phone number's row: an outage answers 503. The ownership example names a session of the run that
 * recorded it: without it, the number and names are the body's own.
 */
function phoneRow(value: MagicValue & { phone: string; effect: { kind: string } }): MagicValue {
  const entry = row(value, { phone: value.phone }, value.effect.kind === 'carrier-outage' ? 503 : undefined);
  return { ...entry, trigger: { ...entry.trigger, operation: value.endpoint, omit: ['sessionId'] } };
}

const PHONE_ENDPOINTS = [SCREENING_ENDPOINTS.phoneOwnership, SCREENING_ENDPOINTS.phoneTrust, SCREENING_ENDPOINTS.carrierAgeGate] as const;

export const PHONE_COVERAGE_ROWS: readonly MagicValue[] = PHONE_ENDPOINTS.flatMap((endpoint) =>
  PHONE_COVERAGE_EXAMPLES.map((example) => ({
    endpoint,
    input: `phone ${example.phone}`,
    outcome:
      endpoint === SCREENING_ENDPOINTS.phoneTrust
        ? 'not tripped: NO_DATA'
        : endpoint === SCREENING_ENDPOINTS.phoneOwnership
          ? 'NO_DATA, nameScore -1'
          : 'NO_DATA',
    description: example.description,
    trigger: { operation: endpoint, body: { phone: example.phone }, omit: ['sessionId'] },
  })),
);

/** Every screening magic value, one catalog row each. */
export const SCREENING_MAGIC_VALUES: readonly MagicValue[] = [
  ...ADVERSE_MEDIA_MAGIC_NAMES.map((name) => row(name, { firstName: name.firstName, lastName: name.lastName })),
  ...PEP_SANCTIONS_MAGIC_NAMES.map((name) => row(name, name.query)),
  ...PHONE_OWNERSHIP_MAGIC_NUMBERS.map(phoneRow),
  ...PHONE_TRUST_MAGIC_NUMBERS.map(phoneRow),
  ...CARRIER_AGE_GATE_MAGIC_NUMBERS.map(phoneRow),
  ...PHONE_COVERAGE_ROWS,
  ...TITLE_CHECK_MAGIC_ADDRESSES.map((title) => row(title, { address: title.address })),
];
