/**
 * Credit checks (POST /v1/credit-check/hard and /soft): the verbs the routes call once the body is validated.
 * A credit check is a hosted session of type credit-check-hard or credit-check-soft; the applicant enters a
 * SIN and address on the hosted page, and the bureau's answer lands in the session's analysis_data:
 *
 *   analysis_data.credit_check   how the persona was chosen (type, uat, uat_type, requested value, source)
 *   analysis_data.credit_report  hard: the full bureau file + ai_insights; soft: { score, score_band, ... }
 *
 * `createCreditCheck` stores the session through the sessions area (sessions.store.ts), so it is listed by
 * GET /v1/sessions and read by GET /v1/sessions/{id}, resolves the persona at creation (so X-Sandbox-Explain
 * can say which one) and hands the analysis to the session as what it records when the applicant finishes:
 * analysis_data appears once the session is finished on the hosted page ({verify_url}/<id>) or driven by
 * POST /__sandbox/sessions/{id}/outcome, like every session's analysis (a PENDING session has none).
 *
 * LIMITATIONS:
 * - The report is built at creation, so its generated_at (and the dates computed from it) is the creation
 *   instant, not the instant the applicant finished.
 * - Invitations go to the namespace's outbox (GET /__sandbox/outbox); no SMS leaves the sandbox.
 * - There is no live bureau: with uat false the report is just as synthetic as with uat true. uat_type is
 *   honoured in both cases (the real service ignores it outside test mode), so QA can pick a persona
 *   without toggling uat; the explanation says so.
 * - The SDK has no report retrieval (its contract documents GET /v1/credit-checks as 501-only); the report is
 *   read from the session (GET /v1/sessions/{id}).
 */
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import type { Explained } from '../platform/explained.ts';
import type { World } from '../platform/namespaces/world.ts';
import { invitedIf, sendInvitation } from '../platform/outbox/invitations.ts';
import { adminConsoleUrl, buildSessionUrl, createSession, recordFinishAnalysis, sessionDetailsUrl, type SessionUrls } from '../sessions/api.ts';
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
  // Parsed for its key order and stripping; without zod's eval-based fast path, which compiled a parser per
  // object schema of the report (some 20 ms) on a process's first credit check and gained nothing after.
  const analysisData = CreditCheckAnalysisDataSchema.parse({ credit_check: creditCheck, credit_report: report }, { jitless: true });
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

// ---------------------------------------------------------------- the verb the routes call

/** A credit check costs what a session costs. */
export const CREDIT_CHECK_PRICE_TOKENS = 1;

export interface CreditCheckLinks {
  urls: SessionUrls;
}

/**
 * POST /v1/credit-check/{hard|soft}: a PENDING session of type credit-check-hard / -soft for the applicant,
 * whose analysis_data (credit_check + credit_report) is recorded when the applicant finishes. Billing: 402
 * before any work when the balance is empty, one token charged after.
 */
export function createCreditCheck(
  world: World,
  organization: OrganizationFixture,
  kind: CreditCheckKind,
  body: CreditCheckBody,
  links: CreditCheckLinks,
  funds: FundsPolicy,
): Explained<CreditCheckCreateResponse> {
  requireFunds(world, organization, funds, CREDIT_CHECK_PRICE_TOKENS);
  const nowIso = world.clock.iso();
  const input = {
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    phone: body.phone,
    sendEmailInvite: body.sendEmailInvite,
    sendPhoneInvite: body.sendPhoneInvite,
    ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
    ...(body.redirectUrl === undefined ? {} : { redirectUrl: body.redirectUrl }),
  };
  const created = createSession(world, { organization, type: creditCheckSessionType(kind), input, nowIso });
  // The persona and the report are seeded by the session id, known only once the session exists.
  const result = creditCheckAnalysisData({ kind, body, sessionId: created.id, nowIso });
  const stored = recordFinishAnalysis(world, created, result.analysisData);
  const remaining = charge(world, organization, funds, CREDIT_CHECK_PRICE_TOKENS);

  const record = stored.record;
  const response = toCreditCheckCreateJson({
    sessionId: record.id,
    sessionUrl: buildSessionUrl(links.urls.verify, record.id, record.organization_id, record.redirect_url, { scope: world }),
    kind,
    ...(record.external_id === undefined ? {} : { externalId: record.external_id }),
    adminConsoleHref: adminConsoleUrl(links.urls.console, record.id, { scope: world }),
    sessionDetailsHref: sessionDetailsUrl(links.urls.base, record.id, { scope: world }),
  });
  const invitation = sendInvitation(world, {
    kind: 'credit_check_invitation',
    sessionId: record.id,
    link: response.session_url,
    sender: organization.name,
    firstName: body.firstName,
    email: invitedIf(body.sendEmailInvite, body.email, 'send_email_invite'),
    sms: invitedIf(body.sendPhoneInvite, body.phone, 'send_phone_invite'),
  });
  return {
    value: response,
    explanations: [
      result.explanation,
      `${kind === 'hard' ? 'full report with AI insights' : 'score only'} recorded in analysis_data.credit_report when the applicant finishes (hosted page, or POST /__sandbox/sessions/${record.id}/outcome)`,
      invitation.explanation,
      `${CREDIT_CHECK_PRICE_TOKENS} token charged, balance ${remaining}`,
    ],
  };
}
