import { describe, expect, it } from 'vitest';
import { buildAnalysisData } from '../../src/sessions/analysis-data.ts';
import { buildApplicantSubmission, buildDeclinedData, buildFailureData } from '../../src/sessions/meta-data.ts';
import {
  displayStatus,
  isExpired,
  SESSION_TRANSITIONS,
  TERMINAL_STATUSES,
  transition,
  updateStatusEvent,
  uploadsRefusal,
  type SessionEvent,
  type TransitionResult,
  type TransitionSuccess,
} from '../../src/sessions/session.machine.ts';
import { SESSION_STATUSES, SessionRecordSchema, type SessionRecord, type SessionStatus } from '../../src/sessions/sessions.schemas.ts';
import { addMs, forbiddenNullPaths, NOW, NOW_MS, pendingRecord, SESSION_ID } from './helpers.ts';

const LATER = addMs(NOW, 60_000);

function ok(result: TransitionResult): TransitionSuccess {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  expect(forbiddenNullPaths(result.record)).toEqual([]);
  SessionRecordSchema.parse(result.record);
  return result;
}

function inStatus(status: SessionStatus): SessionRecord {
  return { ...pendingRecord(), status };
}

const analysis = buildAnalysisData('pass', { firstName: 'Jane', lastName: 'Doe' }, [SESSION_ID], { atIso: LATER });
const lowMatch = buildAnalysisData('low_face_match', { firstName: 'Jane', lastName: 'Doe' }, [SESSION_ID], { atIso: LATER });
const submission = buildApplicantSubmission([SESSION_ID], { createdAtIso: NOW, submittedAtIso: LATER });
const declinedData = buildDeclinedData({ score: 42.3, declinedAtIso: LATER });
const failureData = buildFailureData({ count: 3, lastFailedAtIso: LATER, createdAtIso: NOW }, [SESSION_ID]);

/** One sample event of each type. */
const EVENTS: Record<SessionEvent['type'], SessionEvent> = {
  open: { type: 'open' },
  submit: { type: 'submit', analysisData: analysis, submission, country: 'United States' },
  verify: { type: 'verify' },
  reject: { type: 'reject' },
  void: { type: 'void' },
  auto_decline: { type: 'auto_decline', declinedData, analysisData: lowMatch, submission },
  fail: { type: 'fail', failureData },
  attempt_failed: { type: 'attempt_failed', attempt: { reason: 'NO_FACE_DETECTED', slot: 'PRIMARY' } },
  abandon: { type: 'abandon' },
  expire: { type: 'expire' },
};

