/**
 * The verbs that drive a session the way a person would: the applicant finishing (or failing,
 * cancelling, letting expire) the hosted page, and the control plane's POST
 * /__sandbox/sessions/{id}/outcome. Each composes the machine's events with the builders so the record
 * ends up as a real run would leave it (analysis, metadata, decline and failure records), and says why.
 *
 * LIMITATIONS:
 * - The analysis is always the same kind for an outcome (a pass, or a low face match); scores vary by
 *   session id but not by the photos actually captured (the hosted page captures none).
 */
import { buildAnalysisData, type AnalysisPerson } from './analysis-data.ts';
import { APPLICANT_COUNTRY, buildApplicantSubmission, buildDeclinedData, buildFailureData, type SubmissionTimes } from './meta-data.ts';
import { outcomeRow, type ApplicantOutcome, type RedirectReason, type RedirectStatus } from './redirect-callback.ts';
import { allowsEvent, DEFAULT_MAX_FAILED_ATTEMPTS, isExpired, transition, type SessionEventType, type TransitionResult } from './session.machine.ts';
import { CONTROL_OUTCOMES, type ControlOutcome, type SessionOutcomeBody, type SessionRecord, type StoredUserProfile } from './sessions.schemas.ts';

export interface OutcomeContext {
  nowIso: string;
  /** The applicant (the session's user profile). */
  user: Pick<StoredUserProfile, 'first_name' | 'last_name' | 'phone'>;
  /** The `auto-decline` scenario: a finished session is declined by the AI. */
  autoDecline?: boolean;
  /** The workflow's failed-attempt limit. */
  maxFailedAttempts?: number;
  /** How many ID documents the workflow asks for (1-3). */
  documents?: 1 | 2 | 3;
  /** When the applicant opened the hosted page, if they did (else the view time is derived). */
  viewedAtIso?: string;
  /** Extra seed parts (e.g. the sandbox seed); the session id is always one. */
  seedParts?: readonly (string | number)[];
}

export interface OutcomeResult {
  result: TransitionResult;
  /** Where the applicant goes: the callback's status and reason (reason absent on success). */
  redirect: { status: RedirectStatus; reason?: RedirectReason };
}

function personOf(user: OutcomeContext['user']): AnalysisPerson {
  const person: AnalysisPerson = { firstName: user.first_name, lastName: user.last_name };
  if (user.phone !== undefined) person.phone = user.phone;
  return person;
}

function seedOf(record: SessionRecord, context: OutcomeContext): (string | number)[] {
  return [...(context.seedParts ?? []), record.id];
}

function submissionTimes(record: SessionRecord, context: OutcomeContext): SubmissionTimes {
  const times: SubmissionTimes = { createdAtIso: record.created_at, submittedAtIso: context.nowIso };
  if (context.viewedAtIso !== undefined) times.viewedAtIso = context.viewedAtIso;
  return times;
}

function submitEvent(record: SessionRecord, context: OutcomeContext) {
  const seed = seedOf(record, context);
  return {
    type: 'submit' as const,
    analysisData: buildAnalysisData('pass', personOf(context.user), seed, { atIso: context.nowIso, documents: context.documents ?? 1 }),
    submission: buildApplicantSubmission(seed, submissionTimes(record, context)),
    country: APPLICANT_COUNTRY,
  };
}

function autoDeclineEvent(record: SessionRecord, context: OutcomeContext) {
  const seed = seedOf(record, context);
  const analysisData = buildAnalysisData('low_face_match', personOf(context.user), seed, { atIso: context.nowIso, documents: context.documents ?? 1 });
  const score = analysisData.compare_faces_data?.face_match_confidence ?? 0;
  return {
    type: 'auto_decline' as const,
    analysisData,
    declinedData: buildDeclinedData({ score, declinedAtIso: context.nowIso }),
    // A decline of an already-submitted session keeps its original submission metadata.
    ...(record.status === 'PENDING' ? { submission: buildApplicantSubmission(seed, submissionTimes(record, context)), country: APPLICANT_COUNTRY } : {}),
  };
}

function failEvent(record: SessionRecord, context: OutcomeContext, count?: number) {
  return {
    type: 'fail' as const,
    failureData: buildFailureData(
      {
        count: count ?? context.maxFailedAttempts ?? DEFAULT_MAX_FAILED_ATTEMPTS,
        lastFailedAtIso: context.nowIso,
        createdAtIso: record.created_at,
        reasons: ['OCR_NAME_MISSING', 'NO_FACE_DETECTED'],
        slots: ['PRIMARY'],
      },
      seedOf(record, context),
    ),
  };
}

/**
 * What happens when the applicant picks an outcome on the hosted page. An expired session does nothing
 * and sends the applicant to the callback with expired / session_expired, whatever was picked.
 */
