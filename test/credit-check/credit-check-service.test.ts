import { describe, expect, it } from 'vitest';
import { CreditCheckAnalysisDataSchema, CreditCheckBodySchema, CreditCheckCreateResponseSchema } from '../../src/credit-check/credit-check.schemas.ts';
import { creditCheckAnalysisData, creditCheckSessionType, planCreditCheck, toCreditCheckCreateJson } from '../../src/credit-check/credit-check.service.ts';
import { resolveUatType } from '../../src/credit-check/uat-types.ts';

const NOW = '2026-05-02T09:30:00.000Z';
const SESSION_ID = '5b0c3e9a-7d1f-4c2b-9a8e-1f2d3c4b5a69';

function body(extra: Record<string, unknown> = {}) {
  return CreditCheckBodySchema.parse({ firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '+16045550177', ...extra });
}

describe('credit check session type', () => {
  it('maps hard and soft to the spec session types', () => {
    expect(creditCheckSessionType('hard')).toBe('credit-check-hard');
    expect(creditCheckSessionType('soft')).toBe('credit-check-soft');
  });
});

describe('planCreditCheck', () => {
  it('runs the requested persona in test mode', () => {
    const plan = planCreditCheck(body({ uat: true, uatType: 'GARNISHMENT' }), SESSION_ID);
    expect(plan.uatType).toBe('GARNISHMENT');
    expect(plan.explanation).toBe('uat true; uat_type GARNISHMENT -> active wage garnishment naming the employer as garnishee');
  });

  it('honours uat_type without uat and says the report is synthetic', () => {
    const plan = planCreditCheck(body({ uat_type: 'TELCO' }), SESSION_ID);
    expect(plan.uatType).toBe('TELCO');
    expect(plan.explanation.startsWith('uat false (no live bureau in the sandbox; report is synthetic); ')).toBe(true);
  });

  it('derives the persona from the session id when uat_type is missing or unknown', () => {
    const derived = resolveUatType(undefined, SESSION_ID).uatType;
    expect(planCreditCheck(body({ uat: true }), SESSION_ID).uatType).toBe(derived);
    expect(planCreditCheck(body({ uat: true, uatType: 'NOPE' }), SESSION_ID)).toMatchObject({ uatType: derived, source: 'derived-from-session-id' });
  });
});

describe('creditCheckAnalysisData', () => {
  it('puts the full hard report under analysis_data.credit_report and the persona under credit_check', () => {
    const { analysisData, explanation } = creditCheckAnalysisData({
      kind: 'hard',
      body: body({ uat: true, uatType: 'COLLECTION_PAID' }),
      sessionId: SESSION_ID,
      nowIso: NOW,
    });
    expect(CreditCheckAnalysisDataSchema.parse(analysisData)).toEqual(analysisData);
    expect(analysisData.credit_check).toEqual({
      type: 'credit-check-hard',
      uat: true,
      uat_type: 'COLLECTION_PAID',
      uat_type_requested: 'COLLECTION_PAID',
      uat_type_source: 'requested',
    });
    const report = analysisData.credit_report;
    if (report.report_type !== 'hard') throw new Error('expected a hard report');
    expect(report.subject).toMatchObject({ first_name: 'Sam', last_name: 'Lee' });
    expect(report.collections[0]?.status).toBe('PAID');
    expect(report.generated_at).toBe(NOW);
    expect(explanation).toBe(`uat true; uat_type COLLECTION_PAID -> one collection paid in full, with its paid date; hard check score ${report.score.value}`);
  });

  it('puts only the score under credit_report for a soft check, and records an unrecognized request', () => {
    const { analysisData } = creditCheckAnalysisData({ kind: 'soft', body: body({ uat: true, uatType: 'bogus' }), sessionId: SESSION_ID, nowIso: NOW });
    expect(analysisData.credit_check).toMatchObject({
      type: 'credit-check-soft',
      uat_type_requested: 'bogus',
      uat_type_source: 'derived-from-session-id',
      uat_type: resolveUatType(undefined, SESSION_ID).uatType,
    });
    expect(analysisData.credit_report.report_type).toBe('soft');
    expect(analysisData.credit_report).not.toHaveProperty('trades');
  });

  it('omits uat_type_requested when none was sent', () => {
    const { analysisData } = creditCheckAnalysisData({ kind: 'soft', body: body(), sessionId: SESSION_ID, nowIso: NOW });
    expect(analysisData.credit_check).not.toHaveProperty('uat_type_requested');
  });

  it('is deterministic for a session', () => {
    const input = { kind: 'hard' as const, body: body({ uat: true }), sessionId: SESSION_ID, nowIso: NOW };
    expect(JSON.stringify(creditCheckAnalysisData(input))).toBe(JSON.stringify(creditCheckAnalysisData(input)));
  });
});

describe('toCreditCheckCreateJson', () => {
  const base = {
    sessionId: SESSION_ID,
    sessionUrl: `http://127.0.0.1:4010/verify/${SESSION_ID}?oid=org_demo`,
    adminConsoleHref: `http://127.0.0.1:4010/console/sessions/${SESSION_ID}`,
    sessionDetailsHref: `http://127.0.0.1:4010/v1/sessions/${SESSION_ID}`,
  };

  it('answers id, session_url, type and both links, without externalId when none was given', () => {
    const json = toCreditCheckCreateJson({ ...base, kind: 'soft' });
    expect(CreditCheckCreateResponseSchema.parse(json)).toEqual(json);
    expect(json).toEqual({
      id: SESSION_ID,
      session_url: base.sessionUrl,
      type: 'credit-check-soft',
      links: [
        { rel: 'admin_console', href: base.adminConsoleHref, description: 'View the credit check in the admin console' },
        { rel: 'session_details', href: base.sessionDetailsHref, description: 'Retrieve the credit check session via the API' },
      ],
    });
    expect(json).not.toHaveProperty('externalId');
  });

  it('echoes externalId in camelCase, before links', () => {
    const json = toCreditCheckCreateJson({ ...base, kind: 'hard', externalId: 'cust-9' });
    expect(Object.keys(json)).toEqual(['id', 'session_url', 'type', 'externalId', 'links']);
    expect(json.externalId).toBe('cust-9');
    expect(json.type).toBe('credit-check-hard');
  });
});