describe('session state machine', () => {
  it('declares VERIFIED, REJECTED, VOIDED and FAILED terminal', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(['FAILED', 'REJECTED', 'VERIFIED', 'VOIDED']);
  });

  it('allows exactly the moves of the table and refuses every other pair of state and event', () => {
    for (const row of SESSION_TRANSITIONS) {
      for (const status of SESSION_STATUSES) {
        const result = transition(inStatus(status), EVENTS[row.event], LATER);
        const legal = row.from.includes(status);
        expect({ event: row.event, status, ok: result.ok }).toEqual({ event: row.event, status, ok: legal });
        if (result.ok) expect(row.to).toContain(result.to);
        else expect(result.code).toBe(TERMINAL_STATUSES.includes(status) ? 'TERMINAL' : 'NOT_ALLOWED_FROM_STATE');
      }
    }
  });

  it('submits a pending session: SUBMITTED, progress COMPLETED, submission, location and analysis recorded', () => {
    const result = ok(transition(pendingRecord(), EVENTS.submit, LATER));
    expect(result.to).toBe('SUBMITTED');
    expect(result.record.status).toBe('SUBMITTED');
    expect(result.record.session_progress).toBe('COMPLETED');
    expect(result.record.submitted_at).toBe(LATER);
    expect(result.record.updated_at).toBe(LATER);
    expect(result.record.created_at).toBe(NOW);
    expect(result.record.location).toEqual({ country: 'United States' });
    expect(result.record.analysis_data).toEqual(analysis);
    expect(result.record.meta_data).toEqual(submission);
    expect(result.explanation).toBe(`applicant submitted session ${SESSION_ID}: PENDING -> SUBMITTED`);
  });

  it('never mutates the record it is given', () => {
    const record = pendingRecord();
    const before = JSON.stringify(record);
    ok(transition(record, EVENTS.submit, LATER));
    ok(transition(record, EVENTS.fail, LATER));
    expect(JSON.stringify(record)).toBe(before);
  });

  it('lets a reviewer verify or reject a submitted session, completing it', () => {
    const submitted = ok(transition(pendingRecord(), EVENTS.submit, LATER)).record;
    const verified = ok(transition(submitted, { type: 'verify' }, addMs(LATER, 1000)));
    expect([verified.record.status, verified.record.session_progress, verified.record.updated_at]).toEqual(['VERIFIED', 'COMPLETED', addMs(LATER, 1000)]);
    expect(verified.record.analysis_data).toEqual(analysis);
    const rejected = ok(transition(submitted, { type: 'reject' }, LATER));
    expect([rejected.record.status, rejected.record.session_progress]).toEqual(['REJECTED', 'COMPLETED']);
  });

  it('lets a reviewer decide a session that was never submitted (update-status from PENDING)', () => {
    expect(ok(transition(pendingRecord(), { type: 'verify' }, LATER)).record.status).toBe('VERIFIED');
  });

  it('voids pending and submitted sessions without touching their progress', () => {
    const voided = ok(transition(pendingRecord(), { type: 'void' }, LATER));
    expect([voided.record.status, voided.record.session_progress]).toEqual(['VOIDED', 'PENDING']);
  });

  it('auto-declines to REJECTED with declinedData and the failing analysis', () => {
    const result = ok(transition(pendingRecord(), EVENTS.auto_decline, LATER));
    expect(result.record.status).toBe('REJECTED');
    expect(result.record.session_progress).toBe('COMPLETED');
    expect(result.record.meta_data?.declinedData).toEqual(declinedData);
    expect(result.record.analysis_data?.compare_faces_data?.face_match_result).toBe('NO_MATCH');
    expect(result.explanation).toBe(`AI auto-decline of session ${SESSION_ID}: LOW_FACE_MATCH on PRIMARY (CRITICAL), score 42.3: PENDING -> REJECTED`);
  });

  it('auto-declines a submitted session, keeping its submission time', () => {
    const submitted = ok(transition(pendingRecord(), EVENTS.submit, LATER)).record;
    const declined = ok(transition(submitted, { type: 'auto_decline', declinedData }, addMs(LATER, 5000)));
    expect(declined.record.submitted_at).toBe(LATER);
    expect(declined.record.status).toBe('REJECTED');
  });

  it('fails a session with failureData and session_progress COMPLETED', () => {
    const result = ok(transition(pendingRecord(), EVENTS.fail, LATER));
    expect([result.record.status, result.record.session_progress]).toEqual(['FAILED', 'COMPLETED']);
    expect(result.record.meta_data?.failureData).toEqual(failureData);
  });

  it('counts failed attempts and fails the session when the limit is reached', () => {
    const attempt = (record: SessionRecord, at: string) =>
      ok(transition(record, { type: 'attempt_failed', attempt: { reason: 'OCR_NAME_MISSING', slot: 'SECONDARY' }, maxFailedAttempts: 3 }, at));
    const first = attempt(pendingRecord(), addMs(NOW, 1000));
    expect([first.to, first.record.session_progress]).toEqual(['PENDING', 'STARTED']);
    expect(first.explanation).toBe(`failed attempt 1 of 3 (OCR_NAME_MISSING on SECONDARY) on session ${SESSION_ID}; 2 left`);
    const second = attempt(first.record, addMs(NOW, 2000));
    const third = attempt(second.record, addMs(NOW, 3000));
    expect([third.to, third.record.status, third.record.session_progress]).toEqual(['FAILED', 'FAILED', 'COMPLETED']);
    expect(third.record.meta_data?.failureData).toEqual({
      failedAttempts: 3,
      attempts: [1000, 2000, 3000].map((ms) => ({ reason: 'OCR_NAME_MISSING', slot: 'SECONDARY', failedAt: addMs(NOW, ms) })),
    });
  });

  it('marks an opened session STARTED once, and changes nothing the second time', () => {
    const opened = ok(transition(pendingRecord(), { type: 'open' }, LATER));
    expect([opened.changed, opened.record.session_progress, opened.record.updated_at]).toEqual([true, 'STARTED', LATER]);
    const again = ok(transition(opened.record, { type: 'open' }, addMs(LATER, 1)));
    expect(again.changed).toBe(false);
    expect(again.record).toBe(opened.record);
  });

  it('leaves an abandoned session PENDING and unchanged', () => {
    const record = pendingRecord();
    const result = ok(transition(record, { type: 'abandon' }, LATER));
    expect([result.changed, result.to, result.record]).toEqual([false, 'PENDING', record]);
  });

  it('refuses any move of a terminal session with a message naming the session, its state and the target', () => {
    const result = transition(inStatus('VERIFIED'), EVENTS.submit, LATER);
    expect(result).toEqual({
      ok: false,
      code: 'TERMINAL',
      sessionId: SESSION_ID,
      from: 'VERIFIED',
      event: 'submit',
      message: `Session ${SESSION_ID} is VERIFIED (terminal); it cannot move to SUBMITTED`,
    });
    const open = transition(inStatus('FAILED'), { type: 'open' }, LATER);
    expect(open.ok ? '' : open.message).toBe(`Session ${SESSION_ID} is FAILED (terminal); it cannot be opened by the applicant`);
  });

  it('refuses a second submission of a submitted session, naming where it is allowed from', () => {
    const result = transition(inStatus('SUBMITTED'), EVENTS.submit, LATER);
    expect(result.ok ? '' : [result.code, result.message]).toEqual([
      'NOT_ALLOWED_FROM_STATE',
      `Session ${SESSION_ID} is SUBMITTED; it cannot move to SUBMITTED: "applicant submits" is only possible from PENDING`,
    ]);
  });
});

