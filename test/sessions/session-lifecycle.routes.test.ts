import { describe, expect, it } from 'vitest';
import { SessionOutcomeResponseSchema, UpdateStatusResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { addMs } from './helpers.ts';
import { createSession, drive, expectNoNulls, getSession, HOUR, JANE, WORKFLOWS } from './route-helpers.ts';

async function driveOk(sandbox: TestSandbox, id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await drive(sandbox, id, body, { headers });
  expect(response.status, response.text).toBe(200);
  expectNoNulls(response.body);
  return SessionOutcomeResponseSchema.parse(response.body);
}

async function updateStatus(sandbox: TestSandbox, id: string, newStatus: string, key: string = KEYS.live) {
  return sandbox.call('PATCH', `/v1/sessions/${id}/update-status`, { key, body: { new_status: newStatus } });
}

/** A fresh sandbox without rate limits (these timelines make many calls at one frozen instant). */
const fresh = () => testSandbox({ rateLimit: false });

describe('POST /__sandbox/sessions/{id}/outcome from PENDING', () => {
  it('SUBMITTED: the applicant finished, with passing analysis, submission metadata and location', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, { ...JANE, phone: '+14155550123', workflowId: WORKFLOWS.identity72h });
    sandbox.clock.advance(10 * 60_000);
    const moved = await driveOk(sandbox, id, { outcome: 'SUBMITTED' });
    expect(moved).toMatchObject({ from: 'PENDING', to: 'SUBMITTED', display_status: 'SUBMITTED' });
    const record = moved.session_record;
    const at = addMs(FROZEN_AT, 10 * 60_000);
    expect(record).toMatchObject({
      status: 'SUBMITTED',
      session_progress: 'COMPLETED',
      submitted_at: at,
      updated_at: at,
      location: { country: 'United States' },
    });
    expect(record.meta_data?.applicantSubmissionIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const analysis = record.analysis_data;
    expect(analysis?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(analysis?.compare_faces_data?.face_match_confidence).toBeGreaterThanOrEqual(80);
    expect(analysis?.id_matches_selfie).toBe(true);
    expect(analysis?.id_analysis_data?.id_extracted_text.find((t) => t.type === 'FIRST_NAME')?.value).toBe('JANE');
    expect(analysis?.phone_checks?.ownership?.outcome).toBe('MATCH');
    expect(analysis).not.toHaveProperty('secondary_id_analysis_data');
    expect((await getSession(sandbox, id)).session_record).toEqual(record);
  });

  it('VERIFIED: a complete run (submitted, then verified) with the analysis a real run leaves', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, { ...JANE, phone: '+447700900123', workflowId: WORKFLOWS.identityAndPhone });
    const moved = await driveOk(sandbox, id, { outcome: 'VERIFIED' });
    expect(moved).toMatchObject({ from: 'PENDING', to: 'VERIFIED' });
    const record = moved.session_record;
    expect(record).toMatchObject({ status: 'VERIFIED', session_progress: 'COMPLETED', submitted_at: FROZEN_AT });
    expect(record.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    // The workflow asks for a secondary ID.
    expect(record.analysis_data?.secondary_id_analysis_data?.expiry_date_pass).toBe(true);
    expect(record.analysis_data).not.toHaveProperty('tertiary_id_analysis_data');
    expect(moved.explanation).toMatch(/PENDING -> SUBMITTED.*SUBMITTED -> VERIFIED/);
  });

  it('REJECTED: the AI declines with declinedData consistent with a failing face match', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const record = (await driveOk(sandbox, id, { outcome: 'REJECTED' })).session_record;
    expect(record).toMatchObject({ status: 'REJECTED', session_progress: 'COMPLETED' });
    const confidence = record.analysis_data?.compare_faces_data?.face_match_confidence ?? 100;
    expect(confidence).toBeLessThan(80);
    expect(record.analysis_data?.compare_faces_data?.face_match_result).toBe('NO_MATCH');
    expect(record.analysis_data?.id_matches_selfie).toBe(false);
    expect(record.meta_data?.declinedData).toMatchObject({
      declined: true,
      score: confidence,
      declinedAt: FROZEN_AT,
      reason: { code: 'LOW_FACE_MATCH', slot: 'PRIMARY', severity: 'CRITICAL' },
    });
  });

  it("FAILED: failureData with the workflow's failed-attempt limit, or failed_attempts", async () => {
    const sandbox = await fresh();
    const three = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.identity72h });
    const five = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.noExpiry });
    const two = await createSession(sandbox, JANE);
    const failed3 = (await driveOk(sandbox, three.id, { outcome: 'FAILED' })).session_record;
    expect(failed3).toMatchObject({ status: 'FAILED', session_progress: 'COMPLETED' });
    expect(failed3.meta_data?.failureData?.failedAttempts).toBe(3);
    expect(failed3.meta_data?.failureData?.attempts.map((a) => a.reason)).toEqual(['OCR_NAME_MISSING', 'NO_FACE_DETECTED', 'OCR_NAME_MISSING']);
    expect(failed3.meta_data?.failureData?.attempts.at(-1)?.failedAt).toBe(FROZEN_AT);
    expect((await driveOk(sandbox, five.id, { outcome: 'FAILED' })).session_record.meta_data?.failureData?.attempts).toHaveLength(5);
    expect((await driveOk(sandbox, two.id, { outcome: 'FAILED', failed_attempts: 2 })).session_record.meta_data?.failureData?.failedAttempts).toBe(2);
    expect(failed3).not.toHaveProperty('analysis_data');
  });

  it('VOIDED, abandoned (stays PENDING) and expired (expires now, shown as EXPIRED)', async () => {
    const sandbox = await fresh();
    const a = await createSession(sandbox, JANE);
    expect((await driveOk(sandbox, a.id, { outcome: 'VOIDED' })).session_record.status).toBe('VOIDED');
    const b = await createSession(sandbox, JANE);
    const abandoned = await driveOk(sandbox, b.id, { outcome: 'abandoned' });
    expect(abandoned).toMatchObject({ from: 'PENDING', to: 'PENDING', display_status: 'PENDING' });
    expect(abandoned.session_record).toEqual((await getSession(sandbox, b.id)).session_record);
    const expired = await driveOk(sandbox, b.id, { outcome: 'expired' });
    expect(expired).toMatchObject({ to: 'PENDING', display_status: 'EXPIRED' });
    expect(expired.session_record.expires_at).toBe(FROZEN_AT);
    expect(expired.session_record.status).toBe('PENDING');
  });
});

