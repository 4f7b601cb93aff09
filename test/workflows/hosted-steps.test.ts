/**
 * Hosted workflow sessions (POST /v1/sessions with workflow_id) driven over HTTP through the step engine,
 * one block per step type the engine helper built: a passing input, each documented failing input, bad
 * bodies (400, nothing stored), and the headless refusal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAMESPACE } from '../../src/platform/namespaces/world.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { LIVE_SCAN_STEP } from '../helpers/step-drives.ts';
import { APPLICANT, createHeadlessSession, createWorkflow, passportAndSelfie, putBytes, submit, uploadToSession } from './helpers.ts';

async function hosted(sandbox: TestSandbox, steps: unknown[], extra: Record<string, unknown> = {}) {
  const workflowId = await createWorkflow(sandbox, steps);
  const response = await sandbox.call('POST', '/v1/sessions', {
    body: { firstName: 'Jane', lastName: 'Doe', email: APPLICANT.email, phone: APPLICANT.phone, workflowId, ...extra },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

const state = async (sandbox: TestSandbox, sessionId: string) => (await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`)).body;
const record = async (sandbox: TestSandbox, sessionId: string) => (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record;

/** A 400 that names the field, and the run untouched (step PENDING, no attempt, nothing recorded). */
async function expectRefusedBody(sandbox: TestSandbox, sessionId: string, step: string, body: unknown, field: string) {
  const refused = await submit(sandbox, sessionId, step, body);
  expect(refused.status, refused.text).toBe(400);
  expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining(field) });
  const after = await state(sandbox, sessionId);
  expect(after.steps[0]).toMatchObject({ status: 'PENDING', attempts: 0 });
  expect(after.session_progress).toBe('PENDING');
}

describe('hosted sessions carry workflow state', () => {
  it('answers GET .../workflow for a session created with POST /v1/sessions and a workflow of any step types', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'CONSENT' }, { id: 'WHITE_LABEL' }]);
    const answer = await state(sandbox, sessionId);
    expect(answer).toMatchObject({ session_id: sessionId, status: 'PENDING', current_step: 0, attempts_remaining: 3 });
    expect(answer.steps.map((step: { step_id: string }) => step.step_id)).toEqual(['CONSENT', 'WHITE_LABEL']);
    expect((await sandbox.call('POST', `/v1/sessions/${sessionId}/workflow/start`, { body: {} })).status).toBe(200);
  });

  it('derives the state of a hosted session stored before runs existed from its workflow on first use', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'WHITE_LABEL' }]);
    sandbox.platform.worlds.get(DEFAULT_NAMESPACE).data.collection('workflow-sessions').delete(sessionId);
    const answer = await state(sandbox, sessionId);
    expect(answer.steps).toMatchObject([{ step_id: 'WHITE_LABEL', status: 'PENDING' }]);
    expect((await submit(sandbox, sessionId, 'white-label', { acknowledged: true })).body).toMatchObject({
      step_status: 'COMPLETED',
      session_status: 'VERIFIED',
    });
  });

  it('refuses out of order, repeated and terminal submissions with the 409 codes', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'CONSENT' }, { id: 'WHITE_LABEL' }]);
    const early = await submit(sandbox, sessionId, 'WHITE_LABEL', { acknowledged: true });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', current_step: 0, step_id: 'CONSENT' });
    expect((await submit(sandbox, sessionId, 'CONSENT', { accepted: true, legal_name: 'Jane Doe' })).status).toBe(200);
    const again = await submit(sandbox, sessionId, 'CONSENT', { accepted: true, legal_name: 'Jane Doe' });
    expect(again.body).toMatchObject({ code: 'STEP_NOT_SUBMITTABLE', current_step: 1 });
    expect((await submit(sandbox, sessionId, 'WHITE_LABEL', { acknowledged: true })).body.session_status).toBe('VERIFIED');
    const terminal = await submit(sandbox, sessionId, 'WHITE_LABEL', { acknowledged: true });
    expect(terminal.body).toMatchObject({ code: 'SESSION_TERMINAL', current_step: null });
  });
});

