import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { APPLICANT, createHeadlessSession, createWorkflow, submit, uploadToSession } from './helpers.ts';

/** A session whose ID_VERIFICATION step has `config`, with every slot uploaded (person A's pictures). */
async function sessionWith(sandbox: TestSandbox, config: Record<string, unknown> = {}) {
  const workflowId = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION', config }, { id: 'FACE_LIVENESS' }]);
  const sessionId = await createHeadlessSession(sandbox, workflowId, APPLICANT);
  const keys = await uploadToSession(sandbox, sessionId, {
    id_front: 'passport.jpg',
    id_back: 'national-id.jpg',
    secondary_id_front: 'national-id.jpg',
    secondary_id_back: 'passport.jpg',
    tertiary_id_front: 'passport.jpg',
    tertiary_id_back: 'national-id.jpg',
    selfie_front: 'face.jpg',
  });
  return { sessionId, keys };
}

async function expectRefused(sandbox: TestSandbox, sessionId: string, body: unknown, message: RegExp) {
  const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', body);
  expect(response.status, JSON.stringify(body)).toBe(400);
  expect(response.body.error).toMatch(message);
  const state = (await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`)).body;
  expect(state.steps[0]).toMatchObject({ status: 'PENDING', attempts: 0 });
  expect(state.attempts_remaining).toBe(3);
}

describe('ID_VERIFICATION body against the step requirements', () => {
  it('refuses each invalid body of the spec table for a one-document step, naming the field and the fix', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, keys } = await sessionWith(sandbox);
    const passport = { id_front: keys.id_front, selfie_front: keys.selfie_front };
    await expectRefused(sandbox, sessionId, { uploads: passport }, /document_type is required/);
    await expectRefused(sandbox, sessionId, { document_type: 'passport-us' }, /uploads is required/);
    await expectRefused(sandbox, sessionId, { document_type: 'passport-us', uploads: { selfie_front: keys.selfie_front } }, /id_front is required/);
    await expectRefused(sandbox, sessionId, { document_type: 'passport-us', uploads: { id_front: keys.id_front } }, /selfie_front is required/);
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'driver-license-us', uploads: passport },
      /uploads.id_back is required for document_type "driver-license-us": send the file key of its back image \(only passport-us, passport-ca are front-only\)/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'passport-us', uploads: { ...passport, id_back: keys.id_back } },
      /uploads.id_back must not be sent for document_type "passport-us": that type is front-only/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'passport-us', secondary_document_type: 'national-id-us', uploads: passport },
      /secondary_document_type must not be sent: this step does not require a secondary ID/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'passport-us', uploads: { ...passport, secondary_id_front: keys.secondary_id_front } },
      /uploads.secondary_id_front must not be sent/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'passport-us', uploads: { ...passport, tertiary_id_back: keys.tertiary_id_back } },
      /uploads.tertiary_id_back must not be sent: this step does not require a tertiary ID/,
    );
    await expectRefused(sandbox, sessionId, { document_type: 'passport-us', uploads: passport, extra: 1 }, /unknown keys "extra"/);
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'passport-us', uploads: { ...passport, selfie_left: keys.selfie_front } },
      /unknown keys "selfie_left"/,
    );
    await expectRefused(sandbox, sessionId, { document_type: 'passport-us', uploads: { ...passport, id_front: 42 } }, /id_front must be a file key/);
    await expectRefused(sandbox, sessionId, { document_type: '', uploads: passport }, /document_type must not be empty/);
  });

  it('applies the same rules to secondary and tertiary documents when the step requires them', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, keys } = await sessionWith(sandbox, { require_secondary_id: true, require_tertiary_id: true });
    const primary = { id_front: keys.id_front, selfie_front: keys.selfie_front };
    const secondary = { secondary_id_front: keys.secondary_id_front, secondary_id_back: keys.secondary_id_back };
    const tertiary = { tertiary_id_front: keys.tertiary_id_front };
    const all = { document_type: 'passport-us', secondary_document_type: 'national-id-us', tertiary_document_type: 'passport-ca' };
    await expectRefused(
      sandbox,
      sessionId,
      { document_type: 'passport-us', tertiary_document_type: 'passport-ca', uploads: { ...primary, ...secondary, ...tertiary } },
      /secondary_document_type is required: this step requires a secondary ID/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { ...all, uploads: { ...primary, secondary_id_back: keys.secondary_id_back, ...tertiary } },
      /uploads.secondary_id_front is required/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { ...all, uploads: { ...primary, secondary_id_front: keys.secondary_id_front, ...tertiary } },
      /uploads.secondary_id_back is required for secondary_document_type "national-id-us"/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { ...all, secondary_document_type: 'passport-ca', uploads: { ...primary, ...secondary, ...tertiary } },
      /uploads.secondary_id_back must not be sent for secondary_document_type "passport-ca"/,
    );
    await expectRefused(
      sandbox,
      sessionId,
      { ...all, tertiary_document_type: undefined, uploads: { ...primary, ...secondary, ...tertiary } },
      /tertiary_document_type is required/,
    );
    await expectRefused(sandbox, sessionId, { ...all, uploads: { ...primary, ...secondary } }, /uploads.tertiary_id_front is required/);
    await expectRefused(
      sandbox,
      sessionId,
      { ...all, tertiary_document_type: 'driver-license-ca', uploads: { ...primary, ...secondary, ...tertiary } },
      /uploads.tertiary_id_back is required for tertiary_document_type "driver-license-ca"/,
    );

    const done = await submit(sandbox, sessionId, 'ID_VERIFICATION', { ...all, uploads: { ...primary, ...secondary, ...tertiary } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.step_status).toBe('COMPLETED');
    expect(done.body.checks.documents.map((d: { slot: string; document_type: string }) => [d.slot, d.document_type])).toEqual([
      ['PRIMARY', 'passport-us'],
      ['SECONDARY', 'national-id-us'],
      ['TERTIARY', 'passport-ca'],
    ]);
    const record = (await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body.session_record;
    expect(Object.keys(record.analysis_data)).toEqual(expect.arrayContaining(['id_analysis_data', 'secondary_id_analysis_data', 'tertiary_id_analysis_data']));
    expect(record.analysis_data.selected_document_types).toEqual({ primary: 'passport-us', secondary: 'national-id-us', tertiary: 'passport-ca' });
    expect(record.uploads).toMatchObject({ id_front: true, secondary_id_front: true, secondary_id_back: true, tertiary_id_front: true, selfie_front: true });
    const state = (await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`)).body;
    expect(state.steps[0].requirements.document.require_front_only).toBe(true);
  }, 60_000);

  it('takes a two-sided document without its back when the step is configured require_front_only', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const { sessionId, keys } = await sessionWith(sandbox, { require_front_only: true });
    const response = await submit(sandbox, sessionId, 'ID_VERIFICATION', {
      document_type: 'national-id-us',
      uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.step_status).toBe('COMPLETED');
  });

  it('refuses an unknown step id in the path and a bad FACE_LIVENESS body', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const workflowId = await createWorkflow(sandbox, [{ id: 'FACE_LIVENESS' }]);
    const sessionId = await createHeadlessSession(sandbox, workflowId);
    const unknown = await submit(sandbox, sessionId, 'BOGUS_STEP', {});
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/step_id "BOGUS_STEP" is not a step id/) });
    const path = await submit(sandbox, sessionId, 'PEP_SANCTIONS', {});
    expect(path.status).toBe(400);
    expect(path.body).toMatchObject({
      code: 'STEP_NOT_RUNNABLE',
      error: 'PEP_SANCTIONS cannot be submitted through the API: a headless session runs ID_VERIFICATION and FACE_LIVENESS only; submit FACE_LIVENESS next.',
    });
    for (const [body, message] of [
      [{}, /action must be one of start, complete, upload-url/],
      [{ action: 'finish' }, /action must be one of start, complete, upload-url/],
      [{ action: 'start', extra: true }, /unknown keys "extra"/],
    ] as const) {
      const response = await submit(sandbox, sessionId, 'FACE_LIVENESS', body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
    }
    const ignored = await submit(sandbox, sessionId, 'FACE_LIVENESS', { action: 'start', frame_count: 99 });
    expect(ignored.status, ignored.text).toBe(200);
  });
});
