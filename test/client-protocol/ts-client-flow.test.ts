/**
 * The TypeScript client's flows (real-client-facts §6.9, §6.15), driven over HTTP against one listening
 * sandbox the way that client sends them: UPPER_SNAKE step ids, `{}` on start, the liveness start read
 * for its streaming credentials, and error text read from `message`, then `error`. Every body is checked
 * against both clients' key tables (client-keys.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { expectBothDecode, expectStateDecodes, keyProblems } from './client-keys.ts';
import { APPLICANT, listeningSandbox, picture, type ListeningSandbox } from './http-client.ts';

let server: ListeningSandbox | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The text the TypeScript client shows for an error body: `message`, then `error`. */
const shownMessage = (body: { message?: unknown; error?: unknown }) => (typeof body.message === 'string' ? body.message : body.error);

describe('the TypeScript client flows over HTTP', () => {
  it('retrieve → start → ID_VERIFICATION → FACE_LIVENESS start / upload-url / complete, every nullable key present', async () => {
    server = await listeningSandbox();
    const s = server;
    const workflow = await s.call('POST', '/v1/workflows', { name: 'Server flow', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] });
    const created = await s.call('POST', `/v1/workflows/${workflow.body.workflow.id}/sessions`, APPLICANT);
    expectBothDecode('WorkflowSession', created.body);
    expect(created.body.expires_at).toBeNull();
    const sessionId = created.body.session_id;

    const retrieved = await s.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expectStateDecodes(retrieved.body);
    expect(keyProblems('WorkflowState', 'ts', retrieved.body)).toEqual([]);
    const started = await s.call('POST', `/v1/sessions/${sessionId}/workflow/start`, {});
    expect(started.body).toEqual(retrieved.body);

    const signed = await s.call('POST', `/v1/sessions/${sessionId}/uploads`, {
      files: [
        { file_name: 'front.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
        { file_name: 'selfie.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' },
      ],
    });
    const [front, selfie] = signed.body.signed_urls as { file_key: string; upload_url: string; slot: string }[];
    expect(await s.put(front?.upload_url as string, picture('passport.jpg'), 'image/jpeg')).toBe(200);
    expect(await s.put(selfie?.upload_url as string, picture('face.jpg'), 'image/jpeg')).toBe(200);
    const id = await s.call('POST', `/v1/sessions/${sessionId}/steps/ID_VERIFICATION`, {
      document_type: 'passport-us',
      uploads: { id_front: front?.file_key, selfie_front: selfie?.file_key },
    });
    expectBothDecode('StepSubmission', id.body);
    expect(id.body).toMatchObject({ failure_reason: null, current_step: 1, attempts_remaining: 3 });

    const start = await s.call('POST', `/v1/sessions/${sessionId}/steps/FACE_LIVENESS`, { action: 'start' });
    expectBothDecode('LivenessStart', start.body.liveness);
    expect(start.body.liveness.credentials.expiration).toMatch(/Z$/);
    const urls = await s.call('POST', `/v1/sessions/${sessionId}/steps/FACE_LIVENESS`, { action: 'upload-url', frame_count: 2 });
    expectBothDecode('LivenessUploadUrls', urls.body.liveness);
    expect(urls.body.liveness).not.toHaveProperty('clip_upload_url');
    for (const url of urls.body.liveness.frame_upload_urls) expect(await s.put(url, picture('face-cropped.jpg'), 'image/jpeg')).toBe(200);
    const complete = await s.call('POST', `/v1/sessions/${sessionId}/steps/FACE_LIVENESS`, { action: 'complete' });
    expectBothDecode('StepSubmission', complete.body);
    expect(complete.body).toMatchObject({ step_status: 'COMPLETED', current_step: null, session_status: 'VERIFIED', liveness: { passed: true } });

    // A 409 shows a sentence; its code and position are there for callers that read err.response.body.
    const again = await s.call('POST', `/v1/sessions/${sessionId}/steps/FACE_LIVENESS`, { action: 'start' });
    expect(again.status).toBe(409);
    expect(shownMessage(again.body)).toMatch(/terminal/);
    expectBothDecode('Conflict', again.body);
  });

  it('a failed attempt: failure_reason and failure on the envelope, the same failure on the state', async () => {
    server = await listeningSandbox();
    const s = server;
    const workflow = await s.call('POST', '/v1/workflows', { name: 'Server flow', steps: [{ id: 'ID_VERIFICATION' }] });
    const sessionId = (await s.call('POST', `/v1/workflows/${workflow.body.workflow.id}/sessions`, APPLICANT)).body.session_id;
    const signed = await s.call('POST', `/v1/sessions/${sessionId}/uploads`, {
      files: [
        { file_name: 'front.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
        { file_name: 'selfie.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' },
      ],
    });
    const [front, selfie] = signed.body.signed_urls as { file_key: string; upload_url: string }[];
    await s.put(front?.upload_url as string, picture('passport.jpg'), 'image/jpeg');
    await s.put(selfie?.upload_url as string, picture('different-face.jpg'), 'image/jpeg');
    const failed = await s.call('POST', `/v1/sessions/${sessionId}/steps/ID_VERIFICATION`, {
      document_type: 'passport-us',
      uploads: { id_front: front?.file_key, selfie_front: selfie?.file_key },
    });
    expectBothDecode('StepSubmission', failed.body);
    expectBothDecode('WorkflowFailure', failed.body.failure);
    expect(failed.body).toMatchObject({ step_status: 'IN_PROGRESS', failure_reason: 'LOW_FACE_MATCH', attempts_remaining: 2 });
    expect(failed.body.failure).toMatchObject({
      code: 'SELFIE_ID_FACE_MISMATCH',
      category: 'FACE_MATCH',
      user_action: 'RETAKE_SELFIE',
      retryable: true,
      slot: null,
    });
    const state = await s.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expectStateDecodes(state.body);
    expect(state.body.steps[0].failure).toEqual(failed.body.failure);
  });

  it('re-verification errors: the client shows message, the iOS client reads the code from error', async () => {
    server = await listeningSandbox();
    const s = server;
    const created = await s.call('POST', '/v1/re-verifications', { workflow_id: FIXTURE_WORKFLOW_IDS.identity72h });
    expect(created.status).toBe(201);
    const early = await s.call('POST', `/v1/re-verifications/${created.body.re_verification_id}/liveness/complete`, {});
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'liveness_not_started', code: 'liveness_not_started' });
    expect(shownMessage(early.body)).toMatch(/call liveness\/start first/);
    const disabled = await s.call('POST', '/v1/re-verifications', { workflow_id: FIXTURE_WORKFLOW_IDS.bankStatements });
    expect(disabled.status).toBe(422);
    expect(disabled.body.error).toBe('reverify_disabled');
  });
});
