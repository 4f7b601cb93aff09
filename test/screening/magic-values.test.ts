import { describe, expect, it } from 'vitest';
import {
  ADVERSE_MEDIA_MAGIC_NAMES,
  CARRIER_AGE_GATE_MAGIC_NUMBERS,
  PEP_SANCTIONS_MAGIC_NAMES,
  PHONE_COVERAGE_ROWS,
  PHONE_OWNERSHIP_MAGIC_NUMBERS,
  PHONE_TRUST_MAGIC_NUMBERS,
  SCREENING_ENDPOINTS,
  SCREENING_MAGIC_VALUES,
  TITLE_CHECK_MAGIC_ADDRESSES,
} from '../../src/screening/magic-values.ts';
import { computeAdverseMediaResult } from '../../src/screening/adverse-media.service.ts';
import { AdverseMediaResultSchema } from '../../src/screening/adverse-media.schemas.ts';
import { screenPepSanctions } from '../../src/screening/pep-sanctions.service.ts';
import { defaultWatchlist } from '../../src/screening/pep-sanctions.watchlist.ts';
import { checkPhoneOwnership, STRICTNESS_THRESHOLDS } from '../../src/screening/phone-ownership.service.ts';
import { PhoneOwnershipResponseSchema, type Strictness } from '../../src/screening/phone-ownership.schemas.ts';
import { checkPhoneTrust } from '../../src/screening/phone-trust.service.ts';
import { PhoneTrustResponseSchema, type Sensitivity, type TripReason } from '../../src/screening/phone-trust.schemas.ts';
import { checkCarrierAgeGate } from '../../src/screening/carrier-age-gate.service.ts';
import { CarrierAgeGateResponseSchema } from '../../src/screening/carrier-age-gate.schemas.ts';
import { checkTitle } from '../../src/screening/title-check.service.ts';
import { TitleCheckResponseSchema } from '../../src/screening/title-check.schemas.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;