describe('transitions refused with 409 and the machine’s reason', () => {
  it('refuses every outcome on a terminal session', async () => {
    const sandbox = await fresh();
    for (const terminal of ['VERIFIED', 'REJECTED', 'VOIDED', 'FAILED'] as const) {
      const { id } = await createSession(sandbox, JANE);
      await driveOk(sandbox, id, { outcome: terminal });
      const before = (await getSession(sandbox, id)).session_record;
      for (const outcome of ['SUBMITTED', 'VERIFIED', 'REJECTED', 'VOIDED', 'FAILED', 'abandoned', 'expired']) {
        const response = await drive(sandbox, id, { outcome });
        expect(response.status, `${terminal} -> ${outcome}`).toBe(409);
        expect(response.body.error).toMatch(new RegExp(`^Session ${id} is ${terminal} \\(terminal\\); it cannot `));
      }
      expect((await getSession(sandbox, id)).session_record).toEqual(before);
    }
  });

  it('refuses FAILED, abandoned, expired and a second SUBMITTED on a SUBMITTED session, and allows the reviewer moves', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    await driveOk(sandbox, id, { outcome: 'SUBMITTED' });
    const refusals: [string, RegExp][] = [
      ['SUBMITTED', /is SUBMITTED; it cannot move to SUBMITTED: "applicant submits" is only possible from PENDING/],
      ['FAILED', /is SUBMITTED; it cannot move to FAILED/],
      ['abandoned', /is SUBMITTED; it cannot be abandoned/],
      ['expired', /is SUBMITTED; it cannot expire/],
    ];
    for (const [outcome, message] of refusals) {
      const response = await drive(sandbox, id, { outcome });
      expect(response.status, outcome).toBe(409);
      expect(response.body.error).toMatch(message);
    }
    const verified = await driveOk(sandbox, id, { outcome: 'VERIFIED' });
    expect(verified).toMatchObject({ from: 'SUBMITTED', to: 'VERIFIED' });
    expect(verified.session_record.analysis_data?.id_matches_selfie).toBe(true);
  });

  it('lets the AI decline and the organization void a SUBMITTED session', async () => {
    const sandbox = await fresh();
    const a = await createSession(sandbox, JANE);
    await driveOk(sandbox, a.id, { outcome: 'SUBMITTED' });
    const declined = (await driveOk(sandbox, a.id, { outcome: 'REJECTED' })).session_record;
    expect(declined.meta_data?.declinedData?.reason.code).toBe('LOW_FACE_MATCH');
    expect(declined.analysis_data?.id_matches_selfie).toBe(false);
    const b = await createSession(sandbox, JANE);
    await driveOk(sandbox, b.id, { outcome: 'SUBMITTED' });
    expect((await driveOk(sandbox, b.id, { outcome: 'VOIDED' })).session_record.status).toBe('VOIDED');
  });

  it('answers 404 for an unknown session (and the synthetic test identifiers) and 400 for a bad body', async () => {
    const sandbox = await fresh();
    const unknown = await drive(sandbox, 'test_verified', { outcome: 'VERIFIED' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^Session test_verified was not found in namespace "default"/);
    const { id } = await createSession(sandbox, JANE);
    const badOutcome = await drive(sandbox, id, { outcome: 'DONE' });
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.error).toMatch(/outcome must be one of SUBMITTED, VERIFIED, REJECTED, VOIDED, FAILED, abandoned, expired/);
    const badAttempts = await drive(sandbox, id, { outcome: 'FAILED', failed_attempts: 0 });
    expect(badAttempts.status).toBe(400);
    expect(badAttempts.body.error).toMatch(/failed_attempts must be at least 1/);
    expect((await getSession(sandbox, id)).session_record.status).toBe('PENDING');
  });

  it('acts on the namespace named by the header or the query', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE, { namespace: 'ns-a' });
    expect((await drive(sandbox, id, { outcome: 'VOIDED' })).status).toBe(404);
    const viaQuery = await sandbox.call('POST', `/__sandbox/sessions/${id}/outcome?namespace=ns-a`, { key: null, body: { outcome: 'VOIDED' } });
    expect(viaQuery.status).toBe(200);
    expect((await getSession(sandbox, id, { namespace: 'ns-a' })).session_record.status).toBe('VOIDED');
  });
});

