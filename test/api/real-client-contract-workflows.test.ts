/**
 * Independent contract check: the real client's workflows and workflowSessions modules
 * (real-client-facts §6.8-6.9). Requests are sent as the client sends them (its step-id enum, snake_case
 * session and step bodies, `{}` on start, `{config}` on the PATCH) and every 2xx body is parsed with
 * schemas written from the facts file alone (test/api/real-client/workflows.ts), never with the sandbox's
 * own; error bodies are read the way callers read them (`err.response.body`).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { RealClient, sdkErrorOf } from './real-client/client.ts';
import { operationCoverage } from './real-client/coverage.ts';
import { CLIENT_STEP_IDS, workflowsAndSessions, type IdVerificationInput } from './real-client/workflows.ts';

const { track } = operationCoverage([
  'sessions.create',
  'sessions.createUploadUrls',
  'sessions.list',
  'sessions.retrieve',
  'upload.put',
  'workflowSessions.retrieve',
  'workflowSessions.start',
  'workflowSessions.submitStep',
  'workflows.create',
  'workflows.createSession',
  'workflows.list',
  'workflows.retrieve',
  'workflows.updateStepConfig',
]);

/** fixtures/workflows.json (data, not schemas: listed here by id). */
const FIXTURES = {
  withScreening: 'e41c7a95-3f2d-4b86-a0e9-8d5c2b7f1a64',
  inactive: '3e6a1d8c-5b2f-4c7e-9a04-7f1b8d2e6c53',
  otherOrganization: '5a9d2f7c-1e4b-4c3a-8f6d-0b7e9a2c5d18',
} as const;