describe('the screening magic-value catalog', () => {
  it('has one row per table entry, each with endpoint, input, outcome, description and the trigger of its operation only', () => {
    const tables = [
      ADVERSE_MEDIA_MAGIC_NAMES,
      PEP_SANCTIONS_MAGIC_NAMES,
      PHONE_OWNERSHIP_MAGIC_NUMBERS,
      PHONE_TRUST_MAGIC_NUMBERS,
      CARRIER_AGE_GATE_MAGIC_NUMBERS,
      PHONE_COVERAGE_ROWS,
      TITLE_CHECK_MAGIC_ADDRESSES,
    ];
    expect(SCREENING_MAGIC_VALUES).toHaveLength(tables.reduce((sum, table) => sum + table.length, 0));
    for (const row of SCREENING_MAGIC_VALUES) {
      expect(Object.keys(row).sort()).toEqual(['description', 'endpoint', 'input', 'outcome', 'trigger']);
      expect(row.trigger?.operation).toBe(row.endpoint);
      expect(Object.values(SCREENING_ENDPOINTS)).toContain(row.endpoint);
      expect(row.input.length * row.outcome.length * row.description.length).toBeGreaterThan(0);
      expect(row.input + row.outcome).toMatch(/^[\x20-\x7e]*$/);
    }
  });

  it('never lists the same input twice for an endpoint', () => {
    const keys = SCREENING_MAGIC_VALUES.map((row) => `${row.endpoint} ${row.input}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('covers every endpoint and outcome the brief names', () => {
    const outcomes = (endpoint: string) =>
      SCREENING_MAGIC_VALUES.filter((row) => row.endpoint === endpoint)
        .map((row) => row.outcome)
        .join(' | ');
    expect(outcomes(SCREENING_ENDPOINTS.adverseMedia)).toMatch(/LOW.*MEDIUM.*HIGH.*CRITICAL.*failed/);
    expect(outcomes(SCREENING_ENDPOINTS.pepSanctions)).toMatch(/peps.*sanctions.*both.*near-miss/);
    expect(outcomes(SCREENING_ENDPOINTS.phoneOwnership)).toMatch(/MATCH.*NO_MATCH.*NO_DATA.*503/);
    expect(outcomes(SCREENING_ENDPOINTS.phoneTrust)).toMatch(/SIM_SWAP_HIGH_RISK.*SIM_SWAP_MEDIUM_RISK.*CALL_FORWARDING_ACTIVE.*not tripped.*NO_DATA.*503/);
    expect(outcomes(SCREENING_ENDPOINTS.carrierAgeGate)).toMatch(/PASS.*FAIL.*NO_DATA.*503/);
    expect(outcomes(SCREENING_ENDPOINTS.titleCheck)).toMatch(/found.*multiple_properties.*not_found.*unsupported_region/);
  });
});

describe('adverse media magic names', () => {
  it.each(ADVERSE_MEDIA_MAGIC_NAMES.map((row) => [row.input, row] as const))('%s', (_input, row) => {
    for (const dateOfBirth of ['1960-01-01', '1999-12-31']) {
      const outcome = computeAdverseMediaResult({ firstName: row.firstName, lastName: row.lastName, dateOfBirth });
      if (row.effect.kind === 'job-failed') {
        expect(outcome).toMatchObject({ status: 'failed', error: row.effect.error, billable: false });
        expect(outcome.explanation).toContain('magic value');
        continue;
      }
      if (outcome.status !== 'ready') throw new Error('expected ready');
      AdverseMediaResultSchema.parse(outcome.result);
      expect(outcome.result.riskLevel).toBe(row.effect.riskLevel);
      if (row.effect.riskLevel === 'LOW') expect(outcome.result.totalHits).toBe(0);
      else expect(outcome.result.findings.map((f) => f.severity)).toContain(row.effect.riskLevel);
    }
  });
});

describe('PEP and sanctions magic names', () => {
  const watchlist = defaultWatchlist();
  it.each(PEP_SANCTIONS_MAGIC_NAMES.map((row) => [row.input, row] as const))('%s', (_input, row) => {
    const { value: response, explanations } = screenPepSanctions(row.query, watchlist);
    expect({ peps: response.peps.length, sanctions: response.sanctions.length, both: response.both.length }).toEqual({
      peps: row.expected.peps,
      sanctions: row.expected.sanctions,
      both: row.expected.both,
    });
    expect(response.totalMatches).toBe(row.expected.peps + row.expected.sanctions + row.expected.both);
    const match = [...response.peps, ...response.sanctions, ...response.both][0];
    if (row.expected.confidence !== undefined) expect(match?.confidence).toBe(row.expected.confidence);
    expect(explanations.join()).toContain(`magic value: ${row.input}`);
  });
});

describe('phone ownership magic numbers', () => {
  it.each(PHONE_OWNERSHIP_MAGIC_NUMBERS.map((row) => [row.input, row] as const))('%s', (_input, row) => {
    const sent = { phone: row.phone, firstName: 'Jane', lastName: 'Doe', address: '1 High Street, Leeds LS1 1AA', dateOfBirth: '1980-04-23' };
    for (const strictness of ['relaxed', 'medium', 'strict'] as Strictness[]) {
      const result = checkPhoneOwnership({ ...sent, strictness }, NOW);
      const effect = row.effect;
      if (effect.kind === 'carrier-outage') {
        expect(result).toMatchObject({ status: 'carrier-unavailable', billable: false });
        continue;
      }
      if (result.status !== 'ok') throw new Error('expected ok');
      PhoneOwnershipResponseSchema.parse(result.response);
      expect(result.explanation).toContain(`magic value: phone ${row.phone}`);
      if (effect.kind === 'no-data') {
        expect(result.response).toMatchObject({ outcome: 'NO_DATA', nameScore: -1, addressScore: -1 });
      } else if (effect.kind === 'subscriber-is-caller') {
        expect(result.response).toMatchObject({ outcome: 'MATCH', nameScore: 100, firstNameScore: 100, lastNameScore: 100, addressScore: 100, dobScore: 100 });
      } else {
        const outcome = effect.nameScore >= STRICTNESS_THRESHOLDS[strictness] ? 'MATCH' : 'NO_MATCH';
        expect(result.response).toMatchObject({ outcome, nameScore: effect.nameScore, firstNameScore: effect.nameScore, lastNameScore: effect.nameScore });
        if (row.outcome.includes(`at ${strictness}`)) expect(row.outcome).toContain(outcome);
      }
    }
  });
});

describe('phone trust magic numbers', () => {
  const SH: TripReason = 'SIM_SWAP_HIGH_RISK';
  const SM: TripReason = 'SIM_SWAP_MEDIUM_RISK';
  const CF: TripReason = 'CALL_FORWARDING_ACTIVE';
  // Written from each row's documented outcome: reasons at low, medium, high.
  const expected: Record<string, [TripReason[], TripReason[], TripReason[]] | 'outage'> = {
    '+447700900001': [[], [], []],
    '+447700900003': [[SH], [SH], [SH]],
    '+447700900004': [[], [SM], [SM]],
    '+447700900005': [[], [CF], [CF]],
    '+447700900006': [[SH], [SH, CF], [SH, CF]],
    '+447700900007': [[], [], []],
    '+447700900008': [[], [], []],
    '+447700900009': 'outage',
  };

  it('has an expectation for every row', () => {
    expect(Object.keys(expected).sort()).toEqual(PHONE_TRUST_MAGIC_NUMBERS.map((row) => row.phone).sort());
  });

  it.each(PHONE_TRUST_MAGIC_NUMBERS.map((row) => [row.input, row] as const))('%s', (_input, row) => {
    const want = expected[row.phone];
    (['low', 'medium', 'high'] as Sensitivity[]).forEach((sensitivity, index) => {
      const result = checkPhoneTrust({ phone: row.phone, sensitivity }, NOW);
      if (want === 'outage') {
        expect(result).toMatchObject({ status: 'carrier-unavailable', billable: false });
        return;
      }
      if (result.status !== 'ok' || want === undefined) throw new Error('expected ok');
      PhoneTrustResponseSchema.parse(result.response);
      expect(result.response.tripReasons).toEqual(want[index]);
      expect(result.response.tripped).toBe((want[index] ?? []).length > 0);
      if (row.effect.kind === 'signals') {
        expect(result.response.simSwappedRisk).toBe(row.effect.simSwappedRisk);
        expect(result.response.forwardingRisk).toBe(row.effect.forwardingRisk);
        expect(result.response.simChangedDate).toBe(new Date(NOW - row.effect.simChangedHoursAgo * HOUR).toISOString());
      } else {
        expect(result.response).toMatchObject({ simSwappedRisk: 'NO_DATA', forwardingRisk: 'NO_DATA' });
      }
    });
  });
});

describe('carrier age gate magic numbers', () => {
  it.each(CARRIER_AGE_GATE_MAGIC_NUMBERS.map((row) => [row.input, row] as const))('%s', (_input, row) => {
    const result = checkCarrierAgeGate({ phone: row.phone }, NOW);
    if (row.effect.kind === 'carrier-outage') {
      expect(result).toMatchObject({ status: 'carrier-unavailable', billable: false });
      return;
    }
    if (result.status !== 'ok') throw new Error('expected ok');
    CarrierAgeGateResponseSchema.parse(result.response);
    const [outcome, verified] = row.outcome.split(', ');
    expect(result.response.outcome).toBe(outcome);
    expect(result.response.ageVerified).toBe(verified ?? 'NO_DATA');
  });
});

describe('phone coverage rows', () => {
  it.each(PHONE_COVERAGE_ROWS.map((row) => [row.endpoint, row.input, row] as const))('%s %s', (endpoint, input) => {
    const phone = input.replace(/^phone /, '');
    if (endpoint === SCREENING_ENDPOINTS.phoneOwnership) {
      expect(checkPhoneOwnership({ phone, lastName: 'Doe' }, NOW)).toMatchObject({ status: 'ok', response: { outcome: 'NO_DATA', nameScore: -1 } });
    } else if (endpoint === SCREENING_ENDPOINTS.phoneTrust) {
      expect(checkPhoneTrust({ phone, sensitivity: 'high' }, NOW)).toMatchObject({
        status: 'ok',
        response: { tripped: false, simSwappedRisk: 'NO_DATA', forwardingRisk: 'NO_DATA' },
      });
    } else {
      expect(checkCarrierAgeGate({ phone }, NOW)).toMatchObject({ status: 'ok', response: { outcome: 'NO_DATA', ageVerified: 'NO_DATA' } });
    }
  });
});

describe('title check magic addresses', () => {
  it.each(TITLE_CHECK_MAGIC_ADDRESSES.map((row) => [row.input, row] as const))('%s', (_input, row) => {
    const outcome = checkTitle({ firstName: 'Ada', lastName: 'Lovelace', address: row.address.toUpperCase() });
    const response = TitleCheckResponseSchema.parse(outcome.value);
    expect(response.status).toBe(row.status);
    expect(outcome.explanations.join()).toContain('magic value');
    if (response.status === 'found') {
      expect(response.ownerInformation).toMatchObject({ Owner1LastName: 'LOVELACE', Owner1FirstNameMiddleInitial: 'ADA' });
    }
    if (response.status === 'multiple_properties') {
      expect(response.availableUnits).toEqual(['1A', '1B', '2A', '2B']);
      expect(response.properties.map((p) => p.apartmentOrUnit)).toEqual(['1A', '1B', '2A', '2B']);
    }
  });
});
