import { describe, expect, it } from 'vitest';
import { checkPhoneTrust, tripDecision } from '../../src/screening/phone-trust.service.ts';
import { PhoneTrustResponseSchema, type ForwardingRisk, type Sensitivity, type SimSwapRisk, type TripReason } from '../../src/screening/phone-trust.schemas.ts';
import { simSwapRiskFor, signalsFor, HOUR_MS, DAY_MS } from '../../src/screening/phone-carrier.ts';
import { MAGIC_PHONES } from '../../src/screening/magic-values.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const SH: TripReason = 'SIM_SWAP_HIGH_RISK';
const SM: TripReason = 'SIM_SWAP_MEDIUM_RISK';
const CF: TripReason = 'CALL_FORWARDING_ACTIVE';

// The spec's rules written out cell by cell: sensitivity -> SIM risk -> forwarding risk -> reasons.
const MEDIUM_AND_HIGH: Record<SimSwapRisk, Record<ForwardingRisk, TripReason[]>> = {
  HIGH_RISK: { HIGH_RISK: [SH, CF], NO_RISK: [SH], NO_DATA: [SH] },
  MEDIUM_RISK: { HIGH_RISK: [SM, CF], NO_RISK: [SM], NO_DATA: [SM] },
  LOW_RISK: { HIGH_RISK: [CF], NO_RISK: [], NO_DATA: [] },
  NO_DATA: { HIGH_RISK: [CF], NO_RISK: [], NO_DATA: [] },
};
const TRUTH_TABLE: Record<Sensitivity, Record<SimSwapRisk, Record<ForwardingRisk, TripReason[]>>> = {
  low: {
    HIGH_RISK: { HIGH_RISK: [SH], NO_RISK: [SH], NO_DATA: [SH] },
    MEDIUM_RISK: { HIGH_RISK: [], NO_RISK: [], NO_DATA: [] },
    LOW_RISK: { HIGH_RISK: [], NO_RISK: [], NO_DATA: [] },
    NO_DATA: { HIGH_RISK: [], NO_RISK: [], NO_DATA: [] },
  },
  medium: MEDIUM_AND_HIGH,
  high: MEDIUM_AND_HIGH,
};

const cases = Object.entries(TRUTH_TABLE).flatMap(([sensitivity, bySim]) =>
  Object.entries(bySim).flatMap(([sim, byForwarding]) =>
    Object.entries(byForwarding).map(
      ([forwarding, reasons]) => [sensitivity as Sensitivity, sim as SimSwapRisk, forwarding as ForwardingRisk, reasons] as const,
    ),
  ),
);

describe('the trip rule truth table', () => {
  it('covers all 36 sensitivity x SIM x forwarding combinations', () => {
    expect(cases).toHaveLength(36);
  });

  it.each(cases)('at %s sensitivity with SIM %s and forwarding %s trips on %j', (sensitivity, sim, forwarding, reasons) => {
    expect(tripDecision(sensitivity, sim, forwarding)).toEqual({ tripped: reasons.length > 0, tripReasons: reasons });
  });
});

describe('SIM swap risk bands', () => {
  it('is HIGH_RISK up to and including 72 hours, MEDIUM_RISK up to 30 days, then LOW_RISK', () => {
    expect(simSwapRiskFor(NOW - 72 * HOUR_MS, NOW)).toBe('HIGH_RISK');
    expect(simSwapRiskFor(NOW - 72 * HOUR_MS - 1, NOW)).toBe('MEDIUM_RISK');
    expect(simSwapRiskFor(NOW - 30 * DAY_MS, NOW)).toBe('MEDIUM_RISK');
    expect(simSwapRiskFor(NOW - 30 * DAY_MS - 1, NOW)).toBe('LOW_RISK');
  });

  it('derives signals for ordinary UK mobiles whose reported date agrees with the reported risk', () => {
    let withDate = 0;
    for (let i = 0; i < 300; i++) {
      const phone = `+44742560${String(1000 + i)}`;
      const signals = signalsFor(phone, NOW);
      if (signals.simChangedAtMs === undefined) {
        expect(signals.simSwappedRisk).toBe('NO_DATA');
      } else {
        withDate++;
        expect(signals.simChangedAtMs).toBeLessThan(NOW);
        expect(simSwapRiskFor(signals.simChangedAtMs, NOW)).toBe(signals.simSwappedRisk);
      }
    }
    expect(withDate).toBeGreaterThan(250);
  });
});

