import { describe, expect, it } from 'vitest';
import { APPLICANT_OUTCOME_TABLE, APPLICANT_OUTCOMES, redirectUrlFor } from '../../src/sessions/redirect-callback.ts';
import { applyApplicantOutcome, applyControlOutcome } from '../../src/sessions/session-outcomes.ts';
import { SessionOutcomeBodySchema, SessionRecordSchema, type SessionRecord } from '../../src/sessions/sessions.schemas.ts';
import { addMs, forbiddenNullPaths, NOW, pendingRecord, SESSION_ID } from './helpers.ts';

const LATER = addMs(NOW, 10 * 60_000);
const user = { first_name: 'Jane', last_name: 'Doe', phone: '+14155550123' };
const context = { nowIso: LATER, user };

function record(result: { ok: boolean; record?: SessionRecord; message?: string }): SessionRecord {
  if (!result.ok || result.record === undefined) throw new Error(`expected success: ${result.message ?? ''}`);
  expect(SessionRecordSchema.parse(result.record)).toEqual(result.record);
  expect(forbiddenNullPaths(result.record)).toEqual([]);
  return result.record;
}

describe('redirect callback URL', () => {
  const base = 'https://app.example.com/kyc/done';

  it('appends session_id and status, and no reason, on success', () => {
    expect(redirectUrlFor(base, SESSION_ID, 'success')).toBe(`${base}?session_id=${SESSION_ID}&status=success`);
    expect(redirectUrlFor(base, SESSION_ID, 'success', 'unknown')).toBe(`${base}?session_id=${SESSION_ID}&status=success`);
  });

  it('gives the expected query for every outcome of the page', () => {
    const urls = Object.fromEntries(APPLICANT_OUTCOME_TABLE.map((row) => [row.outcome, redirectUrlFor(base, 's1', row.status, row.reason)]));
    expect(urls).toEqual({
      success: `${base}?session_id=s1&status=success`,
      document_unreadable: `${base}?session_id=s1&status=failed&reason=document_unreadable`,
      face_mismatch: `${base}?session_id=s1&status=failed&reason=face_mismatch`,
      internal_error: `${base}?session_id=s1&status=failed&reason=internal_error`,
      user_cancelled: `${base}?session_id=s1&status=abandoned&reason=user_cancelled`,
      session_expired: `${base}?session_id=s1&status=expired&reason=session_expired`,
    });
    expect(APPLICANT_OUTCOME_TABLE.map((row) => row.outcome)).toEqual([...APPLICANT_OUTCOMES]);
  });

  it("keeps the URL's own query parameters byte for byte and its fragment", () => {
    expect(redirectUrlFor('https://app.example.com/done?a=1&b=x%20y&c=+plus#top', 's1', 'failed', 'face_mismatch')).toBe(
      'https://app.example.com/done?a=1&b=x%20y&c=+plus&session_id=s1&status=failed&reason=face_mismatch#top',
    );
    expect(redirectUrlFor('https://app.example.com/done?', 's1', 'success')).toBe('https://app.example.com/done?session_id=s1&status=success');
  });

  it('replaces stale callback parameters so the values are unambiguous', () => {
    expect(redirectUrlFor('https://app.example.com/done?status=old&keep=1&reason=x&session%5Fid=z', 's1', 'success')).toBe(
      'https://app.example.com/done?keep=1&session_id=s1&status=success',
    );
  });

  it('percent-encodes the session id', () => {
    expect(redirectUrlFor('https://a.example', 'a&b=c', 'expired', 'session_expired')).toBe(
      'https://a.example?session_id=a%26b%3Dc&status=expired&reason=session_expired',
    );
  });
});