describe('a headless session refuses every step type but ID_VERIFICATION and FACE_LIVENESS', () => {
  for (const code of [
    'CONSENT',
    'FACE_LIVENESS_CONSENT_SETTINGS',
    'AGE_ESTIMATION',
    'DEEP_AGE',
    'DEEPFAKE_DETECTION',
    'CUSTOM_PROMPT',
    'DOCUMENT_UPLOAD',
    'WHITE_LABEL',
    'ADDRESS_VERIFICATION',
  ]) {
    it(`${code}: creation 400 UNSUPPORTED_WORKFLOW_STEPS, submission 400 STEP_NOT_RUNNABLE`, async () => {
      const sandbox = await testSandbox();
      const workflowId = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }, { id: code }]);
      const created = await sandbox.call('POST', `/v1/workflows/${workflowId}/sessions`, { body: APPLICANT });
      expect(created.status).toBe(400);
      expect(created.body).toMatchObject({ code: 'UNSUPPORTED_WORKFLOW_STEPS', invalid_steps: [code] });
      const sessionId = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
      const refused = await submit(sandbox, sessionId, code, {});
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('STEP_NOT_RUNNABLE');
    });
  }
});

describe('CONSENT and FACE_LIVENESS_CONSENT_SETTINGS', () => {
  it('completes on acceptance and records who accepted in analysis_data', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'CONSENT' }]);
    const signature = await uploadToSession(sandbox, sessionId, { selfie_front: 'face.jpg' });
    const answer = await submit(sandbox, sessionId, 'CONSENT', { accepted: true, legal_name: 'Jane Doe', signature_upload: signature.selfie_front });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', current_step: null });
    expect((await record(sandbox, sessionId)).analysis_data.consent).toMatchObject({
      accepted: true,
      legal_name: 'Jane Doe',
      legal_name_matches_applicant: true,
      signature_content_type: 'image/jpeg',
    });
  });

  it('ends the run on a declined consent: step FAILED, session REJECTED, session_failure STEP_BLOCKED', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'CONSENT' }, { id: 'WHITE_LABEL' }]);
    const answer = await submit(sandbox, sessionId, 'CONSENT', { accepted: false });
    expect(answer.body).toMatchObject({
      step_status: 'FAILED',
      failure_reason: 'CONSENT_DECLINED',
      session_status: 'REJECTED',
      current_step: null,
      failure: { code: 'CONSENT_DECLINED', retryable: false },
      session_failure: { code: 'STEP_BLOCKED', step_id: 'CONSENT' },
    });
    expect((await record(sandbox, sessionId)).meta_data.declinedData.reason).toMatchObject({ code: 'CONSENT_DECLINED', slot: 'CONSENT' });
  });

  it('refuses consent bodies without the client field names and stores nothing', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'CONSENT' }]);
    await expectRefusedBody(sandbox, sessionId, 'CONSENT', { accepted: true }, 'legal_name');
    await expectRefusedBody(sandbox, sessionId, 'CONSENT', { accepted: 'yes' }, 'accepted');
    await expectRefusedBody(sandbox, sessionId, 'CONSENT', { accepted: false, extra: 1 }, 'extra');
  });

  it('FACE_LIVENESS_CONSENT_SETTINGS passes {} and a consent body, and a decline rejects the session', async () => {
    const sandbox = await testSandbox();
    const empty = await hosted(sandbox, [{ id: 'FACE_LIVENESS_CONSENT_SETTINGS' }]);
    expect((await submit(sandbox, empty, 'face-liveness-consent-settings', {})).body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED' });
    const declined = await hosted(sandbox, [{ id: 'FACE_LIVENESS_CONSENT_SETTINGS' }]);
    expect((await submit(sandbox, declined, 'FACE_LIVENESS_CONSENT_SETTINGS', { accepted: false })).body).toMatchObject({
      failure: { code: 'BIOMETRIC_CONSENT_DECLINED' },
      session_status: 'REJECTED',
    });
  });
});