describe('PATCH /v1/sessions/{id}/update-status', () => {
  it('verifies a SUBMITTED session and rejects a PENDING one, answering {session_record}', async () => {
    const sandbox = await fresh();
    const a = await createSession(sandbox, JANE);
    await driveOk(sandbox, a.id, { outcome: 'SUBMITTED' });
    sandbox.clock.advance(HOUR);
    const verified = await updateStatus(sandbox, a.id, 'VERIFIED');
    expect(verified.status).toBe(200);
    expect(Object.keys(verified.body)).toEqual(['session_record']);
    const record = UpdateStatusResponseSchema.parse(verified.body).session_record;
    expect(record).toMatchObject({ status: 'VERIFIED', session_progress: 'COMPLETED', updated_at: addMs(FROZEN_AT, HOUR), submitted_at: FROZEN_AT });
    expectNoNulls(verified.body);
    expect(verified.headers.get('x-sandbox-explain')).toContain('SUBMITTED -> VERIFIED');

    const b = await createSession(sandbox, JANE);
    const rejected = await updateStatus(sandbox, b.id, 'REJECTED');
    expect(rejected.body.session_record).toMatchObject({ status: 'REJECTED', session_progress: 'COMPLETED' });
    expect(rejected.body.session_record).not.toHaveProperty('analysis_data');
  });

  it('answers 409 for a terminal session with a clear message, and changes nothing', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    await updateStatus(sandbox, id, 'VERIFIED');
    const again = await updateStatus(sandbox, id, 'REJECTED');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Session ${id} is VERIFIED (terminal); it cannot move to REJECTED.`);
    expect((await getSession(sandbox, id)).session_record.status).toBe('VERIFIED');
    const voided = await createSession(sandbox, JANE);
    await driveOk(sandbox, voided.id, { outcome: 'VOIDED' });
    expect((await updateStatus(sandbox, voided.id, 'VERIFIED')).status).toBe(409);
  });

  it('answers 400 for another new_status, 404 for an unknown session and 403 for another organization', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const bad = await updateStatus(sandbox, id, 'VOIDED');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/body field new_status must be "VERIFIED" or "REJECTED"; got "VOIDED"/);
    const missing = await sandbox.call('PATCH', `/v1/sessions/${id}/update-status`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/new_status/);
    expect((await updateStatus(sandbox, 'e7c1d5a2-3b4f-4e6d-9a8b-7c6d5e4f3a2b', 'VERIFIED')).status).toBe(404);
    const other = await updateStatus(sandbox, id, 'VERIFIED', KEYS.other);
    expect(other.status).toBe(403);
    expect((await getSession(sandbox, id)).session_record.status).toBe('PENDING');
  });
});

describe('expiry on the virtual clock', () => {
  it('expires a PENDING session when expires_at passes: the API keeps PENDING and says why; applicant moves are refused', async () => {
    const sandbox = await fresh();
    const { id, expires_at: expiresAt } = await createSession(sandbox, { ...JANE, expiresInHours: 2 });
    sandbox.clock.advance(2 * HOUR - 1);
    const before = await sandbox.call('GET', `/v1/sessions/${id}`);
    expect(before.headers.get('x-sandbox-explain')).toBeNull();
    sandbox.clock.advance(1);
    const after = await sandbox.call('GET', `/v1/sessions/${id}`);
    expect(after.body.session_record.status).toBe('PENDING');
    expect(after.headers.get('x-sandbox-explain')).toContain(`expired at ${expiresAt} (sandbox clock); status stays PENDING`);

    const submitted = await drive(sandbox, id, { outcome: 'SUBMITTED' });
    expect(submitted.status).toBe(409);
    expect(submitted.body.error).toMatch(new RegExp(`^Session ${id} expired at ${expiresAt}; it cannot move to SUBMITTED`));
    expect((await drive(sandbox, id, { outcome: 'REJECTED' })).status).toBe(409);
    expect((await drive(sandbox, id, { outcome: 'FAILED' })).status).toBe(409);
    // The organization's own moves still work on an expired session.
    const voided = await driveOk(sandbox, id, { outcome: 'VOIDED' });
    expect(voided.display_status).toBe('VOIDED');
  });

  it('lets a reviewer decide an expired session through update-status', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.identity72h });
    sandbox.clock.advance(73 * HOUR);
    const rejected = await updateStatus(sandbox, id, 'REJECTED');
    expect(rejected.status).toBe(200);
    expect(rejected.body.session_record.status).toBe('REJECTED');
  });

  it('never expires a session without expiry', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.noExpiry });
    sandbox.clock.advance(9000 * HOUR);
    expect((await driveOk(sandbox, id, { outcome: 'SUBMITTED' })).to).toBe('SUBMITTED');
  });
});

describe('the auto-decline scenario', () => {
  it('makes a finishing session end REJECTED with declinedData (X-Sandbox-Scenario header)', async () => {
    const sandbox = await fresh();
    const a = await createSession(sandbox, JANE);
    const declined = await driveOk(sandbox, a.id, { outcome: 'SUBMITTED' }, { 'X-Sandbox-Scenario': 'auto-decline' });
    expect(declined).toMatchObject({ from: 'PENDING', to: 'REJECTED' });
    expect(declined.session_record.meta_data?.declinedData?.reason).toMatchObject({ code: 'LOW_FACE_MATCH', slot: 'PRIMARY', severity: 'CRITICAL' });
    expect(declined.session_record.analysis_data?.compare_faces_data?.face_match_result).toBe('NO_MATCH');
    expect(declined.explanation).toMatch(/^scenario auto-decline: SUBMITTED requested/);

    const b = await createSession(sandbox, JANE);
    expect((await driveOk(sandbox, b.id, { outcome: 'VERIFIED' }, { 'X-Sandbox-Scenario': 'auto-decline' })).to).toBe('REJECTED');
    // Without the header the same move is a normal finish.
    const c = await createSession(sandbox, JANE);
    expect((await driveOk(sandbox, c.id, { outcome: 'SUBMITTED' })).to).toBe('SUBMITTED');
  });

  it('applies namespace-wide once activated, and leaves a reviewer’s decision on a submitted session alone', async () => {
    const sandbox = await fresh();
    const submitted = await createSession(sandbox, JANE);
    await driveOk(sandbox, submitted.id, { outcome: 'SUBMITTED' });
    expect((await sandbox.call('POST', '/__sandbox/scenarios/auto-decline/activate', { key: null })).status).toBe(200);
    const pending = await createSession(sandbox, JANE);
    expect((await driveOk(sandbox, pending.id, { outcome: 'SUBMITTED' })).to).toBe('REJECTED');
    expect((await driveOk(sandbox, submitted.id, { outcome: 'VERIFIED' })).to).toBe('VERIFIED');
  });
});
