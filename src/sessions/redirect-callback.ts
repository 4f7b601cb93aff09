/**
 * The outcome callback by redirect ('Events'): when a session was created with redirect_url, the
 * applicant's browser is sent there at session end with `session_id`, `status` (success, failed,
 * abandoned, expired) and `reason` (omitted on success). This file holds the outcomes the hosted page
 * offers, what each does to the session, and the URL builder.
 *
 * LIMITATIONS:
 * - `unknown` is a documented reason but no page button produces it (it is the service's catch-all);
 *   `redirectUrlFor` accepts any reason string, since clients must tolerate new ones.
 * - What each outcome does to the record is a choice (the spec only names the callback values):
 *   internal_error and user_cancelled leave the session PENDING so the applicant can come back.
 */
import type { SessionEventType } from './session.machine.ts';
import type { SessionStatus } from './sessions.schemas.ts';

export const REDIRECT_STATUSES = ['success', 'failed', 'abandoned', 'expired'] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

export const REDIRECT_REASONS = ['document_unreadable', 'face_mismatch', 'session_expired', 'internal_error', 'user_cancelled', 'unknown'] as const;
export type RedirectReason = (typeof REDIRECT_REASONS)[number];

/** The buttons of the applicant's page, one per outcome the callback can carry. */
export const APPLICANT_OUTCOMES = ['success', 'document_unreadable', 'face_mismatch', 'internal_error', 'user_cancelled', 'session_expired'] as const;
export type ApplicantOutcome = (typeof APPLICANT_OUTCOMES)[number];

export interface ApplicantOutcomeRow {
  outcome: ApplicantOutcome;
  /** The button's label on the hosted page. */
  label: string;
  status: RedirectStatus;
  /** Absent on success: the callback omits reason then. */
  reason?: RedirectReason;
  /** The session event the outcome applies, or null when the session is left as it is. */
  event: SessionEventType | null;
  /** The record's status afterwards (when the session was PENDING). */
  resultingStatus: SessionStatus;
  description: string;
}

export const APPLICANT_OUTCOME_TABLE: readonly ApplicantOutcomeRow[] = [
  {
    outcome: 'success',
    label: 'Finish verification',
    status: 'success',
    event: 'submit',
    resultingStatus: 'SUBMITTED',
    description:
      'The applicant completes every step: SUBMITTED with passing analysis_data and the submission metadata. With the auto-decline scenario active the AI declines instead: REJECTED with declinedData LOW_FACE_MATCH, and the callback says failed / face_mismatch.',
  },
  {
    outcome: 'document_unreadable',
    label: 'Fail: ID could not be read',
    status: 'failed',
    reason: 'document_unreadable',
    event: 'fail',
    resultingStatus: 'FAILED',
    description:
      "The ID cannot be processed until the workflow's failed-attempt limit (default 3) is reached: FAILED, session_progress COMPLETED, meta_data.failureData with OCR_NAME_MISSING / NO_FACE_DETECTED attempts on the PRIMARY slot.",
  },
  {
    outcome: 'face_mismatch',
    label: 'Fail: selfie does not match the ID',
    status: 'failed',
    reason: 'face_mismatch',
    event: 'auto_decline',
    resultingStatus: 'REJECTED',
    description:
      'The selfie does not match the document photo: AI auto-decline, REJECTED with meta_data.declinedData (LOW_FACE_MATCH, PRIMARY, CRITICAL) and failing face-match analysis.',
  },
  {
    outcome: 'internal_error',
    label: 'Fail: internal error',
    status: 'failed',
    reason: 'internal_error',
    event: null,
    resultingStatus: 'PENDING',
    description: 'The page hits an internal error: the session is left PENDING and the applicant may retry the same link.',
  },
  {
    outcome: 'user_cancelled',
    label: 'Cancel',
    status: 'abandoned',
    reason: 'user_cancelled',
    event: 'abandon',
    resultingStatus: 'PENDING',
    description: 'The applicant cancels: the session stays PENDING until it expires, and the link keeps working.',
  },
  {
    outcome: 'session_expired',
    label: 'Let the session expire',
    status: 'expired',
    reason: 'session_expired',
    event: 'expire',
    resultingStatus: 'PENDING',
    description:
      'The session expires now (expires_at set to the current time): status stays PENDING and the applicant can no longer finish it. Opening any expired session redirects with this outcome.',
  },
];

