import { describe, expect, it } from 'vitest';
import { SEVERITY_SCORE_BANDS, UAT_TYPE_TABLE, UAT_TYPE_VALUES, resolveUatType, type UatSeverity } from '../../src/credit-check/uat-types.ts';

const SPEC_GROUPS = {
  Clean: ['SHELL_FILE', 'MULTIPLE_ADDRESS', 'STANDARD_HIT'],
  Bankruptcy: ['BANKRUPTCY_DISCHARGED', 'BANKRUPTCY_UNDISCHARGED', 'BANKRUPTCY_VOLUNTARY', 'BANKRUPTCY_PROPOSAL', 'BANKRUPTCY_RECEIVING_ORDER'],
  Collections: ['COLLECTION_UNPAID', 'COLLECTION_UNPAID_2', 'COLLECTION_PAID', 'COLLECTION_MULTIPLE'],
  Legal: ['JUDGEMENT', 'JUDGEMENT_SATISFIED', 'FORECLOSURE', 'GARNISHMENT'],
  'Loans and trades': ['SECURE_LOAN', 'MORTGAGE', 'STUDENT_LOAN', 'AUTO_LOAN', 'TRADE_R5', 'TRADE_VARIOUS', 'TRADE_REPOSSESSION'],
  Alerts: ['FRAUD_ALERT', 'FOREIGN_INQUIRY', 'MANY_INQUIRIES'],
  Other: ['EMPLOYMENT', 'BANKING', 'TELCO', 'DEATH_NOTICE'],
};

describe('the uat_type table', () => {
  it('lists exactly the 30 values of the spec, grouped and ordered as the spec lists them', () => {
    expect(UAT_TYPE_VALUES).toHaveLength(30);
    const grouped: Record<string, string[]> = {};
    for (const entry of UAT_TYPE_TABLE) (grouped[entry.group] ??= []).push(entry.input);
    expect(grouped).toEqual(SPEC_GROUPS);
  });

  it('gives every type a description, an ASCII outcome and a score range inside its severity band', () => {
    for (const entry of UAT_TYPE_TABLE) {
      expect(entry.description.length).toBeGreaterThan(20);
      expect(entry.outcome).toMatch(/^[\x20-\x7e]+$/);
      const [bandMin, bandMax] = SEVERITY_SCORE_BANDS[entry.severity];
      expect(entry.scoreRange[0]).toBeGreaterThanOrEqual(bandMin);
      expect(entry.scoreRange[1]).toBeLessThanOrEqual(bandMax);
      expect(entry.scoreRange[0]).toBeLessThanOrEqual(entry.scoreRange[1]);
    }
  });

  it('orders the severity bands so that a worse severity always scores lower', () => {
    const order: UatSeverity[] = ['critical', 'high', 'medium', 'low', 'none'];
    for (let i = 1; i < order.length; i++) {
      expect(SEVERITY_SCORE_BANDS[order[i - 1] as UatSeverity][1]).toBeLessThan(SEVERITY_SCORE_BANDS[order[i] as UatSeverity][0]);
    }
  });
});

describe('resolveUatType', () => {
  it('returns a recognized uat_type as requested, with its outcome in the explanation', () => {
    expect(resolveUatType('COLLECTION_PAID', 'session-1')).toEqual({
      uatType: 'COLLECTION_PAID',
      source: 'requested',
      explanation: 'uat_type COLLECTION_PAID -> one collection paid in full, with its paid date',
    });
  });

  it('chooses the same type for the same session id when uat_type is missing', () => {
    const first = resolveUatType(undefined, 'a3f1c2de-0000-4000-8000-000000000001');
    const again = resolveUatType(undefined, 'a3f1c2de-0000-4000-8000-000000000001');
    expect(again).toEqual(first);
    expect(first.source).toBe('derived-from-session-id');
    expect(UAT_TYPE_VALUES).toContain(first.uatType);
    expect(first.explanation).toMatch(new RegExp(`^no uat_type given; persona chosen from the session id -> ${first.uatType}: `));
  });

  it('treats an unrecognized or wrongly-cased uat_type like a missing one, and says so', () => {
    const missing = resolveUatType(undefined, 'session-xyz');
    const lower = resolveUatType('shell_file', 'session-xyz');
    const bogus = resolveUatType('NOT_A_TYPE', 'session-xyz');
    expect(lower.uatType).toBe(missing.uatType);
    expect(bogus.uatType).toBe(missing.uatType);
    expect(lower.explanation).toContain('uat_type "shell_file" not recognized (values are case-sensitive)');
    expect(bogus.source).toBe('derived-from-session-id');
  });

  it('keeps explanations ASCII even for a hostile uat_type', () => {
    expect(resolveUatType('caf\u00e9\u{1F600}\n', 's').explanation).toMatch(/^[\x20-\x7e]+$/);
  });

  it('spreads different session ids over many types', () => {
    const chosen = new Set(Array.from({ length: 300 }, (_, i) => resolveUatType(undefined, `session-${i}`).uatType));
    expect(chosen.size).toBe(30);
  });
});
