import { describe, expect, it } from 'vitest';
import { CarrierAgeGateResponseSchema } from '../../src/screening/carrier-age-gate.schemas.ts';
import {
  CARRIER_AGE_GATE_MAGIC_NUMBERS,
  MAGIC_PHONES,
  PHONE_COVERAGE_EXAMPLES,
  PHONE_OWNERSHIP_MAGIC_NUMBERS,
  PHONE_TRUST_MAGIC_NUMBERS,
} from '../../src/screening/magic-values.ts';
import { PhoneOwnershipResponseSchema } from '../../src/screening/phone-ownership.schemas.ts';
import { PhoneTrustResponseSchema } from '../../src/screening/phone-trust.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox } from '../helpers/sandbox.ts';
import { balanceOf } from './http-helpers.ts';

const OWNERSHIP = '/v1/screening/phone-ownership';
const TRUST = '/v1/screening/phone-trust';
const AGE_GATE = '/v1/screening/carrier-age-gate';
const name = { firstName: 'Olivia', lastName: 'Hart' };
const UNAVAILABLE = { error: 'Service temporarily unavailable.' };

describe('POST /v1/screening/phone-ownership: magic numbers', () => {
  const expected: Record<string, { outcome: string; nameScore: number; strictness?: 'relaxed' | 'medium' | 'strict' } | 503> = {
    [MAGIC_PHONES.happyPath]: { outcome: 'MATCH', nameScore: 100 },
    [MAGIC_PHONES.noMatch]: { outcome: 'NO_MATCH', nameScore: 0 },
    [MAGIC_PHONES.noData]: { outcome: 'NO_DATA', nameScore: -1 },
    [MAGIC_PHONES.carrierOutage]: 503,
    [MAGIC_PHONES.nameScore49]: { outcome: 'NO_MATCH', nameScore: 49, strictness: 'relaxed' },
    [MAGIC_PHONES.nameScore50]: { outcome: 'MATCH', nameScore: 50, strictness: 'relaxed' },
    [MAGIC_PHONES.nameScore69]: { outcome: 'NO_MATCH', nameScore: 69, strictness: 'medium' },
    [MAGIC_PHONES.nameScore70]: { outcome: 'MATCH', nameScore: 70, strictness: 'medium' },
    [MAGIC_PHONES.nameScore89]: { outcome: 'NO_MATCH', nameScore: 89, strictness: 'strict' },
    [MAGIC_PHONES.nameScore90]: { outcome: 'MATCH', nameScore: 90, strictness: 'strict' },
  };

  for (const magic of PHONE_OWNERSHIP_MAGIC_NUMBERS) {
    const want = expected[magic.phone];
    it(`answers ${magic.outcome} for ${magic.phone}${want !== 503 && want?.strictness ? ` at ${want.strictness}` : ''}`, async () => {
      if (want === undefined) throw new Error('no expectation for this magic row');
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const strictness = want === 503 ? undefined : want.strictness;
      const answer = await sandbox.call('POST', OWNERSHIP, { body: { phone: magic.phone, ...name, ...(strictness ? { strictness } : {}) } });
      expect(answer.headers.get('x-sandbox-explain')).toContain(`magic value: phone ${magic.phone}`);
      if (want === 503) {
        expect(answer.status).toBe(503);
        expect(answer.body).toEqual(UNAVAILABLE);
        expect(answer.headers.get('retry-after')).toBe('0');
        expect(await balanceOf(sandbox)).toBe(before);
        return;
      }
      expect(answer.status).toBe(200);
      const body = PhoneOwnershipResponseSchema.parse(answer.body);
      const threshold = { relaxed: 50, medium: 70, strict: 90 }[want.strictness ?? 'medium'];
      expect(body).toMatchObject({
        outcome: want.outcome,
        nameScore: want.nameScore,
        strictness: want.strictness ?? 'medium',
        threshold,
        checkedAt: FROZEN_AT,
      });
      if (want.outcome === 'NO_DATA') {
        expect(body).not.toHaveProperty('firstNameScore');
        expect(body.statusMessage).toBe('No data: the carrier holds no servable data for this number');
      } else {
        expect([body.firstNameScore, body.lastNameScore]).toEqual([want.nameScore, want.nameScore]);
        expect(body.statusMessage).toBe('Response from one supplier');
      }
      expect(body).not.toHaveProperty('sessionId');
      expect(await balanceOf(sandbox)).toBe(before - 1);
    });
  }

  it('puts the medium threshold edge exactly at 70: 70 is MATCH, 69 is NO_MATCH', async () => {
    const sandbox = await testSandbox();
    const at70 = await sandbox.call('POST', OWNERSHIP, { body: { phone: MAGIC_PHONES.nameScore70, ...name } });
    const at69 = await sandbox.call('POST', OWNERSHIP, { body: { phone: MAGIC_PHONES.nameScore69, ...name } });
    expect([at70.body.outcome, at70.body.nameScore, at70.body.threshold]).toEqual(['MATCH', 70, 70]);
    expect([at69.body.outcome, at69.body.nameScore, at69.body.threshold]).toEqual(['NO_MATCH', 69, 70]);
    expect(at70.headers.get('x-sandbox-explain')).toContain('name score 70 (first 70, last 70) >= threshold 70 (medium) -> MATCH');
    expect(at69.headers.get('x-sandbox-explain')).toContain('name score 69 (first 69, last 69) < threshold 70 (medium) -> NO_MATCH');
  });

  it('scores address and date of birth when sent, without changing the outcome', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', OWNERSHIP, {
      body: { phone: MAGIC_PHONES.happyPath, ...name, address: '10 Example Road, London, SW1A 1AA', dateOfBirth: '1985-03-02' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'MATCH', nameScore: 100, addressScore: 100, dobScore: 100 });
  });

  it('reads a bare 10-digit number as North American and answers NO_DATA (billed: the carrier answered)', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const answer = await sandbox.call('POST', OWNERSHIP, { body: { phone: '2015550123', ...name } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'NO_DATA', nameScore: -1 });
    expect(answer.body.statusMessage).toBe('No data: carrier data is not available for US and Canadian numbers (+12015550123)');
    expect(await balanceOf(sandbox)).toBe(before - 1);
  });
});

