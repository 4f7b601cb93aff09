/**
 * What a process's first credit check no longer pays, with answers unchanged. It parses its analysis data
 * with zod's fast path off (`jitless`): the parse orders and strips the report's keys, and the fast path only
 * compiled parsers on that first check; the answers must be the very bytes the fast path gives, over every
 * persona, both kinds and many sessions. And a report orders its dates without `localeCompare`, whose first
 * call sets up ICU's collator, in the order it gave.
 */
import { describe, expect, it, vi } from 'vitest';
import { CreditCheckAnalysisDataSchema, CreditCheckBodySchema } from '../../src/credit-check/credit-check.schemas.ts';
import { creditCheckAnalysisData } from '../../src/credit-check/credit-check.service.ts';
import { buildCreditReport } from '../../src/credit-check/credit-report.ts';
import { UAT_TYPE_VALUES } from '../../src/credit-check/uat-types.ts';
import { freshly, functionsCompiledBy } from '../helpers/compiled-functions.ts';

const NOW = '2026-05-02T09:30:00.000Z';
const body = (uatType: string) =>
  CreditCheckBodySchema.parse({ firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '+16045550177', uat: true, uatType });

describe('credit-check analysis data without the fast path', () => {
  it("compiles no parser on the process's first credit check", async () => {
    const fresh = await freshly(() => import('../../src/credit-check/credit-check.service.ts'));
    const request = body('COLLECTION_PAID');
    expect(functionsCompiledBy(() => fresh.creditCheckAnalysisData({ kind: 'hard', body: request, sessionId: 'first-check', nowIso: NOW }))).toBe(0);
  });

  it('gives byte for byte what the fast path gives, for every persona of both kinds', async () => {
    const parse = vi.spyOn(CreditCheckAnalysisDataSchema, 'parse');
    const answers: { analysisData: unknown; input: unknown }[] = [];
    for (const kind of ['hard', 'soft'] as const) {
      for (const uatType of UAT_TYPE_VALUES) {
        for (let session = 0; session < 4; session++) {
          const { analysisData } = creditCheckAnalysisData({ kind, body: body(uatType), sessionId: `session-${session}`, nowIso: NOW });
          answers.push({ analysisData, input: parse.mock.lastCall?.[0] });
          expect(parse.mock.lastCall?.[1]).toEqual({ jitless: true });
        }
      }
    }
    parse.mockRestore();
    expect(answers).toHaveLength(2 * UAT_TYPE_VALUES.length * 4);
    // A schema no parse has met yet, so the fast path is compiled and runs for the comparison.
    const withFastPath = (await freshly(() => import('../../src/credit-check/credit-check.schemas.ts'))).CreditCheckAnalysisDataSchema;
    expect(functionsCompiledBy(() => withFastPath.parse(answers[0]?.input))).toBeGreaterThan(0);
    for (const { analysisData, input } of answers) expect(JSON.stringify(analysisData)).toBe(JSON.stringify(withFastPath.parse(input)));
  });
});

describe('the dates of a credit report', () => {
  const person = { firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '+16045550177' };
  const reports = () =>
    UAT_TYPE_VALUES.flatMap((uatType) =>
      Array.from({ length: 4 }, (_, session) => buildCreditReport('hard', uatType, person, ['credit-report', `session-${session}`], NOW)),
    );

  it('are ordered without localeCompare', () => {
    const localeCompare = vi.spyOn(String.prototype, 'localeCompare');
    reports();
    expect(localeCompare).not.toHaveBeenCalled();
    localeCompare.mockRestore();
  });

  it('are ordered newest first, trades and inquiries, as localeCompare ordered them', () => {
    let ordered = 0;
    for (const report of reports()) {
      const trades = report.trades.map((trade) => trade.opened_date);
      const inquiries = report.inquiries.map((inquiry) => inquiry.date);
      for (const dates of [trades, inquiries]) {
        expect(dates.every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
        expect(dates).toEqual([...dates].sort((a, b) => b.localeCompare(a)));
        ordered += dates.length;
      }
    }
    expect(ordered).toBeGreaterThan(UAT_TYPE_VALUES.length * 4);
  });
});
