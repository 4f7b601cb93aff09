/**
 * Credit checks (POST /v1/credit-check/hard and /soft): the verbs the routes call once the body is validated.
 * A credit check is a hosted session of type credit-check-hard or credit-check-soft; the applicant enters a
 * SIN and address on the hosted page, and the bureau's answer lands in the session's analysis_data:
 *
 *   analysis_data.credit_check   how the persona was chosen (type, uat, uat_type, requested value, source)
 *   analysis_data.credit_report  hard: the full bureau file + ai_insights; soft: { score, score_band, ... }
 *
 * The route resolves the persona at creation (so the X-Sandbox-Explain header can say which one) and writes
 * analysis_data when the applicant finishes the hosted page, dated at that instant.
 *
 * LIMITATIONS:
 * - There is no live bureau: with uat false the report is just as synthetic as with uat true. uat_type is
 *   honoured in both cases (the real service ignores it outside test mode), so QA can pick a persona
 *   without toggling uat; the explanation says so.
 * - The SDK has no report retrieval (its contract documents GET /v1/credit-checks as 501-only); the report is
 *   read from the session (GET /v1/sessions/{id}).
 */
import {
  CreditCheckAnalysisDataSchema,
  type CreditCheckAnalysisData,
  type CreditCheckBody,
  type CreditCheckCreateResponse,
  type CreditCheckKind,
  type CreditCheckSessionType,
} from './credit-check.schemas.ts';
import { buildCreditReport } from './credit-report.ts';
import { resolveUatType, type UatTypeResolution } from './uat-types.ts';

export function creditCheckSessionType(kind: CreditCheckKind): CreditCheckSessionType {
  return kind === 'hard' ? 'credit-check-hard' : 'credit-check-soft';
}

/** The persona of a credit-check session, with the sentence for X-Sandbox-Explain. */
export function planCreditCheck(body: Pick<CreditCheckBody, 'uat' | 'uatType'>, sessionId: string): UatTypeResolution {
  const resolution = resolveUatType(body.uatType, sessionId);
  const mode = body.uat ? 'uat true' : 'uat false (no live bureau in the sandbox; report is synthetic)';
  return { ...resolution, explanation: `${mode}; ${resolution.explanation}` };
}

export interface CreditCheckResultInput {
  kind: CreditCheckKind;
  body: Pick<CreditCheckBody, 'firstName' | 'lastName' | 'email' | 'phone' | 'uat' | 'uatType'>;
  sessionId: string;
  /** When the applicant finished the hosted page (ISO 8601 with Z, from the virtual clock). */
  nowIso: string;
}

export interface CreditCheckResult {
  analysisData: CreditCheckAnalysisData;
  explanation: string;
}

/**
 * The analysis_data members a finished credit-check session carries. Deterministic: the same session id,
 * body and instant always give the same report.
 */
export function creditCheckAnalysisData(input: CreditCheckResultInput): CreditCheckResult {
  const plan = planCreditCheck(input.body, input.sessionId);
  const report = buildCreditReport(
    input.kind,
    plan.uatType,
    { firstName: input.body.firstName, lastName: input.body.lastName, email: input.body.email, phone: input.body.phone },
    ['credit-report', input.sessionId],
    input.nowIso,
  );
  const creditCheck: CreditCheckAnalysisData['credit_check'] = {
    type: creditCheckSessionType(input.kind),
    uat: input.body.uat,
    uat_type: plan.uatType,
    uat_type_source: plan.source,
  };
  if (input.body.uatType !== undefined) creditCheck.uat_type_requested = input.body.uatType;
  const analysisData = CreditCheckAnalysisDataSchema.parse({ credit_check: creditCheck, credit_report: report });
  const score = report.report_type === 'hard' ? report.score.value : report.score;
  return { analysisData, explanation: `${plan.explanation}; ${input.kind} check score ${score}` };
}

export interface CreditCheckCreateJsonInput {
  sessionId: string;
  sessionUrl: string;
  kind: CreditCheckKind;
  externalId?: string;
  /** {console_url} page of the session. */
  adminConsoleHref: string;
  /** {base_url}/v1/sessions/{id}. */
  sessionDetailsHref: string;
}

/** The 200 body of POST /v1/credit-check/{hard|soft}; externalId only when the request gave one. */
export function toCreditCheckCreateJson(input: CreditCheckCreateJsonInput): CreditCheckCreateResponse {
  return {
    id: input.sessionId,
    session_url: input.sessionUrl,
    type: creditCheckSessionType(input.kind),
    ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
    links: [
      { rel: 'admin_console', href: input.adminConsoleHref, description: 'View the credit check in the admin console' },
      { rel: 'session_details', href: input.sessionDetailsHref, description: 'Retrieve the credit check session via the API' },
    ],
  };
}