describe("the applicant's outcomes", () => {
  it('success submits the session with passing analysis and submission metadata', () => {
    const { result, redirect } = applyApplicantOutcome(pendingRecord(), 'success', context);
    const after = record(result);
    expect(redirect).toEqual({ status: 'success' });
    expect([after.status, after.session_progress, after.submitted_at]).toEqual(['SUBMITTED', 'COMPLETED', LATER]);
    expect(after.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(after.analysis_data?.phone_checks?.ownership?.outcome).toBe('MATCH');
    expect(after.meta_data?.applicantSubmissionIp).toBeDefined();
    expect(after.location).toEqual({ country: 'United States' });
  });

  it('success under the auto-decline scenario ends REJECTED with declinedData and a face_mismatch callback', () => {
    const { result, redirect } = applyApplicantOutcome(pendingRecord(), 'success', { ...context, autoDecline: true });
    const after = record(result);
    expect(redirect).toEqual({ status: 'failed', reason: 'face_mismatch' });
    expect(after.status).toBe('REJECTED');
    expect(after.meta_data?.declinedData?.reason.code).toBe('LOW_FACE_MATCH');
    expect(after.meta_data?.declinedData?.score).toBe(after.analysis_data?.compare_faces_data?.face_match_confidence);
    expect(after.analysis_data?.id_matches_selfie).toBe(false);
  });

  it("document_unreadable fails the session after the workflow's attempts", () => {
    const { result, redirect } = applyApplicantOutcome(pendingRecord(), 'document_unreadable', { ...context, maxFailedAttempts: 4 });
    const after = record(result);
    expect(redirect).toEqual({ status: 'failed', reason: 'document_unreadable' });
    expect([after.status, after.session_progress]).toEqual(['FAILED', 'COMPLETED']);
    expect(after.meta_data?.failureData?.failedAttempts).toBe(4);
    expect(after.meta_data?.failureData?.attempts.map((a) => a.reason)).toEqual([
      'OCR_NAME_MISSING',
      'NO_FACE_DETECTED',
      'OCR_NAME_MISSING',
      'NO_FACE_DETECTED',
    ]);
  });

  it('face_mismatch is an AI auto-decline with a failing face match', () => {
    const { result, redirect } = applyApplicantOutcome(pendingRecord(), 'face_mismatch', context);
    const after = record(result);
    expect(redirect).toEqual({ status: 'failed', reason: 'face_mismatch' });
    expect(after.status).toBe('REJECTED');
    expect(after.analysis_data?.compare_faces_data?.face_match_result).toBe('NO_MATCH');
    expect(after.meta_data?.declinedData).toMatchObject({ declined: true, reason: { code: 'LOW_FACE_MATCH', slot: 'PRIMARY', severity: 'CRITICAL' } });
  });

  it('internal_error and user_cancelled leave the session PENDING and unchanged', () => {
    const before = pendingRecord();
    for (const outcome of ['internal_error', 'user_cancelled'] as const) {
      const { result, redirect } = applyApplicantOutcome(before, outcome, context);
      expect(record(result)).toEqual(before);
      expect(redirect).toEqual(
        outcome === 'internal_error' ? { status: 'failed', reason: 'internal_error' } : { status: 'abandoned', reason: 'user_cancelled' },
      );
    }
  });

  it('session_expired expires the session now', () => {
    const { result, redirect } = applyApplicantOutcome(pendingRecord({ expiresInHours: 24 }), 'session_expired', context);
    expect(redirect).toEqual({ status: 'expired', reason: 'session_expired' });
    expect(record(result)).toMatchObject({ status: 'PENDING', expires_at: LATER });
  });

  it('an expired session changes nothing and redirects expired, whichever button was pressed', () => {
    const expired = pendingRecord({ expiresInHours: 1 });
    for (const outcome of APPLICANT_OUTCOMES) {
      const { result, redirect } = applyApplicantOutcome(expired, outcome, { ...context, nowIso: addMs(NOW, 3_600_000) });
      expect(redirect).toEqual({ status: 'expired', reason: 'session_expired' });
      expect(record(result)).toBe(expired);
    }
  });

  it('a finished session refuses every outcome with a terminal refusal', () => {
    const verified = { ...pendingRecord(), status: 'VERIFIED' as const };
    for (const outcome of APPLICANT_OUTCOMES) {
      const { result } = applyApplicantOutcome(verified, outcome, context);
      expect(result.ok ? outcome : result.code).toBe('TERMINAL');
    }
  });
});

describe('control plane outcomes', () => {
  it('drives a pending session to VERIFIED through a submission, leaving a complete record', () => {
    const result = applyControlOutcome(pendingRecord(), { outcome: 'VERIFIED' }, context);
    const after = record(result);
    expect([after.status, after.session_progress, after.submitted_at]).toEqual(['VERIFIED', 'COMPLETED', LATER]);
    expect(after.analysis_data?.id_matches_selfie).toBe(true);
    expect(result.ok && result.from).toBe('PENDING');
    expect(result.ok && result.explanation).toBe(
      `applicant submitted session ${SESSION_ID}: PENDING -> SUBMITTED; reviewer decision on session ${SESSION_ID}: SUBMITTED -> VERIFIED`,
    );
  });

  it('drives every other outcome to its status', () => {
    const expected = { SUBMITTED: 'SUBMITTED', REJECTED: 'REJECTED', VOIDED: 'VOIDED', FAILED: 'FAILED', abandoned: 'PENDING', expired: 'PENDING' } as const;
    for (const [outcome, status] of Object.entries(expected)) {
      const body = SessionOutcomeBodySchema.parse({ outcome });
      const after = applyControlOutcome(pendingRecord(), body, context);
      expect(after.ok ? after.record.status : after.message, outcome).toBe(status);
    }
    const rejected = applyControlOutcome(pendingRecord(), { outcome: 'REJECTED' }, context);
    expect(rejected.ok && rejected.record.meta_data?.declinedData?.declined).toBe(true);
  });

  it('records the requested number of failed attempts', () => {
    const failed = record(applyControlOutcome(pendingRecord(), { outcome: 'FAILED', failed_attempts: 5 }, context));
    expect(failed.meta_data?.failureData?.attempts).toHaveLength(5);
  });

  it('verifies an already submitted session without a second submission', () => {
    const submitted = record(applyControlOutcome(pendingRecord(), { outcome: 'SUBMITTED' }, context));
    const verified = record(applyControlOutcome(submitted, { outcome: 'VERIFIED' }, { ...context, nowIso: addMs(LATER, 1000) }));
    expect(verified.submitted_at).toBe(LATER);
    expect(verified.analysis_data).toEqual(submitted.analysis_data);
  });

  it('refuses to move a terminal session, with the 409 message', () => {
    const voided = record(applyControlOutcome(pendingRecord(), { outcome: 'VOIDED' }, context));
    const result = applyControlOutcome(voided, { outcome: 'SUBMITTED' }, context);
    expect(result.ok ? '' : result.message).toBe(`Session ${SESSION_ID} is VOIDED (terminal); it cannot move to SUBMITTED`);
  });

  it('validates the control body', () => {
    const result = SessionOutcomeBodySchema.safeParse({ outcome: 'DONE' });
    expect(result.success ? '' : result.error.issues[0]?.message).toBe(
      'outcome must be one of SUBMITTED, VERIFIED, REJECTED, VOIDED, FAILED, abandoned, expired',
    );
  });
});
