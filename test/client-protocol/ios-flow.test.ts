/**
 * The iOS client's mobile flow (mobile-client-facts §1), driven over HTTP against one listening sandbox:
 * create → state → start → ID submission with uploads → liveness start → upload-url → PUT frames +
 * timeline (+ clip) → complete → state, and each 409 on the way. The path uses the forms the client
 * sends (ID_VERIFICATION, face-liveness); every body is checked against both clients' key tables.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectBothDecode, expectStateDecodes } from './client-keys.ts';
import { APPLICANT, listeningSandbox, picture, type ListeningSandbox } from './http-client.ts';

let server: ListeningSandbox | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function headlessSession(s: ListeningSandbox, applicant: Record<string, string> = APPLICANT): Promise<string> {
  const workflow = await s.call('POST', '/v1/workflows', { name: 'Mobile', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] });
  expect(workflow.status).toBe(201);
  const created = await s.call('POST', `/v1/workflows/${workflow.body.workflow.id}/sessions`, applicant);
  expect(created.status).toBe(200);
  expectBothDecode('WorkflowSession', created.body);
  return created.body.session_id;
}

/** The SessionUploader: one uploads call for the slots, then a PUT of each picture. */
async function uploadSlots(s: ListeningSandbox, sessionId: string, files: Record<string, string>): Promise<Record<string, string>> {
  const entries = Object.entries(files);
  const signed = await s.call('POST', `/v1/sessions/${sessionId}/uploads`, {
    files: entries.map(([slot]) => ({ file_name: `${slot}.jpg`, content_type: 'image/jpeg', upload_type: slot })),
  });
  expect(signed.status).toBe(200);
  const keys: Record<string, string> = {};
  for (const entry of signed.body.signed_urls as { file_key: string; upload_type: string; upload_url: string }[]) {
    expect(await s.put(entry.upload_url, picture(files[entry.upload_type] as string), 'image/jpeg')).toBe(200);
    keys[entry.upload_type] = entry.file_key;
  }
  return keys;
}

const conflict = (answer: { status: number; body: any }, code: string, where: { current_step: number | null; step_id?: string }) => {
  expect(answer.status).toBe(409);
  expectBothDecode('Conflict', answer.body);
  expect(answer.body).toMatchObject({ code, ...where });
  expect(answer.body.error).toMatch(/\.$/);
};

