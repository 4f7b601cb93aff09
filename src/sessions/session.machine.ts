/**
 * The hosted session's life cycle as data, and the one place that checks a move is legal.
 *
 *   PENDING ──submit──▶ SUBMITTED ──verify──▶ VERIFIED
 *      │  ╲                 │  ╲────reject──▶ REJECTED
 *      │   ╲─verify/reject  ├──auto_decline─▶ REJECTED (+ meta_data.declinedData)
 *      │                    └──void─────────▶ VOIDED
 *      ├──auto_decline─▶ REJECTED     ├──void──▶ VOIDED
 *      ├──fail / attempt_failed (limit reached)──▶ FAILED (session_progress COMPLETED, failureData)
 *      └──open / abandon / attempt_failed / expire: stays PENDING
 *
 * Terminal: VERIFIED, REJECTED, VOIDED, FAILED. A terminal session refuses every event, which the route
 * answers with 409 ("Session <id> is VERIFIED (terminal); it cannot move to SUBMITTED").
 *
 * Expiry (the spec gives 'expired' only in the redirect callback): an expired session KEEPS status
 * PENDING, because the record's status enum has no expired value and nothing says the service rewrites
 * it. Expiry is derived from `expires_at` on the virtual clock (`isExpired`). From then on the applicant's
 * events (open, submit, abandon, failed attempts, auto-decline) are refused with code EXPIRED; the
 * organization's own moves (verify, reject, void) still work. The `expire` event ends a session's window
 * now by setting `expires_at` to the current instant (how the control plane and the hosted page's
 * 'expired' button make a session expire without waiting).
 *
 * LIMITATIONS:
 * - The spec shows only the auto-decline and failed-attempts transitions; the others are the evident
 *   flow of a hosted session (the real client's update-status takes VERIFIED or REJECTED, and answers 409
 *   for a terminal session). A reviewer cannot reopen or overturn a terminal session here.
 * - Failed attempts are only counted while the session is PENDING (before the applicant submits).
 */
import { DEFAULT_MAX_FAILED_ATTEMPTS } from '../workflows/api.ts';
import { defineMachine } from '../platform/machines/define-machine.ts';
import {
  SESSION_STATUSES,
  type AnalysisData,
  type ApplicantSubmission,
  type DeclinedData,
  type FailedAttempt,
  type FailureData,
  type SessionProgress,
  type SessionRecord,
  type SessionStatus,
} from './sessions.schemas.ts';

export const TERMINAL_STATUSES: readonly SessionStatus[] = ['VERIFIED', 'REJECTED', 'VOIDED', 'FAILED'];

export function isTerminal(status: SessionStatus): boolean {
  return SESSION_MACHINE.isFinal(status);
}

/** How many failed attempts end a session when the workflow does not say (the workflows area's limit). */
export { DEFAULT_MAX_FAILED_ATTEMPTS };

export type SessionActor = 'applicant' | 'reviewer' | 'organization' | 'system';

/** Everything that can happen to a session, with its payload. */
export type SessionEvent =
  | { type: 'open' }
  | {
      type: 'submit';
      analysisData?: AnalysisData;
      submission?: ApplicantSubmission;
      /** The applicant's country, for the record's `location`. */
      country?: string;
    }
  | { type: 'verify' }
  | { type: 'reject' }
  | { type: 'void' }
  | {
      type: 'auto_decline';
      declinedData: DeclinedData;
      analysisData?: AnalysisData;
      submission?: ApplicantSubmission;
      country?: string;
    }
  | { type: 'fail'; failureData: FailureData }
  | { type: 'attempt_failed'; attempt: Omit<FailedAttempt, 'failedAt'>; maxFailedAttempts?: number }
  | { type: 'abandon' }
  | { type: 'expire' };

export type SessionEventType = SessionEvent['type'];

export interface SessionTransition {
  event: SessionEventType;
  trigger: string;
  actor: SessionActor;
  from: readonly SessionStatus[];
  /** Where the session goes, the usual target first; `attempt_failed` goes to FAILED only when the limit is reached. */
  to: readonly [SessionStatus, ...SessionStatus[]];
  /** Refused once the session has expired (the applicant's window is over). */
  needsOpenWindow: boolean;
  /** What the move does besides the status, for the docs and the catalog. */
  effects: string;
  /** Completes "it cannot ..." in a refusal message when the target equals the current status. */
  refusalPhrase: string;
}

