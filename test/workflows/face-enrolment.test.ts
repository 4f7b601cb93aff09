/**
 * The headless ID_VERIFICATION step enrols the session's face in the shared face registry, as a hosted
 * session's finish does: a second session with the same face is a duplicate of the first, iGaming
 * self-exclusion flags the face through it, and the anti-cheat purge deletes the enrolment.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { APPLICANT, createHeadlessSession, createWorkflow, fixtureImage, passportAndSelfie, submit } from './helpers.ts';

/** A headless ID_VERIFICATION-only session whose step was submitted with a passport of person A and `selfie`. */
async function verifiedHeadless(sandbox: TestSandbox, workflowId: string, selfie: string, email: string) {
  const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, email });
  const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId, selfie));
  expect(response.status, response.text).toBe(200);
  return { sessionId, response };
}

/** Anti-cheat for a new player session (hosted, PENDING) labelled by its last name. */
async function antiCheat(sandbox: TestSandbox, player: string, file: string) {
  const session = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'Player', last_name: player, email: 'player@example.com' } });
  return sandbox.call('POST', '/v1/igaming/anti-cheat', { body: { session_id: session.body.id, image: fixtureImage(file).toString('base64') } });
}

describe('the headless ID_VERIFICATION step enrols the selfie in the face registry', () => {
  it('enrols the first session, makes a second one with the same face its duplicate, and self-exclusion follows the match', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const workflowId = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }]);

    // Session A: the step completes and its selfie is enrolled.
    const first = await verifiedHeadless(sandbox, workflowId, 'face.jpg', 'a@example.com');
    expect(first.response.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED' });
    expect(first.response.headers.get('x-sandbox-explain')).toMatch(/uploads\.selfie_front enrolled as face [0-9a-f-]{36}/);

    // Session B: the same face, re-encoded, is a duplicate of A.
    const second = await verifiedHeadless(sandbox, workflowId, 'face.png', 'b@example.com');
    expect(second.response.body.step_status).toBe('COMPLETED');
    expect(second.response.headers.get('x-sandbox-explain')).toContain(`uploads.selfie_front matches the face of session ${first.sessionId}`);

    // Excluding B's applicant adds its document number and flags the face through A's enrolment.
    const excluded = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: second.sessionId, reason: 'player request' } });
    expect(excluded.status, excluded.text).toBe(200);
    expect(excluded.body).toEqual({
      face_attached: true,
      document_number: second.response.body.checks.documents[0].document_number,
      identity_status: 'added',
      matched_session_id: first.sessionId,
    });
    const player = await antiCheat(sandbox, 'player-1', 'face.webp');
    expect(player.body).toEqual({ verdict: 'SELF_EXCLUSION', action: 'block' });
    expect(player.headers.get('x-sandbox-explain')).toContain(`the face of session ${first.sessionId} is self-excluded`);

    // A hosted session finished with the same face is a duplicate of the headless enrolment too.
    const hosted = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'Sam', last_name: 'Lee', email: 'c@example.com' } });
    const urls = await sandbox.call('POST', `/v1/sessions/${hosted.body.id}/uploads`, {
      body: { files: [{ file_name: 'selfie.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' }] },
    });
    const target = new URL(urls.body.signed_urls[0].upload_url);
    expect(
      (await sandbox.app.request(target.pathname + target.search, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: fixtureImage('face.jpg') }))
        .status,
    ).toBe(200);
    const finished = await sandbox.call('POST', `/__sandbox/sessions/${hosted.body.id}/outcome`, { key: null, body: { outcome: 'SUBMITTED' } });
    expect(finished.headers.get('x-sandbox-explain')).toContain(`selfie_front matches the face of session ${first.sessionId}`);
  });

  it('purges a headless enrolment with DELETE /v1/igaming/anti-cheat/{session_id}: deleted false for the duplicate, the face entry gone, the identity entry kept', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const workflowId = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }]);
    const first = await verifiedHeadless(sandbox, workflowId, 'face.jpg', 'a@example.com');
    const second = await verifiedHeadless(sandbox, workflowId, 'face.png', 'b@example.com');
    const applicant = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: first.sessionId } });
    expect(applicant.body).toMatchObject({ face_attached: true, identity_status: 'added' });
    const face = await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: second.sessionId, reason: 'player request' } });
    expect(face.body).toEqual({ excluded: true, session_id: second.sessionId, reason: 'player request', matched_session_id: first.sessionId });

    const duplicate = await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${second.sessionId}`);
    expect(duplicate.status).toBe(200);
    expect(duplicate.body).toEqual({ deleted: false, face_id: null });

    const purged = await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${first.sessionId}`);
    expect(purged.body).toEqual({ deleted: true, face_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${first.sessionId}`)).body).toEqual({ deleted: false, face_id: null });

    const registry = await sandbox.call('GET', '/v1/igaming/self-exclusion');
    expect(registry.body).toEqual({
      entries: [expect.objectContaining({ type: 'identity', document_number: applicant.body.document_number })],
      truncated: false,
    });
    expect((await antiCheat(sandbox, 'player-2', 'face.webp')).body).toMatchObject({ verdict: 'UNIQUE', action: 'allow' });
    // The session outcome is untouched by the purge.
    expect((await sandbox.call('GET', `/v1/sessions/${first.sessionId}/workflow`)).body.steps[0].status).toBe('COMPLETED');
  });

  it('enrols nothing for a failed attempt; the retry that completes the step enrols its own selfie', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const workflowId = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }]);
    const { sessionId, response } = await verifiedHeadless(sandbox, workflowId, 'different-face.jpg', 'a@example.com');
    expect(response.body).toMatchObject({ step_status: 'IN_PROGRESS', failure_reason: 'LOW_FACE_MATCH' });
    expect(response.headers.get('x-sandbox-explain')).not.toContain('enrolled');
    expect((await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: sessionId } })).body.excluded).toBe(false);

    const retry = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId, 'face.jpg'));
    expect(retry.body.step_status).toBe('COMPLETED');
    expect(retry.headers.get('x-sandbox-explain')).toContain('uploads.selfie_front enrolled as face');
    // The enrolled face is person A's (the retry), not person B's (the failed attempt).
    const duplicate = await antiCheat(sandbox, 'player-a', 'face.webp');
    expect(duplicate.body).toEqual({ verdict: 'DUPLICATE', action: 'manual-review' });
    expect(duplicate.headers.get('x-sandbox-explain')).toContain(`to the enrolment of session ${sessionId}`);
    expect((await antiCheat(sandbox, 'player-b', 'different-face.jpg')).body.verdict).toBe('UNIQUE');
  });

  it('keeps registries apart per organization', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const ours = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }]);
    const theirs = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }], KEYS.other);
    await verifiedHeadless(sandbox, ours, 'face.jpg', 'a@example.com');
    const sessionId = await createHeadlessSession(sandbox, theirs, APPLICANT, KEYS.other);
    const other = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId, 'face.png', KEYS.other), KEYS.other);
    expect(other.headers.get('x-sandbox-explain')).toContain('uploads.selfie_front enrolled as face');
  });
});