describe('session expiry', () => {
  it('is derived from expires_at on the clock, only while PENDING', () => {
    const record = pendingRecord({ expiresInHours: 2 });
    expect(record.expires_at).toBe(addMs(NOW, 2 * 3_600_000));
    expect(isExpired(record, NOW_MS + 2 * 3_600_000 - 1)).toBe(false);
    expect(isExpired(record, NOW_MS + 2 * 3_600_000)).toBe(true);
    expect(displayStatus(record, NOW_MS + 2 * 3_600_000)).toBe('EXPIRED');
    expect(isExpired({ ...record, status: 'SUBMITTED' }, NOW_MS + 3 * 3_600_000)).toBe(false);
    expect(isExpired(pendingRecord(), Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('refuses the applicant once the session has expired but lets the organization decide', () => {
    const record = pendingRecord({ expiresInHours: 1 });
    const after = addMs(NOW, 3_600_000);
    const refused = transition(record, EVENTS.submit, after);
    expect(refused.ok ? '' : [refused.code, refused.message]).toEqual([
      'EXPIRED',
      `Session ${SESSION_ID} expired at ${addMs(NOW, 3_600_000)}; it cannot move to SUBMITTED (create a new session for the applicant)`,
    ]);
    for (const type of ['open', 'abandon', 'attempt_failed', 'fail', 'auto_decline', 'expire'] as const) {
      expect(transition(record, EVENTS[type], after).ok).toBe(false);
    }
    expect(ok(transition(record, { type: 'void' }, after)).record.status).toBe('VOIDED');
    expect(ok(transition(record, { type: 'reject' }, after)).record.status).toBe('REJECTED');
  });

  it('expires a session now: status stays PENDING, expires_at becomes the current instant', () => {
    const result = ok(transition(pendingRecord({ expiresInHours: 48 }), { type: 'expire' }, LATER));
    expect([result.record.status, result.record.expires_at, result.record.updated_at]).toEqual(['PENDING', LATER, LATER]);
    expect(isExpired(result.record, Date.parse(LATER))).toBe(true);
    expect(ok(transition(pendingRecord(), { type: 'expire' }, LATER)).record.expires_at).toBe(LATER);
  });
});

describe('update-status and uploads', () => {
  it('maps new_status to the reviewer events and refuses a terminal session with the 409 message', () => {
    expect(ok(transition(pendingRecord(), updateStatusEvent('VERIFIED'), LATER)).record.status).toBe('VERIFIED');
    expect(ok(transition(pendingRecord(), updateStatusEvent('REJECTED'), LATER)).record.status).toBe('REJECTED');
    const refused = transition(inStatus('REJECTED'), updateStatusEvent('VERIFIED'), LATER);
    expect(refused.ok ? '' : refused.message).toBe(`Session ${SESSION_ID} is REJECTED (terminal); it cannot move to VERIFIED`);
  });

  it('accepts uploads for open sessions only', () => {
    expect(uploadsRefusal(pendingRecord(), LATER)).toBeUndefined();
    expect(uploadsRefusal(inStatus('SUBMITTED'), LATER)).toBeUndefined();
    expect(uploadsRefusal(inStatus('VOIDED'), LATER)).toEqual({
      ok: false,
      code: 'TERMINAL',
      sessionId: SESSION_ID,
      from: 'VOIDED',
      event: 'uploads',
      message: `Session ${SESSION_ID} is VOIDED (terminal); it no longer accepts uploads`,
    });
    expect(uploadsRefusal(pendingRecord({ expiresInHours: 1 }), addMs(NOW, 3_600_000))?.code).toBe('EXPIRED');
  });
});