export function outcomeRow(outcome: ApplicantOutcome): ApplicantOutcomeRow {
  const row = APPLICANT_OUTCOME_TABLE.find((candidate) => candidate.outcome === outcome);
  if (!row) throw new Error(`unknown applicant outcome ${outcome}`);
  return row;
}

export function isApplicantOutcome(value: string): value is ApplicantOutcome {
  return (APPLICANT_OUTCOMES as readonly string[]).includes(value);
}

const CALLBACK_KEYS = new Set(['session_id', 'status', 'reason']);

/**
 * redirect_url with session_id, status and (unless status is success) reason appended. The URL's own
 * query parameters and fragment are kept byte for byte; earlier session_id/status/reason parameters are
 * replaced so the callback's values are the only ones.
 */
export function redirectUrlFor(redirectUrl: string, sessionId: string, status: RedirectStatus, reason?: string): string {
  const hashAt = redirectUrl.indexOf('#');
  const withoutHash = hashAt === -1 ? redirectUrl : redirectUrl.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : redirectUrl.slice(hashAt);
  const queryAt = withoutHash.indexOf('?');
  const path = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const query = queryAt === -1 ? '' : withoutHash.slice(queryAt + 1);

  const kept = query.split('&').filter((pair) => {
    if (pair === '') return false;
    const rawKey = pair.split('=')[0] ?? '';
    let key: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      key = rawKey;
    }
    return !CALLBACK_KEYS.has(key);
  });
  const added = [`session_id=${encodeURIComponent(sessionId)}`, `status=${encodeURIComponent(status)}`];
  if (status !== 'success' && reason !== undefined) added.push(`reason=${encodeURIComponent(reason)}`);
  return `${path}?${[...kept, ...added].join('&')}${hash}`;
}

/** What a finished workflow run reads as: its status, and the failure of the step that ended it. */
export interface WorkflowRunEnd {
  sessionStatus: string;
  expired: boolean;
  /** The failure that ended the run (its WORKFLOW_FAILURES code and category), when a step failed. */
  failure?: { code: string; category: string };
}

/** Declining a consent is the applicant leaving, not a failed check. */
const DECLINED_CONSENTS = new Set(['CONSENT_DECLINED', 'BIOMETRIC_CONSENT_DECLINED']);

/** The reason a failed step's category gives the callback: documents → document_unreadable, faces → face_mismatch. */
const REASON_OF_CATEGORY: Record<string, RedirectReason> = {
  DOCUMENT: 'document_unreadable',
  SELFIE: 'face_mismatch',
  FACE_MATCH: 'face_mismatch',
  LIVENESS: 'face_mismatch',
};

/**
 * The callback of a workflow run the applicant walked on the page: success once submitted or verified,
 * expired when the link expired, abandoned / user_cancelled when a consent was declined, else failed with
 * the reason the ending step's failure category gives (unknown for the other steps' failures).
 */
export function workflowCallback(end: WorkflowRunEnd): { status: RedirectStatus; reason?: RedirectReason } {
  if (end.sessionStatus === 'SUBMITTED' || end.sessionStatus === 'VERIFIED') return { status: 'success' };
  if (end.expired) return { status: 'expired', reason: 'session_expired' };
  if (end.failure !== undefined && DECLINED_CONSENTS.has(end.failure.code)) return { status: 'abandoned', reason: 'user_cancelled' };
  return { status: 'failed', reason: (end.failure === undefined ? undefined : REASON_OF_CATEGORY[end.failure.category]) ?? 'unknown' };
}