describe('the iOS client mobile flow over HTTP', () => {
  it('create → state → start → ID → liveness start / upload-url / PUTs / complete → state, with each 409 on the way', async () => {
    server = await listeningSandbox();
    const s = server;
    const sessionId = await headlessSession(s);

    const state = await s.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expectStateDecodes(state.body);
    expect(state.body).toMatchObject({ session_progress: 'PENDING', current_step: 0 });
    const started = await s.call('POST', `/v1/sessions/${sessionId}/workflow/start`, {});
    expect(started.status).toBe(200);
    expect(started.body).toEqual(state.body);
    expect((await s.call('POST', `/v1/sessions/${sessionId}/workflow/start`, {})).body).toEqual(state.body);

    conflict(await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'start' }), 'STEP_OUT_OF_ORDER', {
      current_step: 0,
      step_id: 'ID_VERIFICATION',
    });

    const uploads = await uploadSlots(s, sessionId, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
    const id = await s.call('POST', `/v1/sessions/${sessionId}/steps/ID_VERIFICATION`, { document_type: 'passport-us', uploads });
    expect(id.status).toBe(200);
    expectBothDecode('StepSubmission', id.body);
    expect(id.body).toMatchObject({ step_id: 'ID_VERIFICATION', step_status: 'COMPLETED', session_progress: 'STARTED', current_step: 1 });
    expect(id.body).not.toHaveProperty('failure');

    conflict(await s.call('POST', `/v1/sessions/${sessionId}/workflow/start`, {}), 'SESSION_ALREADY_STARTED', { current_step: 1 });
    conflict(await s.call('POST', `/v1/sessions/${sessionId}/steps/ID_VERIFICATION`, { document_type: 'passport-us', uploads }), 'STEP_NOT_SUBMITTABLE', {
      current_step: 1,
      step_id: 'ID_VERIFICATION',
    });
    conflict(await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'complete' }), 'LIVENESS_NOT_STARTED', {
      current_step: 1,
      step_id: 'FACE_LIVENESS',
    });

    const start = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'start' });
    expect(start.status).toBe(200);
    expectBothDecode('StepSubmission', start.body);
    expectBothDecode('LivenessStart', start.body.liveness);
    expectBothDecode('LivenessScript', start.body.liveness.script);
    expect(start.body.liveness.script).toEqual({ challengeType: 'FaceMovementChallenge', durationMs: 3000, steps: [{ kind: 'move-closer', atMs: 1000 }] });

    const urls = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'upload-url', frame_count: 3, clip_mime_type: 'video/mp4' });
    expect(urls.status).toBe(200);
    expectBothDecode('LivenessUploadUrls', urls.body.liveness);
    const liveness = urls.body.liveness;
    expect(liveness.frame_upload_urls).toHaveLength(3);
    expect(liveness.frame_keys).toHaveLength(3);
    expect(liveness.clip_key).toEqual(expect.any(String));
    for (const url of [...liveness.frame_upload_urls, liveness.timeline_upload_url, liveness.clip_upload_url]) expect(new URL(url).hostname).toBe('127.0.0.1');

    const frames = ['face.jpg', 'face-cropped.jpg', 'face.jpg'];
    for (const index of [0, 1]) expect(await s.put(liveness.frame_upload_urls[index], picture(frames[index] as string), 'image/jpeg')).toBe(200);
    expect(await s.put(liveness.timeline_upload_url, new TextEncoder().encode('[]'), 'application/json')).toBe(200);
    expect(await s.put(liveness.clip_upload_url, new TextEncoder().encode('mp4'), 'video/mp4')).toBe(200);
    conflict(await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'complete' }), 'LIVENESS_UPLOAD_INCOMPLETE', {
      current_step: 1,
      step_id: 'FACE_LIVENESS',
    });
    expect(await s.put(liveness.frame_upload_urls[2], picture('face.jpg'), 'image/jpeg')).toBe(200);

    const complete = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'complete' });
    expect(complete.status).toBe(200);
    expectBothDecode('StepSubmission', complete.body);
    expectBothDecode('LivenessResult', complete.body.liveness);
    expect(complete.body.liveness).toMatchObject({ status: 'SUCCEEDED', passed: true });
    expect(complete.body.liveness.confidence).toBeGreaterThanOrEqual(70);

    const final = await s.call('GET', `/v1/sessions/${sessionId}/workflow`);
    expectStateDecodes(final.body);
    expect(final.body).toMatchObject({ status: 'VERIFIED', session_progress: 'COMPLETED', current_step: null });
    conflict(await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'start' }), 'SESSION_TERMINAL', { current_step: null });
  });

  it('reaches the same step from both path forms of every headless step id', async () => {
    server = await listeningSandbox();
    const sessionId = await headlessSession(server);
    for (const form of ['FACE_LIVENESS', 'face-liveness']) {
      const answer = await server.call('POST', `/v1/sessions/${sessionId}/steps/${form}`, { action: 'start' });
      expect(answer.body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step_id: 'ID_VERIFICATION' });
    }
    for (const form of ['ID_VERIFICATION', 'id-verification']) {
      const answer = await server.call('POST', `/v1/sessions/${sessionId}/steps/${form}`, { document_type: 'passport-us' });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('uploads') });
    }
    const unknown = await server.call('POST', `/v1/sessions/${sessionId}/steps/selfie-check`, {});
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('step_id "selfie-check" is not a step id') });
  });

  it('polls a liveness result that is not ready (last name Slowliveness) with 409 FACE_LIVENESS_RESULT_NOT_READY until it is', async () => {
    server = await listeningSandbox();
    const s = server;
    const sessionId = await headlessSession(s, { ...APPLICANT, last_name: 'Slowliveness' });
    const uploads = await uploadSlots(s, sessionId, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
    expect((await s.call('POST', `/v1/sessions/${sessionId}/steps/ID_VERIFICATION`, { document_type: 'passport-us', uploads })).status).toBe(200);
    await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'start' });
    const waiting = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'complete' });
    conflict(waiting, 'LIVENESS_RESULT_NOT_READY', { current_step: 1, step_id: 'FACE_LIVENESS' });
    expect(waiting.body.failure_reason).toBe('FACE_LIVENESS_RESULT_NOT_READY');
    s.sandbox.clock.advance(5_000);
    const ready = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'complete' });
    expect(ready.status).toBe(200);
    expect(ready.body.liveness).toMatchObject({ status: 'SUCCEEDED', passed: true });
  });

  it('is deterministic: the same seed and requests give the same scripts, keys and outcomes', async () => {
    const transcript = async () => {
      const s = await listeningSandbox(7);
      try {
        const workflow = await s.call('POST', '/v1/workflows', { name: 'Light', steps: [{ id: 'FACE_LIVENESS' }] });
        const sessionId = (await s.call('POST', `/v1/workflows/${workflow.body.workflow.id}/sessions`, APPLICANT)).body.session_id;
        const start = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'start' });
        const urls = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'upload-url', frame_count: 2 });
        for (const url of urls.body.liveness.frame_upload_urls) await s.put(url, picture('face.jpg'), 'image/jpeg');
        const complete = await s.call('POST', `/v1/sessions/${sessionId}/steps/face-liveness`, { action: 'complete' });
        return { sessionId, script: start.body.liveness.script, keys: urls.body.liveness.frame_keys, result: complete.body.liveness };
      } finally {
        await s.close();
      }
    };
    const [first, second] = [await transcript(), await transcript()];
    expect(second).toEqual(first);
  });
});