describe('AGE_ESTIMATION and DEEP_AGE', () => {
  it('passes a selfie estimated at or over minimum_age and fails one under it or without a face', async () => {
    const sandbox = await testSandbox();
    const passing = await hosted(sandbox, [{ id: 'AGE_ESTIMATION', config: { minimum_age: 21 } }]);
    const keys = await uploadToSession(sandbox, passing, { selfie_front: 'face.jpg' });
    const passed = await submit(sandbox, passing, 'AGE_ESTIMATION', { uploads: { selfie_front: keys.selfie_front } });
    expect(passed.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED' });
    expect((await record(sandbox, passing)).analysis_data.age_estimation).toMatchObject({ estimated_age: 32, minimum_age: 21, passed: true });

    const strict = await hosted(sandbox, [{ id: 'AGE_ESTIMATION', config: { minimum_age: 40 } }]);
    const strictKeys = await uploadToSession(sandbox, strict, { selfie_front: 'face.jpg' });
    const under = await submit(sandbox, strict, 'AGE_ESTIMATION', { uploads: { selfie_front: strictKeys.selfie_front } });
    expect(under.body).toMatchObject({
      step_status: 'IN_PROGRESS',
      failure_reason: 'AGE_RESTRICTION_FAILED',
      attempts_remaining: 2,
      failure: { code: 'AGE_ESTIMATION_UNDER_MINIMUM' },
    });
    const blank = await uploadToSession(sandbox, strict, { selfie_front: 'blank.png' });
    const noFace = await submit(sandbox, strict, 'AGE_ESTIMATION', { uploads: { selfie_front: blank.selfie_front } });
    expect(noFace.body.failure.code).toBe('AGE_ESTIMATION_NO_FACE');
  });

  it('refuses an AGE_ESTIMATION body without uploads.selfie_front', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'AGE_ESTIMATION' }]);
    await expectRefusedBody(sandbox, sessionId, 'AGE_ESTIMATION', { uploads: {} }, 'selfie_front');
    await expectRefusedBody(sandbox, sessionId, 'AGE_ESTIMATION', {}, 'uploads');
  });

  it('DEEP_AGE re-examines the run’s selfie after start: passes over minimum_age, fails under it; complete before start is 409', async () => {
    const sandbox = await testSandbox();
    for (const [minimum, outcome] of [
      [18, 'COMPLETED'],
      [30, 'IN_PROGRESS'],
    ] as const) {
      const sessionId = await hosted(sandbox, [{ id: 'AGE_ESTIMATION' }, { id: 'DEEP_AGE', config: { minimum_age: minimum } }]);
      const keys = await uploadToSession(sandbox, sessionId, { selfie_front: 'face.jpg' });
      await submit(sandbox, sessionId, 'AGE_ESTIMATION', { uploads: { selfie_front: keys.selfie_front } });
      const early = await submit(sandbox, sessionId, 'DEEP_AGE', { action: 'complete' });
      expect(early.body).toMatchObject({ code: 'STEP_NOT_STARTED', current_step: 1, step_id: 'DEEP_AGE' });
      expect((await submit(sandbox, sessionId, 'DEEP_AGE', { action: 'start' })).body.step_status).toBe('IN_PROGRESS');
      const done = await submit(sandbox, sessionId, 'DEEP_AGE', { action: 'complete' });
      expect(done.body.step_status).toBe(outcome);
      if (outcome === 'IN_PROGRESS') expect(done.body.failure.code).toBe('DEEP_AGE_UNDER_MINIMUM');
      expect((await record(sandbox, sessionId)).analysis_data.deep_age).toMatchObject({ age_range: { low: 28, high: 36 }, minimum_age: minimum });
    }
  });
});