describe('checkPhoneTrust', () => {
  it('reports a SIM swap 26 h before the check for the 72 h magic number, tripping at low', () => {
    const result = checkPhoneTrust({ phone: MAGIC_PHONES.simSwap72h, sensitivity: 'low' }, NOW);
    expect(result).toMatchObject({ status: 'ok', billable: true });
    if (result.status !== 'ok') throw new Error('expected ok');
    expect(PhoneTrustResponseSchema.parse(result.response)).toEqual(result.response);
    expect(result.response).toEqual({
      tripped: true,
      tripReasons: ['SIM_SWAP_HIGH_RISK'],
      simSwappedRisk: 'HIGH_RISK',
      simChangedDate: '2026-02-28T10:00:00.000Z',
      forwardingRisk: 'NO_RISK',
      sensitivity: 'low',
      statusMessage: 'Response from one supplier',
      checkedAt: '2026-03-01T12:00:00.000Z',
      correlationId: result.response.correlationId,
    });
    expect(result.response.correlationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.explanation).toContain('magic value: phone +447700900003');
  });

  it('defaults the sensitivity to medium and echoes a sessionId', () => {
    const result = checkPhoneTrust({ phone: MAGIC_PHONES.simSwap30d, sessionId: 'sess-1' }, NOW);
    if (result.status !== 'ok') throw new Error('expected ok');
    expect(result.response.sensitivity).toBe('medium');
    expect(result.response.tripReasons).toEqual(['SIM_SWAP_MEDIUM_RISK']);
    expect(result.response.sessionId).toBe('sess-1');
  });

  it('omits simChangedDate and never trips when the carrier has no data', () => {
    const result = checkPhoneTrust({ phone: '+12015550123', sensitivity: 'high' }, NOW);
    if (result.status !== 'ok') throw new Error('expected ok');
    expect(result.response.tripped).toBe(false);
    expect(result.response.simSwappedRisk).toBe('NO_DATA');
    expect(result.response.forwardingRisk).toBe('NO_DATA');
    expect('simChangedDate' in result.response).toBe(false);
    expect('sessionId' in result.response).toBe(false);
  });

  it('answers carrier-unavailable, not billable, for the outage number', () => {
    expect(checkPhoneTrust({ phone: MAGIC_PHONES.carrierOutage }, NOW)).toMatchObject({ status: 'carrier-unavailable', billable: false });
  });

  it('rejects an unusable phone with a message naming the field', () => {
    const result = checkPhoneTrust({ phone: 'call me' }, NOW);
    expect(result).toMatchObject({ status: 'invalid-input', field: 'phone', billable: false });
    if (result.status !== 'invalid-input') throw new Error('expected invalid-input');
    expect(result.message).toMatch(/^phone /);
    expect(checkPhoneTrust({ phone: undefined }, NOW)).toMatchObject({ status: 'invalid-input', field: 'phone' });
  });

  it('gives the same answer for the same number and time, and a new correlationId at another time', () => {
    const a = checkPhoneTrust({ phone: '+447425604497' }, NOW);
    const b = checkPhoneTrust({ phone: '+447425604497' }, NOW);
    const c = checkPhoneTrust({ phone: '+447425604497' }, NOW + 1000);
    expect(a).toEqual(b);
    if (a.status !== 'ok' || c.status !== 'ok') throw new Error('expected ok');
    expect(c.response.correlationId).not.toBe(a.response.correlationId);
  });
});
