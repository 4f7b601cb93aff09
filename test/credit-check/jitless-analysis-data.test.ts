/**
 * A credit check parses its analysis data once per session with zod's fast path off (`jitless`): the parse
 * orders and strips the report's keys, and the fast path only compiled parsers on a process's first check.
 * The answers must be the very bytes the fast path gives, over every persona, both kinds and many sessions.
 */
import { describe, expect, it, vi } from 'vitest';
import { CreditCheckAnalysisDataSchema, CreditCheckBodySchema } from '../../src/credit-check/credit-check.schemas.ts';
import { creditCheckAnalysisData } from '../../src/credit-check/credit-check.service.ts';
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