const APPLICANT = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', phone: '+14155550123' } as const;
const picture = (file: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/images/${file}`, import.meta.url)));
const isUuid = (value: string) => z.uuid().safeParse(value).success;

async function clients(key: string = KEYS.live) {
  const sandbox = await testSandbox({ rateLimit: false });
  const client = track(new RealClient(sandbox, key));
  return { sandbox, client, sdk: workflowsAndSessions(client) };
}

function sdkFor(sandbox: TestSandbox, key: string) {
  const client = track(new RealClient(sandbox, key));
  return { client, sdk: workflowsAndSessions(client) };
}

/** The caller's own uploads: session upload URLs, then a PUT of each picture; returns the file keys by slot. */
async function upload(client: RealClient, sessionId: string, files: Record<string, string>): Promise<Record<string, string>> {
  const entries = Object.entries(files);
  const urls = await client.sessions.createUploadUrls(
    sessionId,
    entries.map(([slot, file]) => ({ file_name: file, content_type: 'image/jpeg', upload_type: slot })),
  );
  const keys: Record<string, string> = {};
  for (const [index, signed] of urls.data.signed_urls.entries()) {
    expect(await client.putTo(signed.upload_url, picture((entries[index] as [string, string])[1]), 'image/jpeg')).toBe(200);
    keys[signed.slot] = signed.file_key;
  }
  return keys;
}

async function passportAndSelfie(client: RealClient, sessionId: string, selfie = 'face.jpg'): Promise<IdVerificationInput> {
  const keys = await upload(client, sessionId, { id_front: 'passport.jpg', selfie_front: selfie });
  return { documentType: 'passport-us', uploads: { idFront: keys.id_front as string, selfieFront: keys.selfie_front as string } };
}

describe('the real client reads every workflows answer (§6.8)', () => {
  it('create, list, retrieve and updateStepConfig with the full step-id enum; every step has a config object', async () => {
    const { sandbox, sdk } = await clients();
    const spec = await sdk.workflows.create({
      name: 'Identity flow',
      steps: [
        { id: 'ID_VERIFICATION', config: { minimum_age: 21, require_secondary_id: true } },
        { id: 'FACE_LIVENESS', config: { confidence_threshold: 80 } },
        { id: 'AGE_ESTIMATION' },
        { id: 'PEP_SANCTIONS' },
        { id: 'ADVERSE_MEDIA' },
      ],
    });
    expect(spec.status).toBe(201);
    const workflow = spec.data.workflow;
    expect(isUuid(workflow.id)).toBe(true);
    expect(workflow).toMatchObject({ name: 'Identity flow', status: 'active', organization_id: 'org_demo' });
    expect(workflow.steps.map((step) => step.id)).toEqual(['id-verification', 'face-liveness', 'age-estimation', 'pep-sanctions', 'adverse-media']);
    expect(workflow.steps[0]?.config).toMatchObject({
      age_restriction_settings: { minimum_age: { lower: 21, upper: 51 } },
      id_scan_settings: { require_secondary_id: true },
    });
    expect(workflow.steps.slice(1).map((step) => step.config)).toEqual([{ confidence_threshold: 80 }, { minimum_age: 18 }, {}, {}]);

    // The client's other sixteen step ids, in their ordering rules (hosted-only steps).
    const hosted = await sdk.workflows.create({
      name: 'Hosted extras',
      steps: (
        [
          'ID_VERIFICATION',
          'BACKGROUND_CHECK',
          'FACE_LIVENESS_CONSENT_SETTINGS',
          'DEEPFAKE_DETECTION',
          'DEEP_AGE',
          'ADDRESS_VERIFICATION',
          'TITLE_SEARCH',
          'CUSTOM_PROMPT',
          'CONSENT',
          'WHITE_LABEL',
        ] as const
      ).map((id) => ({ id })),
    });
    const banking = await sdk.workflows.create({
      name: 'Banking',
      steps: [
        { id: 'BANK_STATEMENT_UPLOAD', config: { period: '3' } },
        { id: 'AI_BANK_STATEMENT_ANALYSIS' },
        { id: 'DOCUMENT_UPLOAD' },
        { id: 'PHONE_TRUST_CHECK' },
        { id: 'CARRIER_AGE_GATE' },
        { id: 'PHONE_OWNERSHIP_MATCH' },
        { id: 'PHONE_VERIFICATION' },
      ],
    });
    expect(banking.data.workflow.steps[0]).toEqual({ id: 'bank-statement-upload', config: { period: '3' } });
    const refused = await sdkErrorOf(sdk.workflows.create({ name: 'Out of order', steps: [{ id: 'BACKGROUND_CHECK' }, { id: 'ID_VERIFICATION' }] }));
    expect(refused.className).toBe('ValidationError');
    expect(refused.message).toMatch(/BACKGROUND_CHECK/);

    const list = await sdk.workflows.list();
    const listed = new Map(list.data.workflows.map((summary) => [summary.id, summary]));
    for (const created of [spec, hosted, banking]) {
      expect(listed.get(created.data.workflow.id)).toEqual({
        id: created.data.workflow.id,
        name: created.data.workflow.name,
        status: 'active',
        steps: expect.any(Array),
        created_at: created.data.workflow.created_at,
      });
    }
    const stepIds = new Set([spec, hosted, banking].flatMap((created) => listed.get(created.data.workflow.id)?.steps ?? []));
    expect([...stepIds].sort()).toEqual([...CLIENT_STEP_IDS].sort());

    const retrieved = await sdk.workflows.retrieve(workflow.id);
    expect(retrieved.raw).toEqual(spec.raw);

    sandbox.clock.advance(60_000);
    const patched = await sdk.workflows.updateStepConfig(workflow.id, 'FACE_LIVENESS', { confidence_threshold: 90 });
    expect(patched.data.workflow.steps[1]).toEqual({ id: 'face-liveness', config: { confidence_threshold: 90 } });
    expect(patched.data.workflow.updated_at).toBe('2026-01-15T09:31:00.000Z');
    expect((await sdk.workflows.retrieve(workflow.id)).data.workflow.steps[1]?.config).toEqual({ confidence_threshold: 90 });
  });

  it('errors map to the client classes: 400 naming the field, 403 for a sandbox-key write or another organization, 404 unknown', async () => {
    const { sandbox, sdk } = await clients();
    const { workflow } = (await sdk.workflows.create({ name: 'w', steps: [{ id: 'FACE_LIVENESS' }] })).data;

    const badConfig = await sdkErrorOf(sdk.workflows.updateStepConfig(workflow.id, 'FACE_LIVENESS', { confidence_threshold: 101 }));
    expect(badConfig.className).toBe('ValidationError');
    expect(badConfig.message).toMatch(/confidence_threshold/);
    expect((await sdkErrorOf(sdk.workflows.create({ name: '', steps: [{ id: 'FACE_LIVENESS' }] }))).message).toMatch(/name/);
    expect((await sdkErrorOf(sdk.workflows.retrieve('00000000-0000-4000-8000-000000000000'))).className).toBe('NotFoundError');

    const other = sdkFor(sandbox, KEYS.other).sdk;
    expect((await sdkErrorOf(other.workflows.retrieve(workflow.id))).className).toBe('AuthorizationError');
    expect((await sdkErrorOf(other.workflows.updateStepConfig(workflow.id, 'FACE_LIVENESS', {}))).className).toBe('AuthorizationError');

    const sandboxKey = sdkFor(sandbox, KEYS.sandbox).sdk;
    const write = await sdkErrorOf(sandboxKey.workflows.create({ name: 'w', steps: [{ id: 'FACE_LIVENESS' }] }));
    expect(write.className).toBe('AuthorizationError');
    expect(write.message).toMatch(/live/i);
    // A sandbox key reads synthetic workflows, in the production shape.
    const synthetic = await sandboxKey.workflows.list();
    expect(synthetic.data.workflows.length).toBeGreaterThan(0);
    expect((await sandboxKey.workflows.retrieve('any-id')).data.workflow.id).toBe('any-id');
    expect((await sdk.workflows.retrieve(workflow.id)).data.workflow.steps).toEqual([{ id: 'face-liveness', config: { confidence_threshold: 70 } }]);
  });

  it('createSession: the headless session (expires_at key always there), listed and retrievable as a session record', async () => {
    const { client, sdk } = await clients();
    const { workflow } = (await sdk.workflows.create({ name: 'Identity flow', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] })).data;

    const plain = await sdk.workflows.createSession(workflow.id, APPLICANT);
    expect(plain.status).toBe(200);
    expect(plain.raw).toHaveProperty('expires_at', null);
    expect(isUuid(plain.data.session_id)).toBe(true);
    expect(plain.data.current_step).toBe(0);
    expect(plain.data.steps.map((step) => [step.step_id, step.status])).toEqual([
      ['ID_VERIFICATION', 'PENDING'],
      ['FACE_LIVENESS', 'PENDING'],
    ]);
    expect(plain.data.steps[0]?.requirements).toMatchObject({ document: { require_front_only: false }, face: { face_front_photo_only: false } });
    expect(plain.data.steps[1]?.requirements).toEqual({ challenge_type: 'FaceMovementChallenge', confidence_threshold: 70 });

    const expiring = await sdk.workflows.createSession(workflow.id, { ...APPLICANT, externalId: 'customer-1', expiresInHours: 48 });
    expect(expiring.data.expires_at).toBe('2026-01-17T09:30:00.000Z');

    const listed = await client.sessions.list({ workflowId: workflow.id });
    expect(listed.data.sessions.map((session) => session.id).sort()).toEqual([plain.data.session_id, expiring.data.session_id].sort());
    const record = await client.sessions.retrieve(expiring.data.session_id);
    expect(record.data.session_record).toMatchObject({
      type: 'session',
      status: 'PENDING',
      workflow_id: workflow.id,
      external_id: 'customer-1',
      workflow_steps: ['id-verification', 'face-liveness'],
    });
  });

  it('createSession refusals: invalid_steps readable from the body, inactive 400, another organization 403, unknown 404, empty balance 402', async () => {
    const { sandbox, sdk } = await clients();
    const screening = await sdkErrorOf(sdk.workflows.createSession(FIXTURES.withScreening, APPLICANT));
    expect(screening.className).toBe('ValidationError');
    expect(screening.response?.body).toMatchObject({ error: expect.any(String), invalid_steps: ['PEP_SANCTIONS', 'ADVERSE_MEDIA'] });
    const inactive = await sdkErrorOf(sdk.workflows.createSession(FIXTURES.inactive, APPLICANT));
    expect(inactive.className).toBe('ValidationError');
    expect(inactive.message).toMatch(/not active/);
    expect((await sdkErrorOf(sdk.workflows.createSession(FIXTURES.otherOrganization, APPLICANT))).className).toBe('AuthorizationError');
    expect((await sdkErrorOf(sdk.workflows.createSession('00000000-0000-4000-8000-000000000000', APPLICANT))).className).toBe('NotFoundError');
    const { workflow } = (await sdk.workflows.create({ name: 'w', steps: [{ id: 'ID_VERIFICATION' }] })).data;
    expect((await sdkErrorOf(sdk.workflows.createSession(workflow.id, { ...APPLICANT, phone: '4155550123' }))).message).toMatch(/phone/);

    const broke = sdkFor(sandbox, KEYS.broke).sdk;
    const own = (await broke.workflows.create({ name: 'b', steps: [{ id: 'ID_VERIFICATION' }] })).data.workflow;
    expect((await sdkErrorOf(broke.workflows.createSession(own.id, APPLICANT))).className).toBe('InsufficientFundsError');
  });
});

describe('the real client reads every workflowSessions answer (§6.9)', () => {
  it('retrieve and start, then ID_VERIFICATION and FACE_LIVENESS upload-url / start / complete through to VERIFIED', async () => {
    const { sandbox, client, sdk } = await clients();
    const { workflow } = (await sdk.workflows.create({ name: 'Identity flow', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] })).data;
    const sessionId = (await sdk.workflows.createSession(workflow.id, APPLICANT)).data.session_id;

    const state = await sdk.workflowSessions.retrieve(sessionId);
    expect(state.data).toMatchObject({ session_id: sessionId, status: 'PENDING', session_progress: 'PENDING', current_step: 0, attempts_remaining: 3 });
    expect(state.data.steps[0]).toMatchObject({
      step_id: 'ID_VERIFICATION',
      status: 'PENDING',
      attempts: 0,
      started_at: null,
      completed_at: null,
      failure_reason: null,
    });
    sandbox.clock.advance(5_000);
    const started = await sdk.workflowSessions.start(sessionId);
    // Start validates and writes nothing (repeatable until the first submission).
    expect(started.data).toMatchObject({ session_progress: 'PENDING', current_step: 0 });
    expect(started.data.steps[0]).toMatchObject({ status: 'PENDING', started_at: null });
    expect((await sdk.workflowSessions.start(sessionId)).raw).toEqual(started.raw);

    const early = await sdkErrorOf(sdk.workflowSessions.submitStep(sessionId, 'FACE_LIVENESS', { action: 'start' }));
    expect(early.className).toBe('ConflictError');
    expect(early.message).toMatch(/submit ID_VERIFICATION/);

    const id = await sdk.workflowSessions.submitStep(sessionId, 'ID_VERIFICATION', await passportAndSelfie(client, sessionId));
    expect(Object.keys(id.raw as object)[0]).toBe('step_id');
    expect(id.data).toMatchObject({
      step_id: 'ID_VERIFICATION',
      step_status: 'COMPLETED',
      failure_reason: null,
      current_step: 1,
      attempts_remaining: 3,
      session_status: 'PENDING',
      session_progress: 'STARTED',
    });
    expect(id.payload).toEqual({ checks: expect.objectContaining({ id_matches_selfie: true }) });

    const urls = await sdk.workflowSessions.submitStep(sessionId, 'FACE_LIVENESS', { action: 'upload-url', frameCount: 2 });
    expect(urls.data).toMatchObject({ step_id: 'FACE_LIVENESS', step_status: 'IN_PROGRESS', current_step: 1 });
    const liveness = urls.payload.liveness as { frame_upload_urls: string[] };
    expect(z.array(z.string()).length(2).parse(liveness.frame_upload_urls)).toHaveLength(2);
    for (const url of liveness.frame_upload_urls) expect(await client.putTo(url, picture('face.jpg'), 'image/jpeg')).toBe(200);
    const start = await sdk.workflowSessions.submitStep(sessionId, 'FACE_LIVENESS', { action: 'start' });
    expect(isUuid((start.payload.liveness as { liveness_session_id: string }).liveness_session_id)).toBe(true);
    const complete = await sdk.workflowSessions.submitStep(sessionId, 'FACE_LIVENESS', { action: 'complete' });
    expect(complete.data).toMatchObject({
      step_status: 'COMPLETED',
      failure_reason: null,
      current_step: null,
      session_status: 'VERIFIED',
      session_progress: 'COMPLETED',
    });
    expect(complete.payload.liveness).toMatchObject({ passed: true, confidence_threshold: 70 });

    const done = await sdk.workflowSessions.retrieve(sessionId);
    expect(done.raw).toMatchObject({ current_step: null, status: 'VERIFIED' });
    expect(done.data.steps.map((step) => step.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect((await client.sessions.retrieve(sessionId)).data.session_record).toMatchObject({
      status: 'VERIFIED',
      uploads: { id_front: true, selfie_front: true },
    });

    const after = await sdkErrorOf(sdk.workflowSessions.submitStep(sessionId, 'FACE_LIVENESS', { action: 'start' }));
    expect(after.className).toBe('ConflictError');
    expect((await sdkErrorOf(sdk.workflowSessions.start(sessionId))).className).toBe('ConflictError');
  });

  it('failed attempts: the envelope counts down attempts_remaining, the last one fails the session, then 409', async () => {
    const { client, sdk } = await clients();
    const { workflow } = (await sdk.workflows.create({ name: 'ID only', steps: [{ id: 'ID_VERIFICATION' }] })).data;
    const sessionId = (await sdk.workflows.createSession(workflow.id, APPLICANT)).data.session_id;
    const mismatched = await passportAndSelfie(client, sessionId, 'different-face.jpg');
    const remaining: (number | null)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await sdk.workflowSessions.submitStep(sessionId, 'ID_VERIFICATION', mismatched);
      expect(answer.data.failure_reason).toBe('LOW_FACE_MATCH');
      remaining.push(answer.data.attempts_remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const state = await sdk.workflowSessions.retrieve(sessionId);
    expect(state.data).toMatchObject({ status: 'FAILED', session_progress: 'COMPLETED', current_step: null, attempts_remaining: 0 });
    expect(state.data.steps[0]).toMatchObject({ status: 'FAILED', attempts: 3, failure_reason: 'LOW_FACE_MATCH' });
    expect((await client.sessions.retrieve(sessionId)).data.session_record.meta_data).toMatchObject({ failureData: { failedAttempts: 3 } });
    const terminal = await sdkErrorOf(sdk.workflowSessions.submitStep(sessionId, 'ID_VERIFICATION', mismatched));
    expect(terminal.className).toBe('ConflictError');
    expect(terminal.message).toMatch(/FAILED \(terminal\)/);
  });

  it('refusals: a body breaking the requirements 400, another organization 403, a hosted session 404; a sandbox key reads a synthetic state', async () => {
    const { sandbox, client, sdk } = await clients();
    const { workflow } = (await sdk.workflows.create({ name: 'ID only', steps: [{ id: 'ID_VERIFICATION' }] })).data;
    const sessionId = (await sdk.workflows.createSession(workflow.id, APPLICANT)).data.session_id;
    const keys = await upload(client, sessionId, { id_front: 'national-id.jpg', selfie_front: 'face.jpg' });
    const noBack = await sdkErrorOf(
      sdk.workflowSessions.submitStep(sessionId, 'ID_VERIFICATION', {
        documentType: 'national-id-us',
        uploads: { idFront: keys.id_front as string, selfieFront: keys.selfie_front as string },
      }),
    );
    expect(noBack.className).toBe('ValidationError');
    expect(noBack.message).toMatch(/uploads\.id_back is required/);
    expect((await sdk.workflowSessions.retrieve(sessionId)).data.steps[0]).toMatchObject({ status: 'PENDING', attempts: 0 });

    const other = sdkFor(sandbox, KEYS.other).sdk;
    expect((await sdkErrorOf(other.workflowSessions.retrieve(sessionId))).className).toBe('AuthorizationError');
    const hosted = await client.sessions.create({ email: 'a@example.com', firstName: 'A', lastName: 'B' });
    expect((await sdkErrorOf(sdk.workflowSessions.retrieve(hosted.data.id))).className).toBe('NotFoundError');

    const synthetic = await sdkFor(sandbox, KEYS.sandbox).sdk.workflowSessions.retrieve('any-session');
    expect(synthetic.data).toMatchObject({ session_id: 'any-session', current_step: null });
  });
});