/** The transition table. `transition()` reads nothing else to decide legality, nor the status a move leads to. */
export const SESSION_TRANSITIONS: readonly SessionTransition[] = [
  {
    event: 'open',
    trigger: 'applicant opens the hosted page',
    actor: 'applicant',
    from: ['PENDING'],
    to: ['PENDING'],
    needsOpenWindow: true,
    effects: 'session_progress PENDING -> STARTED',
    refusalPhrase: 'be opened by the applicant',
  },
  {
    event: 'submit',
    trigger: 'applicant submits',
    actor: 'applicant',
    from: ['PENDING'],
    to: ['SUBMITTED'],
    needsOpenWindow: true,
    effects: 'session_progress COMPLETED; submitted_at, location, meta_data applicant* and analysis_data recorded',
    refusalPhrase: 'move to SUBMITTED',
  },
  {
    event: 'verify',
    trigger: 'reviewer verifies (PATCH update-status VERIFIED)',
    actor: 'reviewer',
    from: ['PENDING', 'SUBMITTED'],
    to: ['VERIFIED'],
    needsOpenWindow: false,
    effects: 'session_progress COMPLETED',
    refusalPhrase: 'move to VERIFIED',
  },
  {
    event: 'reject',
    trigger: 'reviewer rejects (PATCH update-status REJECTED)',
    actor: 'reviewer',
    from: ['PENDING', 'SUBMITTED'],
    to: ['REJECTED'],
    needsOpenWindow: false,
    effects: 'session_progress COMPLETED',
    refusalPhrase: 'move to REJECTED',
  },
  {
    event: 'void',
    trigger: 'organization voids the session',
    actor: 'organization',
    from: ['PENDING', 'SUBMITTED'],
    to: ['VOIDED'],
    needsOpenWindow: false,
    effects: 'none besides the status',
    refusalPhrase: 'move to VOIDED',
  },
  {
    event: 'auto_decline',
    trigger: 'AI auto-decline: decisive decline reason found',
    actor: 'system',
    from: ['PENDING', 'SUBMITTED'],
    to: ['REJECTED'],
    needsOpenWindow: true,
    effects: 'session_progress COMPLETED; meta_data.declinedData recorded (and the analysis that caused it)',
    refusalPhrase: 'move to REJECTED',
  },
  {
    event: 'fail',
    trigger: "workflow's configured number of failed attempts reached",
    actor: 'system',
    from: ['PENDING'],
    to: ['FAILED'],
    needsOpenWindow: true,
    effects: 'session_progress COMPLETED; meta_data.failureData recorded',
    refusalPhrase: 'move to FAILED',
  },
  {
    event: 'attempt_failed',
    trigger: 'one failed capture attempt (no face, unreadable name, document type not allowed)',
    actor: 'system',
    from: ['PENDING'],
    to: ['PENDING', 'FAILED'],
    needsOpenWindow: true,
    effects: 'attempt appended to meta_data.failureData; FAILED with session_progress COMPLETED when the limit is reached',
    refusalPhrase: 'record a failed attempt',
  },
  {
    event: 'abandon',
    trigger: 'applicant cancels on the hosted page',
    actor: 'applicant',
    from: ['PENDING'],
    to: ['PENDING'],
    needsOpenWindow: true,
    effects: 'none: the applicant may come back while the session has not expired',
    refusalPhrase: 'be abandoned',
  },
  {
    event: 'expire',
    trigger: 'expiry: the session window ends now',
    actor: 'system',
    from: ['PENDING'],
    to: ['PENDING'],
    needsOpenWindow: true,
    effects: 'expires_at set to now; status stays PENDING and applicant events are refused from then on',
    refusalPhrase: 'expire',
  },
];

export const SESSION_MACHINE = defineMachine({
  states: SESSION_STATUSES,
  initial: 'PENDING',
  final: TERMINAL_STATUSES,
  transitions: SESSION_TRANSITIONS,
});

/** True once a PENDING session's `expires_at` has passed on the given clock reading. */
export function isExpired(record: Pick<SessionRecord, 'status' | 'expires_at'>, nowMs: number): boolean {
  if (record.status !== 'PENDING' || record.expires_at === undefined) return false;
  return Date.parse(record.expires_at) <= nowMs;
}

/** What to show a person for the session's state: the status, or 'EXPIRED' for an expired PENDING one. */
export function displayStatus(record: Pick<SessionRecord, 'status' | 'expires_at'>, nowMs: number): SessionStatus | 'EXPIRED' {
  return isExpired(record, nowMs) ? 'EXPIRED' : record.status;
}