export function applyApplicantOutcome(record: SessionRecord, outcome: ApplicantOutcome, context: OutcomeContext): OutcomeResult {
  const nowMs = Date.parse(context.nowIso);
  if (isExpired(record, nowMs)) {
    return {
      result: {
        ok: true,
        record,
        from: record.status,
        to: record.status,
        moves: [],
        changed: false,
        explanation: `session ${record.id} expired at ${record.expires_at as string}; redirect with status expired`,
      },
      redirect: { status: 'expired', reason: 'session_expired' },
    };
  }
  const row = outcomeRow(outcome);
  const redirect = row.reason === undefined ? { status: row.status } : { status: row.status, reason: row.reason };
  switch (outcome) {
    case 'success': {
      if (context.autoDecline === true) {
        return { result: transition(record, autoDeclineEvent(record, context), context.nowIso), redirect: { status: 'failed', reason: 'face_mismatch' } };
      }
      return { result: transition(record, submitEvent(record, context), context.nowIso), redirect };
    }
    case 'document_unreadable':
      return { result: transition(record, failEvent(record, context), context.nowIso), redirect };
    case 'face_mismatch':
      return { result: transition(record, autoDeclineEvent(record, context), context.nowIso), redirect };
    case 'internal_error': {
      // Nothing is recorded, but a finished session still refuses (the same checks as cancelling).
      const result = transition(record, { type: 'abandon' }, context.nowIso);
      if (result.ok) result.explanation = `simulated internal error on the hosted page of session ${record.id}; it stays PENDING and can be retried`;
      return { result, redirect };
    }
    case 'user_cancelled':
      return { result: transition(record, { type: 'abandon' }, context.nowIso), redirect };
    case 'session_expired':
      return { result: transition(record, { type: 'expire' }, context.nowIso), redirect };
  }
}

// ─── Control plane ──────────────────────────────────────────────────────────────────────────────────

/**
 * Drives a session to an outcome as the applicant, reviewer or AI would. VERIFIED from PENDING submits
 * first (passing analysis) and then verifies, so the record looks like a real completed run; REJECTED is
 * an AI auto-decline with declinedData; FAILED records `failed_attempts` (default: the workflow's limit).
 * With `autoDecline` (the auto-decline scenario), every outcome that includes the applicant's finish
 * (SUBMITTED, and VERIFIED of a PENDING session) ends REJECTED by the AI instead; a reviewer's decision on
 * an already submitted session is not affected.
 */
export function applyControlOutcome(record: SessionRecord, body: SessionOutcomeBody, context: OutcomeContext): TransitionResult {
  const now = context.nowIso;
  const finishes = body.outcome === 'SUBMITTED' || (body.outcome === 'VERIFIED' && record.status === 'PENDING');
  if (finishes && context.autoDecline === true) {
    const declined = transition(record, autoDeclineEvent(record, context), now);
    if (declined.ok) declined.explanation = `scenario auto-decline: ${body.outcome} requested, the AI declined on finish; ${declined.explanation}`;
    return declined;
  }
  switch (body.outcome) {
    case 'SUBMITTED':
      return transition(record, submitEvent(record, context), now);
    case 'VERIFIED': {
      if (record.status !== 'PENDING') return transition(record, { type: 'verify' }, now);
      const submitted = transition(record, submitEvent(record, context), now);
      if (!submitted.ok) return submitted;
      const verified = transition(submitted.record, { type: 'verify' }, now);
      if (verified.ok) {
        verified.explanation = `${submitted.explanation}; ${verified.explanation}`;
        verified.from = record.status;
        verified.moves = [...submitted.moves, ...verified.moves];
      }
      return verified;
    }
    case 'REJECTED':
      return transition(record, autoDeclineEvent(record, context), now);
    case 'VOIDED':
      return transition(record, { type: 'void' }, now);
    case 'FAILED':
      return transition(record, failEvent(record, context, body.failed_attempts), now);
    case 'abandoned':
      return transition(record, { type: 'abandon' }, now);
    case 'expired':
      return transition(record, { type: 'expire' }, now);
  }
}

/**
 * The machine events a control outcome runs, in order, on a session in this status: what
 * `applyControlOutcome` does, including the auto-decline scenario's AI decline on the applicant's finish.
 */
export function controlOutcomeEvents(outcome: ControlOutcome, status: SessionRecord['status'], autoDecline: boolean): SessionEventType[] {
  const finish: SessionEventType = autoDecline ? 'auto_decline' : 'submit';
  switch (outcome) {
    case 'SUBMITTED':
      return [finish];
    case 'VERIFIED':
      return status !== 'PENDING' ? ['verify'] : autoDecline ? [finish] : [finish, 'verify'];
    case 'REJECTED':
      return ['auto_decline'];
    case 'VOIDED':
      return ['void'];
    case 'FAILED':
      return ['fail'];
    case 'abandoned':
      return ['abandon'];
    case 'expired':
      return ['expire'];
  }
}

/** The control outcomes the session machine allows now: its first event is legal (the rest follow from it). */
export function legalControlOutcomes(record: Pick<SessionRecord, 'status' | 'expires_at'>, nowMs: number, autoDecline: boolean): ControlOutcome[] {
  return CONTROL_OUTCOMES.filter((outcome) => {
    const [first] = controlOutcomeEvents(outcome, record.status, autoDecline);
    return first !== undefined && allowsEvent(record, first, nowMs);
  });
}