describe('DEEP_AGE without a face or against the document', () => {
  it('fails DEEP_AGE_NO_FACE when no earlier step took a selfie, and DEEP_AGE_DOCUMENT_MISMATCH when the document’s age is outside the face’s range', async () => {
    const sandbox = await testSandbox();
    const alone = await hosted(sandbox, [{ id: 'DEEP_AGE' }]);
    await submit(sandbox, alone, 'DEEP_AGE', { action: 'start' });
    const noSelfie = await submit(sandbox, alone, 'DEEP_AGE', { action: 'complete' });
    expect(noSelfie.body).toMatchObject({ step_status: 'IN_PROGRESS', failure: { code: 'DEEP_AGE_NO_FACE' } });
    expect(decodeURIComponent(noSelfie.headers.get('x-sandbox-explain') ?? '')).toContain('no AGE_ESTIMATION or ID_VERIFICATION selfie earlier in the run');

    const outcomes: string[] = [];
    for (const gap of [50, 0]) {
      // The document is the passport's holder; the age selfie is another person's face, whose age range misses the document's age.
      const sessionId = await hosted(sandbox, [
        { id: 'ID_VERIFICATION' },
        { id: 'AGE_ESTIMATION', config: { minimum_age: 18 } },
        { id: 'DEEP_AGE', config: { max_age_gap: gap } },
      ]);
      const id = await submit(sandbox, sessionId, 'ID_VERIFICATION', await passportAndSelfie(sandbox, sessionId));
      expect(id.body.step_status, id.text).toBe('COMPLETED');
      const other = await uploadToSession(sandbox, sessionId, { selfie_front: 'different-face.jpg' });
      expect((await submit(sandbox, sessionId, 'AGE_ESTIMATION', { uploads: { selfie_front: other.selfie_front } })).body.step_status).toBe('COMPLETED');
      await submit(sandbox, sessionId, 'DEEP_AGE', { action: 'start' });
      const done = await submit(sandbox, sessionId, 'DEEP_AGE', { action: 'complete' });
      const analysis = (await record(sandbox, sessionId)).analysis_data.deep_age;
      expect(analysis.document_age, JSON.stringify(analysis)).toEqual(expect.any(Number));
      outcomes.push(done.body.failure?.code ?? done.body.step_status);
    }
    // The document's age lies outside the face's range: only a gap wide enough lets it pass.
    expect(outcomes).toEqual(['COMPLETED', 'DEEP_AGE_DOCUMENT_MISMATCH']);
  });
});

describe('DOCUMENT_UPLOAD and CUSTOM_PROMPT', () => {
  it('types the uploaded files from their bytes: a readable image passes, a blank image or other bytes fail', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'DOCUMENT_UPLOAD' }]);
    const blank = await uploadToSession(sandbox, sessionId, { id_front: 'blank.png' });
    const failed = await submit(sandbox, sessionId, 'DOCUMENT_UPLOAD', { uploads: { document: blank.id_front } });
    expect(failed.body).toMatchObject({ step_status: 'IN_PROGRESS', failure: { code: 'DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED' } });
    const good = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg' });
    const passed = await submit(sandbox, sessionId, 'DOCUMENT_UPLOAD', { uploads: { document: good.id_front } });
    expect(passed.body).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED' });
    expect((await record(sandbox, sessionId)).analysis_data.document_upload.files).toMatchObject([
      { slot: 'document', content_type: 'image/jpeg', readable: true },
    ]);
  });

  it('refuses a key that is not one, and a slot the CUSTOM_PROMPT config requires but the body lacks', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'CUSTOM_PROMPT', config: { prompt: 'Show your utility bill', slots: ['bill'] } }]);
    const missing = await submit(sandbox, sessionId, 'CUSTOM_PROMPT', { uploads: { other: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('uploads.bill');
    const notKey = await submit(sandbox, sessionId, 'CUSTOM_PROMPT', { uploads: { bill: 'not-a-key' } });
    expect(notKey.body.code).toBe('INVALID_UPLOAD_KEY');
    await expectRefusedBody(sandbox, sessionId, 'CUSTOM_PROMPT', { uploads: {} }, 'uploads');
    const keys = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg' });
    expect((await submit(sandbox, sessionId, 'CUSTOM_PROMPT', { uploads: { bill: keys.id_front } })).body.step_status).toBe('COMPLETED');
    expect((await state(sandbox, sessionId)).steps[0].requirements).toMatchObject({ prompt: 'Show your utility bill', slots: ['bill'] });
  });
});