describe('POST /v1/screening/phone-trust: magic numbers', () => {
  const at = (hoursAgo: number) => new Date(Date.parse(FROZEN_AT) - hoursAgo * 3_600_000).toISOString();
  const LONG_AGO = at(400 * 24);
  const expected: Record<string, { medium: string[]; low: string[]; sim: string; forwarding: string; changed?: string } | 503> = {
    [MAGIC_PHONES.happyPath]: { medium: [], low: [], sim: 'LOW_RISK', forwarding: 'NO_RISK', changed: LONG_AGO },
    [MAGIC_PHONES.simSwap72h]: {
      medium: ['SIM_SWAP_HIGH_RISK'],
      low: ['SIM_SWAP_HIGH_RISK'],
      sim: 'HIGH_RISK',
      forwarding: 'NO_RISK',
      changed: '2026-01-14T07:30:00.000Z',
    },
    [MAGIC_PHONES.simSwap30d]: { medium: ['SIM_SWAP_MEDIUM_RISK'], low: [], sim: 'MEDIUM_RISK', forwarding: 'NO_RISK', changed: '2026-01-03T09:30:00.000Z' },
    [MAGIC_PHONES.callForwarding]: { medium: ['CALL_FORWARDING_ACTIVE'], low: [], sim: 'LOW_RISK', forwarding: 'HIGH_RISK', changed: LONG_AGO },
    [MAGIC_PHONES.simSwapAndForwarding]: {
      medium: ['SIM_SWAP_HIGH_RISK', 'CALL_FORWARDING_ACTIVE'],
      low: ['SIM_SWAP_HIGH_RISK'],
      sim: 'HIGH_RISK',
      forwarding: 'HIGH_RISK',
      changed: '2026-01-15T04:30:00.000Z',
    },
    [MAGIC_PHONES.clean]: { medium: [], low: [], sim: 'LOW_RISK', forwarding: 'NO_RISK', changed: LONG_AGO },
    [MAGIC_PHONES.noData]: { medium: [], low: [], sim: 'NO_DATA', forwarding: 'NO_DATA' },
    [MAGIC_PHONES.carrierOutage]: 503,
  };

  for (const magic of PHONE_TRUST_MAGIC_NUMBERS) {
    it(`answers '${magic.outcome}' for ${magic.phone} at sensitivity medium (default) and low`, async () => {
      const want = expected[magic.phone];
      if (want === undefined) throw new Error('no expectation for this magic row');
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const medium = await sandbox.call('POST', TRUST, { body: { phone: magic.phone } });
      const low = await sandbox.call('POST', TRUST, { body: { phone: magic.phone, sensitivity: 'low' } });
      expect(medium.headers.get('x-sandbox-explain')).toContain(`magic value: phone ${magic.phone}`);
      if (want === 503) {
        expect([medium.status, low.status]).toEqual([503, 503]);
        expect(medium.body).toEqual(UNAVAILABLE);
        expect(await balanceOf(sandbox)).toBe(before);
        return;
      }
      for (const [answer, sensitivity, reasons] of [
        [medium, 'medium', want.medium],
        [low, 'low', want.low],
      ] as const) {
        expect(answer.status).toBe(200);
        const body = PhoneTrustResponseSchema.parse(answer.body);
        expect(body).toEqual({
          tripped: reasons.length > 0,
          tripReasons: reasons,
          simSwappedRisk: want.sim,
          ...(want.changed ? { simChangedDate: want.changed } : {}),
          forwardingRisk: want.forwarding,
          sensitivity,
          statusMessage: want.sim === 'NO_DATA' ? 'No data: the carrier holds no servable data for this number' : 'Response from one supplier',
          checkedAt: FROZEN_AT,
          correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
      }
      expect(await balanceOf(sandbox)).toBe(before - 2);
    });
  }
});

describe('POST /v1/screening/carrier-age-gate: magic numbers', () => {
  const expected: Record<string, { outcome: string; ageVerified: string } | 503> = {
    [MAGIC_PHONES.happyPath]: { outcome: 'PASS', ageVerified: 'VERIFIED' },
    [MAGIC_PHONES.under18]: { outcome: 'FAIL', ageVerified: 'NOT_VERIFIED' },
    [MAGIC_PHONES.turns18Today]: { outcome: 'PASS', ageVerified: 'VERIFIED' },
    [MAGIC_PHONES.turns18Tomorrow]: { outcome: 'FAIL', ageVerified: 'NOT_VERIFIED' },
    [MAGIC_PHONES.noData]: { outcome: 'NO_DATA', ageVerified: 'NO_DATA' },
    [MAGIC_PHONES.carrierOutage]: 503,
  };

  for (const magic of CARRIER_AGE_GATE_MAGIC_NUMBERS) {
    it(`answers ${magic.outcome} for ${magic.phone}`, async () => {
      const want = expected[magic.phone];
      if (want === undefined) throw new Error('no expectation for this magic row');
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const answer = await sandbox.call('POST', AGE_GATE, { body: { phone: magic.phone } });
      expect(answer.headers.get('x-sandbox-explain')).toContain(`magic value: phone ${magic.phone}`);
      if (want === 503) {
        expect(answer.status).toBe(503);
        expect(answer.body).toEqual(UNAVAILABLE);
        expect(await balanceOf(sandbox)).toBe(before);
        return;
      }
      expect(answer.status).toBe(200);
      const body = CarrierAgeGateResponseSchema.parse(answer.body);
      expect(body).toMatchObject({ ...want, requiredAge: 18, checkedAt: FROZEN_AT });
      if (want.outcome === 'NO_DATA') expect(body).not.toHaveProperty('carrierThreshold');
      else expect(body.carrierThreshold).toBe(18);
      expect(await balanceOf(sandbox)).toBe(before - 1);
    });
  }
});

describe('phone coverage outside UK mobiles', () => {
  for (const example of PHONE_COVERAGE_EXAMPLES) {
    it(`answers NO_DATA on all three carrier checks for ${example.phone} (${example.description})`, async () => {
      const sandbox = await testSandbox();
      const ownership = await sandbox.call('POST', OWNERSHIP, { body: { phone: example.phone, ...name } });
      const trust = await sandbox.call('POST', TRUST, { body: { phone: example.phone } });
      const gate = await sandbox.call('POST', AGE_GATE, { body: { phone: example.phone } });
      expect([ownership.status, trust.status, gate.status]).toEqual([200, 200, 200]);
      expect([ownership.body.outcome, ownership.body.nameScore]).toEqual(['NO_DATA', -1]);
      expect([trust.body.tripped, trust.body.simSwappedRisk, trust.body.forwardingRisk]).toEqual([false, 'NO_DATA', 'NO_DATA']);
      expect([gate.body.outcome, gate.body.ageVerified]).toEqual(['NO_DATA', 'NO_DATA']);
    });
  }
});

describe('carrier checks: scenarios, funds, validation and keys', () => {
  for (const path of [OWNERSHIP, TRUST, AGE_GATE]) {
    it(`answers 503 on ${path} under the carrier-unavailable scenario (header or namespace-wide) and bills nothing`, async () => {
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const body = { phone: MAGIC_PHONES.happyPath, ...name };
      const viaHeader = await sandbox.call('POST', path, { body, headers: { 'x-sandbox-scenario': 'carrier-unavailable' } });
      expect(viaHeader.status).toBe(503);
      expect(viaHeader.body).toEqual(UNAVAILABLE);
      expect(viaHeader.headers.get('retry-after')).toBe('0');
      expect(viaHeader.headers.get('x-sandbox-explain')).toContain('scenario carrier-unavailable');

      await sandbox.call('POST', '/__sandbox/scenarios/carrier-unavailable/activate', { key: null });
      expect((await sandbox.call('POST', path, { body })).status).toBe(503);
      await sandbox.call('POST', '/__sandbox/scenarios/carrier-unavailable/deactivate', { key: null });
      expect((await sandbox.call('POST', path, { body })).status).toBe(200);
      expect(await balanceOf(sandbox)).toBe(before - 1);
    });

    it(`answers 402 on ${path} with an empty balance`, async () => {
      const sandbox = await testSandbox();
      const answer = await sandbox.call('POST', path, { key: KEYS.broke, body: { phone: MAGIC_PHONES.happyPath, ...name } });
      expect(answer.status).toBe(402);
      expect(answer.body.error).toMatch(/^Insufficient funds or subscription\./);
    });
  }

  it('answers 403 to a sandbox key on a phone check (writes need a live key)', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', TRUST, { key: KEYS.sandbox, body: { phone: MAGIC_PHONES.happyPath } });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('Sandbox API keys are read-only: a live API key is needed to create or modify resources.');
  });

  const invalid: [string, string, object, string][] = [
    [
      OWNERSHIP,
      'no phone and no sessionId',
      { ...name },
      'Invalid request: body field phone is required unless sessionId is given: send an E.164 number such as +447700900001.',
    ],
    [
      OWNERSHIP,
      'no name and no sessionId',
      { phone: MAGIC_PHONES.happyPath },
      'Invalid request: body field firstName or lastName is required unless sessionId is given: send the name to match against the subscriber.',
    ],
    [
      OWNERSHIP,
      'an unknown strictness',
      { phone: MAGIC_PHONES.happyPath, ...name, strictness: 'loose' },
      'Invalid request: body field strictness must be one of relaxed, medium, strict (default medium).',
    ],
    [
      OWNERSHIP,
      'a phone without country code',
      { phone: '07700900001', ...name },
      'Invalid request: body field phone "07700900001" has no country code: send it in E.164 form with a leading + and the country code (a UK number as +44 without its leading 0, e.g. +447700900001); only a bare 10-digit North American number may omit it.',
    ],
    [
      OWNERSHIP,
      'an address over 500 characters',
      { phone: MAGIC_PHONES.happyPath, ...name, address: 'a'.repeat(501) },
      'Invalid request: body field address is too long: send at most 500 characters.',
    ],
    [
      TRUST,
      'an unknown sensitivity',
      { phone: MAGIC_PHONES.happyPath, sensitivity: 'extreme' },
      'Invalid request: body field sensitivity must be one of low, medium, high (default medium).',
    ],
    [
      TRUST,
      'no phone and no sessionId',
      {},
      'Invalid request: body field phone is required unless sessionId is given: send an E.164 number such as +447700900003.',
    ],
    [
      AGE_GATE,
      'letters in the phone',
      { phone: '+44 7700 ABC' },
      'Invalid request: body field phone "+44 7700 ABC" may contain only digits, spaces, dashes, dots, parentheses and a leading +: send an E.164 number, e.g. +447700900001.',
    ],
  ];
  for (const [path, what, body, message] of invalid) {
    it(`answers 400 on ${path} for ${what}, billing nothing`, async () => {
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const answer = await sandbox.call('POST', path, { body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(message);
      expect(await balanceOf(sandbox)).toBe(before);
    });
  }
});
