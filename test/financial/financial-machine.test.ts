import { describe, expect, it } from 'vitest';
import {
  BANK_DATA_PROVIDER_STATUS,
  BANK_STATEMENT_MACHINE,
  FINANCIAL_STATUSES,
  completedAt,
  financialTimeline,
  statusAt,
} from '../../src/financial/financial.machine.ts';

const T0 = Date.parse('2026-02-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const createdAt = iso(T0);
const startedAt = iso(T0 + 60_000);
const linkedAt = iso(T0 + 90_000);
const LINKED = T0 + 90_000;

describe('bank statement statuses', () => {
  it('names the provider step FLINKS_IN_PROGRESS and lists the spec states in order', () => {
    expect(BANK_DATA_PROVIDER_STATUS).toBe('FLINKS_IN_PROGRESS');
    expect(FINANCIAL_STATUSES).toEqual(['PENDING', 'IN_PROGRESS', 'FLINKS_IN_PROGRESS', 'COMPLETED']);
    expect(BANK_STATEMENT_MACHINE.initial).toBe('PENDING');
    expect(BANK_STATEMENT_MACHINE.final).toEqual(['COMPLETED']);
  });

  it('only declares transitions between known states', () => {
    for (const t of BANK_STATEMENT_MACHINE.timed) {
      for (const from of t.from) expect(FINANCIAL_STATUSES).toContain(from);
      expect(FINANCIAL_STATUSES).toContain(t.to);
      for (const from of t.from) expect(BANK_STATEMENT_MACHINE.final).not.toContain(from);
    }
  });
});

describe('statusAt, a request record read along the timeline', () => {
  const record = { type: 'request' as const, createdAt, startedAt, linkedAt };

  it.each([
    ['at creation', T0, 'PENDING', T0],
    ['just before the bank is picked', T0 + 59_999, 'PENDING', T0],
    ['when the bank is picked', T0 + 60_000, 'IN_PROGRESS', T0 + 60_000],
    ['1999 ms after linking', LINKED + 1_999, 'IN_PROGRESS', T0 + 60_000],
    ['2 s after linking', LINKED + 2_000, 'FLINKS_IN_PROGRESS', LINKED + 2_000],
    ['4999 ms after linking', LINKED + 4_999, 'FLINKS_IN_PROGRESS', LINKED + 2_000],
    ['5 s after linking', LINKED + 5_000, 'COMPLETED', LINKED + 5_000],
    ['a year later', LINKED + 365 * 86_400_000, 'COMPLETED', LINKED + 5_000],
  ])('is right %s', (_label, now, status, since) => {
    expect(statusAt(record, now)).toMatchObject({ status, since });
  });

  it('explains the current status and the next step', () => {
    expect(statusAt(record, LINKED + 2_500).explanation).toBe(
      'bank statement FLINKS_IN_PROGRESS since 2026-02-01T10:01:32.000Z: the bank data provider is fetching accounts and transactions; COMPLETED at 2026-02-01T10:01:35.000Z',
    );
    expect(statusAt({ type: 'request', createdAt }, T0 + 1).explanation).toBe(
      'bank statement PENDING since 2026-02-01T10:00:00.000Z: request created; waiting for the applicant',
    );
  });

  it('lists the whole timeline with when each status is entered', () => {
    expect(financialTimeline(record).map((step) => [step.status, step.at - T0])).toEqual([
      ['PENDING', 0],
      ['IN_PROGRESS', 60_000],
      ['FLINKS_IN_PROGRESS', 92_000],
      ['COMPLETED', 95_000],
    ]);
    expect(completedAt(record)).toBe(LINKED + 5_000);
  });
});

describe('statusAt, other paths', () => {
  it('stays PENDING forever while the applicant does nothing', () => {
    const record = { type: 'request' as const, createdAt };
    expect(statusAt(record, T0 + 10 * 365 * 86_400_000)).toMatchObject({ status: 'PENDING', since: T0 });
    expect(completedAt(record)).toBeUndefined();
  });

  it('stays IN_PROGRESS while a picked bank is not linked yet', () => {
    expect(statusAt({ type: 'request', createdAt, startedAt }, T0 + 86_400_000).status).toBe('IN_PROGRESS');
  });

  it('enters IN_PROGRESS at linking when the bank was picked and linked in one step', () => {
    const record = { type: 'request' as const, createdAt, linkedAt };
    expect(statusAt(record, LINKED - 1).status).toBe('PENDING');
    expect(statusAt(record, LINKED)).toMatchObject({ status: 'IN_PROGRESS', since: LINKED });
    expect(statusAt(record, LINKED + 5_000).status).toBe('COMPLETED');
  });

  it('takes an upload from IN_PROGRESS straight to COMPLETED after 5 s, never through the provider', () => {
    const record = { type: 'upload' as const, createdAt, startedAt, linkedAt };
    expect(statusAt(record, LINKED + 2_000).status).toBe('IN_PROGRESS');
    expect(statusAt(record, LINKED + 5_000)).toMatchObject({ status: 'COMPLETED', since: LINKED + 5_000 });
    expect(financialTimeline(record).map((s) => s.status)).toEqual(['PENDING', 'IN_PROGRESS', 'COMPLETED']);
  });

  it('never enters a status before the previous one when timestamps are out of order', () => {
    const steps = financialTimeline({ type: 'request', createdAt: iso(LINKED + 10_000), linkedAt });
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.at).toBeGreaterThanOrEqual(steps[i - 1]!.at);
  });
});