/** Whether the table lets `event` happen to the record now (the same checks `transition` makes, in the same order). */
export function allowsEvent(record: Pick<SessionRecord, 'status' | 'expires_at'>, event: SessionEventType, nowMs: number): boolean {
  const row = transitionFor(event);
  return !isTerminal(record.status) && row.from.includes(record.status) && !(row.needsOpenWindow && isExpired(record, nowMs));
}

export type RefusalCode = 'TERMINAL' | 'NOT_ALLOWED_FROM_STATE' | 'EXPIRED';

export interface TransitionRefusal {
  ok: false;
  code: RefusalCode;
  sessionId: string;
  from: SessionStatus;
  /** The refused event, or 'uploads' for the uploads operation. */
  event: SessionEventType | 'uploads';
  /** A sentence for the 409 body, naming the session, its state and why. */
  message: string;
}

/** One row of the table applied: the event, and the status before and after. */
export interface SessionMove {
  event: SessionEventType;
  from: SessionStatus;
  to: SessionStatus;
}

export interface TransitionSuccess {
  ok: true;
  record: SessionRecord;
  from: SessionStatus;
  to: SessionStatus;
  /** The moves made, in order (two when a control outcome submits and then verifies). */
  moves: SessionMove[];
  /** False when the event was legal but changed nothing (e.g. opening an already-started session). */
  changed: boolean;
  /** ASCII, for the X-Sandbox-Explain header. */
  explanation: string;
}

export type TransitionResult = TransitionSuccess | TransitionRefusal;

export function transitionFor(event: SessionEventType): SessionTransition {
  return SESSION_MACHINE.moveOf(event);
}

/**
 * Applies one event: checks legality against SESSION_TRANSITIONS (terminal, allowed source state,
 * expiry) and returns the new record, or a typed refusal. Never mutates its input.
 */