describe('WHITE_LABEL and ADDRESS_VERIFICATION', () => {
  it('WHITE_LABEL completes on {acknowledged: true} and refuses anything else', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'WHITE_LABEL' }]);
    await expectRefusedBody(sandbox, sessionId, 'WHITE_LABEL', { acknowledged: false }, 'acknowledged');
    expect((await submit(sandbox, sessionId, 'WHITE_LABEL', { acknowledged: true })).body).toMatchObject({
      step_status: 'COMPLETED',
      session_status: 'VERIFIED',
    });
  });

  it('ADDRESS_VERIFICATION: start presigns the proof, complete before the PUT is 409, a readable proof passes, Noaddress fails', async () => {
    const sandbox = await testSandbox();
    for (const [lastName, outcome] of [
      ['Doe', 'COMPLETED'],
      ['Noaddress', 'IN_PROGRESS'],
    ] as const) {
      const sessionId = await hosted(sandbox, [{ id: 'ADDRESS_VERIFICATION' }], { lastName });
      expect((await submit(sandbox, sessionId, 'ADDRESS_VERIFICATION', { action: 'complete' })).body.code).toBe('STEP_NOT_STARTED');
      const start = await submit(sandbox, sessionId, 'ADDRESS_VERIFICATION', { action: 'start' });
      expect(start.body.address_verification).toMatchObject({ action: 'start', content_type: 'image/jpeg' });
      expect((await submit(sandbox, sessionId, 'ADDRESS_VERIFICATION', { action: 'complete' })).body.code).toBe('STEP_UPLOAD_INCOMPLETE');
      await putBytes(
        sandbox,
        start.body.address_verification.upload_url,
        readFileSync(new URL('../../fixtures/images/passport.jpg', import.meta.url)),
        'image/jpeg',
      );
      const done = await submit(sandbox, sessionId, 'ADDRESS_VERIFICATION', { action: 'complete' });
      expect(done.body.step_status).toBe(outcome);
      if (outcome === 'IN_PROGRESS') expect(done.body.failure.code).toBe('ADDRESS_DOCUMENT_NOT_READABLE');
    }
  });
});

describe('DEEPFAKE_DETECTION', () => {
  const { frames, frame_meta: frameMeta } = LIVE_SCAN_STEP;

  async function scanWith(sandbox: TestSandbox, frames: readonly string[]) {
    const sessionId = await hosted(sandbox, [{ id: 'DEEPFAKE_DETECTION' }]);
    const start = await submit(sandbox, sessionId, 'DEEPFAKE_DETECTION', { action: 'start', include_audio: true });
    expect(start.status, start.text).toBe(200);
    const { upload_urls: urls, s3_keys: keys } = start.body.deepfake;
    expect(Object.keys(urls)).toEqual(['frame_0', 'frame_1', 'frame_2', 'frame_3', 'frame_4', 'frame_5', 'video_clip', 'audio_clip']);
    for (const [index, name] of frames.entries()) {
      await putBytes(sandbox, urls[`frame_${index}`], readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url)), 'image/jpeg');
    }
    const s3_keys = Object.fromEntries(Object.entries(keys).filter(([slot]) => slot.startsWith('frame_')));
    return {
      sessionId,
      answer: await submit(sandbox, sessionId, 'DEEPFAKE_DETECTION', { action: 'complete', scan_duration_ms: 3500, frame_meta: frameMeta, s3_keys }),
    };
  }

  it('judges the live fixture scan LIVE and the same scan of blank frames a deepfake', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const live = await scanWith(sandbox, frames);
    expect(live.answer.status, live.answer.text).toBe(200);
    expect(live.answer.body.deepfake).toMatchObject({ action: 'complete', verdict: 'LIVE' });
    expect(live.answer.body.step_status).toBe('COMPLETED');
    const blank = await scanWith(sandbox, Array(6).fill('blank.png'));
    expect(blank.answer.body.step_status).toBe('IN_PROGRESS');
    expect(['DEEPFAKE_DETECTED', 'DEEPFAKE_INCONCLUSIVE']).toContain(blank.answer.body.failure.code);
    expect((await record(sandbox, blank.sessionId)).analysis_data.deepfake_detection.verdict).not.toBe('LIVE');
  });

  it('refuses a complete body with five frame descriptions, naming frame_meta', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'DEEPFAKE_DETECTION' }]);
    await expectRefusedBody(
      sandbox,
      sessionId,
      'DEEPFAKE_DETECTION',
      { action: 'complete', scan_duration_ms: 3500, frame_meta: frameMeta.slice(0, 5), s3_keys: {} },
      'frame_meta',
    );
  });
});

