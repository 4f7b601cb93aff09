/**
 * Screening's schemas are built on first need (`z.lazy`): a request builds the request schema it is checked
 * against, the document builds the rest. The sessions area documents screening's results in a session's
 * analysis_data and loads (for a create, the first call of most suites) without building them; screening's
 * first request builds no answer's schema. /openapi.json is unchanged (test/docs, the recorded examples).
 */
import { z } from '@hono/zod-openapi';
import { describe, expect, it, vi } from 'vitest';

/** The components screening names: its requests and its answers (the results a session stores among them). */
const REQUESTS = ['AdverseMediaRequest', 'CarrierAgeGateRequest', 'PepSanctionsRequest', 'PhoneOwnershipRequest', 'PhoneTrustRequest', 'TitleCheckRequest'];
const ANSWERS = [
  'AdverseMediaQueued',
  'CarrierAgeGateResponse',
  'PepSanctionsMatch',
  'PepSanctionsResponse',
  'PhoneOwnershipResponse',
  'PhoneTrustResponse',
  'TitleCheckFound',
  'TitleCheckResponse',
];

/** The title check's, built with their module: see title-check.schemas.ts. */
const TITLE_CHECK = ['TitleCheckFound', 'TitleCheckRequest', 'TitleCheckResponse'];

/** Runs `load` on freshly evaluated modules and answers which of screening's components it built. */
async function screeningComponentsBuiltBy(load: () => Promise<unknown>): Promise<string[]> {
  const named = vi.spyOn(z.ZodType.prototype, 'openapi');
  try {
    vi.resetModules();
    await load();
    return [...new Set(named.mock.calls.map(([refId]) => refId))]
      .filter((refId): refId is string => [...REQUESTS, ...ANSWERS].includes(refId as string))
      .sort();
  } finally {
    named.mockRestore();
  }
}

describe("screening's schemas, built on first need", () => {
  it("the sessions area loads without building them (the title check's aside, see title-check.schemas.ts); a session's analysis_data is checked against them once read", async () => {
    const built = await screeningComponentsBuiltBy(async () => {
      const area = await import('../../src/sessions/index.ts');
      expect(area.sessionsModule.router().routes.length).toBeGreaterThan(0);
    });
    expect(built).toEqual(TITLE_CHECK);
    const { sessionDataSchemas } = await import('../../src/sessions/sessions.schemas.ts');
    const { AnalysisDataSchema } = sessionDataSchemas();
    const match = { name: 'Jane DOE', country: 'GB', dateOfBirth: null, confidence: 0.98, datasets: ['Sandbox Global PEP List'] };
    expect(AnalysisDataSchema.safeParse({ pep_sanctions_data: { peps: [match], sanctions: [], both: [] } }).success).toBe(true);
    expect(AnalysisDataSchema.safeParse({ pep_sanctions_data: { peps: [{ ...match, confidence: 2 }], sanctions: [], both: [] } }).success).toBe(false);
  });

  it("screening's first request builds the request schema it is checked against, and no answer's", async () => {
    const built = await screeningComponentsBuiltBy(async () => {
      const { testSandbox } = await import('../helpers/sandbox.ts');
      // As a server runs (the tests' strict responses check each answer against its schema).
      const sandbox = await testSandbox({ rateLimit: false, strictResponses: false, responseRecorder: undefined });
      const answer = await sandbox.call('POST', '/v1/screening/pep-sanctions', { body: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1990-01-01' } });
      expect(answer.status).toBe(200);
    });
    expect(built).toEqual(['PepSanctionsRequest', ...TITLE_CHECK]);
  });
});