export function transition(record: SessionRecord, event: SessionEvent, nowIso: string): TransitionResult {
  const row = transitionFor(event.type);
  const from = record.status;
  const refuse = (code: RefusalCode, message: string): TransitionRefusal => ({
    ok: false,
    code,
    sessionId: record.id,
    from,
    event: event.type,
    message,
  });
  const [target] = row.to;
  // A move to another state reads "cannot move to X"; a self-loop (open, abandon, expire) names the act.
  const phrase = row.to.length === 1 && !row.from.includes(target) ? `move to ${target}` : row.refusalPhrase;

  if (isTerminal(from)) return refuse('TERMINAL', `Session ${record.id} is ${from} (terminal); it cannot ${phrase}`);
  if (!row.from.includes(from)) {
    return refuse(
      'NOT_ALLOWED_FROM_STATE',
      `Session ${record.id} is ${from}; it cannot ${phrase}: "${row.trigger}" is only possible from ${row.from.join(' or ')}`,
    );
  }
  const nowMs = Date.parse(nowIso);
  if (row.needsOpenWindow && isExpired(record, nowMs)) {
    return refuse('EXPIRED', `Session ${record.id} expired at ${record.expires_at as string}; it cannot ${phrase} (create a new session for the applicant)`);
  }

  const next = cloneRecord(record);
  // The status comes from the row: its target, or (attempt_failed) the one of its targets the effect picks.
  const done = (explanation: string, changed = true, to: SessionStatus = target): TransitionSuccess => {
    if (!row.to.includes(to)) throw new Error(`${event.type} declares no move to ${to}`);
    if (changed) {
      next.status = to;
      next.updated_at = nowIso;
    }
    return {
      ok: true,
      record: changed ? next : record,
      from,
      to: changed ? to : from,
      moves: [{ event: event.type, from, to: changed ? to : from }],
      changed,
      explanation,
    };
  };

  switch (event.type) {
    case 'open': {
      if (record.session_progress !== 'PENDING') return done(`session ${record.id} already ${record.session_progress}`, false);
      next.session_progress = 'STARTED';
      return done(`applicant opened session ${record.id}: session_progress PENDING -> STARTED`);
    }
    case 'submit': {
      recordSubmission(next, nowIso, event.submission, event.country, 'COMPLETED');
      if (event.analysisData !== undefined) next.analysis_data = structuredClone(event.analysisData);
      return done(`applicant submitted session ${record.id}: PENDING -> SUBMITTED`);
    }
    case 'verify':
    case 'reject': {
      next.session_progress = 'COMPLETED';
      return done(`reviewer decision on session ${record.id}: ${from} -> ${target}`);
    }
    case 'void': {
      return done(`session ${record.id} voided: ${from} -> VOIDED`);
    }
    case 'auto_decline': {
      if (next.submitted_at === undefined || event.submission !== undefined) {
        recordSubmission(next, nowIso, event.submission, event.country, 'COMPLETED');
      }
      next.session_progress = 'COMPLETED';
      if (event.analysisData !== undefined) next.analysis_data = structuredClone(event.analysisData);
      next.meta_data = { ...(next.meta_data ?? {}), declinedData: structuredClone(event.declinedData) };
      const reason = event.declinedData.reason;
      return done(
        `AI auto-decline of session ${record.id}: ${reason.code} on ${reason.slot} (${reason.severity}), score ${event.declinedData.score}: ${from} -> REJECTED`,
      );
    }
    case 'fail': {
      next.session_progress = 'COMPLETED';
      next.meta_data = { ...(next.meta_data ?? {}), failureData: structuredClone(event.failureData) };
      return done(`session ${record.id} failed after ${event.failureData.failedAttempts} failed attempts: PENDING -> FAILED`);
    }
    case 'attempt_failed': {
      const limit = event.maxFailedAttempts ?? DEFAULT_MAX_FAILED_ATTEMPTS;
      const previous = record.meta_data?.failureData;
      const attempts = [...(previous?.attempts ?? []).map((a) => ({ ...a })), { ...event.attempt, failedAt: nowIso }];
      const failureData: FailureData = { failedAttempts: attempts.length, attempts };
      next.meta_data = { ...(next.meta_data ?? {}), failureData };
      if (attempts.length >= limit) {
        next.session_progress = 'COMPLETED';
        return done(
          `failed attempt ${attempts.length} of ${limit} (${event.attempt.reason} on ${event.attempt.slot}) on session ${record.id}: PENDING -> FAILED`,
          true,
          'FAILED',
        );
      }
      if (next.session_progress === 'PENDING') next.session_progress = 'STARTED';
      return done(
        `failed attempt ${attempts.length} of ${limit} (${event.attempt.reason} on ${event.attempt.slot}) on session ${record.id}; ${limit - attempts.length} left`,
      );
    }
    case 'abandon':
      return done(`applicant abandoned session ${record.id}; it stays PENDING until it expires`, false);
    case 'expire': {
      next.expires_at = nowIso;
      return done(`session ${record.id} expired at ${nowIso}; status stays PENDING, the applicant can no longer finish it`);
    }
  }
}

function recordSubmission(
  next: SessionRecord,
  nowIso: string,
  submission: ApplicantSubmission | undefined,
  country: string | undefined,
  progress: SessionProgress,
): void {
  next.session_progress = progress;
  next.submitted_at = nowIso;
  if (submission !== undefined) next.meta_data = { ...(next.meta_data ?? {}), ...structuredClone(submission) };
  const where = country ?? submission?.applicantSubmissionLocationDetails.country;
  if (where !== undefined) next.location = { country: where };
}

function cloneRecord(record: SessionRecord): SessionRecord {
  return structuredClone(record);
}

/** The event of PATCH /v1/sessions/{id}/update-status. */
export function updateStatusEvent(newStatus: 'VERIFIED' | 'REJECTED'): SessionEvent {
  return newStatus === 'VERIFIED' ? { type: 'verify' } : { type: 'reject' };
}

/**
 * Whether POST /v1/sessions/{id}/uploads may issue URLs (and a PUT may land): not for a terminal session
 * (the real client's tests show 409) nor for an expired one. Undefined means allowed.
 */
export function uploadsRefusal(record: SessionRecord, nowIso: string): TransitionRefusal | undefined {
  const base = { ok: false as const, sessionId: record.id, from: record.status, event: 'uploads' as const };
  if (isTerminal(record.status)) {
    return { ...base, code: 'TERMINAL', message: `Session ${record.id} is ${record.status} (terminal); it no longer accepts uploads` };
  }
  if (isExpired(record, Date.parse(nowIso))) {
    return {
      ...base,
      code: 'EXPIRED',
      message: `Session ${record.id} expired at ${record.expires_at as string}; it no longer accepts uploads (create a new session for the applicant)`,
    };
  }
  return undefined;
}