describe('attempt scripts', () => {
  it('scripts three ID_VERIFICATION attempts over good images: two scripted failures, then the pass, attempts_remaining counting down', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const script = 'ID_VERIFICATION=ID_TEXT_NOT_READABLE@PRIMARY,SELFIE_ID_FACE_MISMATCH,pass';
    const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, external_id: `sandbox-attempts:${script}` });
    const body = async () => {
      const keys = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
      return { document_type: 'passport-us', uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front } };
    };
    const first = await submit(sandbox, sessionId, 'ID_VERIFICATION', await body());
    expect(first.body).toMatchObject({ step_status: 'IN_PROGRESS', attempts_remaining: 2, failure: { code: 'ID_TEXT_NOT_READABLE', slot: 'PRIMARY' } });
    expect(first.headers.get('x-sandbox-explain')).toContain('attempt script');
    const second = await submit(sandbox, sessionId, 'ID_VERIFICATION', await body());
    expect(second.body).toMatchObject({ attempts_remaining: 1, failure: { code: 'SELFIE_ID_FACE_MISMATCH' } });
    const third = await submit(sandbox, sessionId, 'ID_VERIFICATION', await body());
    expect(third.body).toMatchObject({ step_status: 'COMPLETED', attempts_remaining: 1, current_step: 1 });
    expect(third.body.failure).toBeUndefined();
  });

  it('exhausts the attempts: the run ends FAILED with session_failure ATTEMPTS_EXHAUSTED; the same session unscripted passes', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    for (const externalId of ['sandbox-attempts:exhaust', 'cust-1']) {
      const sessionId = await createHeadlessSession(sandbox, workflowId, { ...APPLICANT, external_id: externalId });
      let last: Awaited<ReturnType<typeof submit>> | undefined;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const keys = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
        last = await submit(sandbox, sessionId, 'ID_VERIFICATION', {
          document_type: 'passport-us',
          uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front },
        });
        if (last.body.step_status === 'COMPLETED') break;
      }
      if (externalId === 'cust-1') {
        expect(last?.body).toMatchObject({ step_status: 'COMPLETED', attempts_remaining: 3 });
      } else {
        expect(last?.body).toMatchObject({
          step_status: 'FAILED',
          session_status: 'FAILED',
          attempts_remaining: 0,
          session_failure: { code: 'ATTEMPTS_EXHAUSTED', step_id: 'ID_VERIFICATION' },
        });
      }
    }
  });

  it('refuses an external_id script that does not parse, at headless and hosted creation', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const headless = await sandbox.call('POST', `/v1/workflows/${workflowId}/sessions`, {
      body: { ...APPLICANT, external_id: 'sandbox-attempts:ID_VERIFICATION=NOPE' },
    });
    expect(headless.status).toBe(400);
    expect(headless.body.error).toContain('"NOPE"');
    const hostedRefusal = await sandbox.call('POST', '/v1/sessions', {
      body: { firstName: 'Jane', lastName: 'Doe', email: APPLICANT.email, workflowId, externalId: 'sandbox-attempts:WRONG=pass' },
    });
    expect(hostedRefusal.status).toBe(400);
    expect(hostedRefusal.body.error).toContain('"WRONG" is not a step id');
  });

  it('sets and removes a script through the control plane on a hosted session, where it wins over the content', async () => {
    const sandbox = await testSandbox();
    const sessionId = await hosted(sandbox, [{ id: 'DOCUMENT_UPLOAD' }]);
    const set = await sandbox.call('PUT', `/__sandbox/sessions/${sessionId}/attempt-script`, {
      key: null,
      body: { script: 'document-upload=DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED' },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ session_id: sessionId, script: 'document-upload=DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED', workflow_state: { current_step: 0 } });
    const keys = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg' });
    const scripted = await submit(sandbox, sessionId, 'DOCUMENT_UPLOAD', { uploads: { document: keys.id_front } });
    expect(scripted.body).toMatchObject({ step_status: 'IN_PROGRESS', failure: { code: 'DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED' } });
    const bad = await sandbox.call('PUT', `/__sandbox/sessions/${sessionId}/attempt-script`, { key: null, body: { script: 'DOCUMENT_UPLOAD=maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('"maybe"');
    const removed = await sandbox.call('PUT', `/__sandbox/sessions/${sessionId}/attempt-script`, { key: null, body: { script: null } });
    expect(removed.body.script).toBeNull();
    expect((await submit(sandbox, sessionId, 'DOCUMENT_UPLOAD', { uploads: { document: keys.id_front } })).body.step_status).toBe('COMPLETED');
  });
});
