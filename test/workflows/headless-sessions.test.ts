import { describe, expect, it } from 'vitest';
import { WorkflowSessionSchema, WorkflowStateSchema } from '../../src/workflows/workflow-sessions.schemas.ts';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { APPLICANT, createWorkflow } from './helpers.ts';

const createSession = (sandbox: TestSandbox, workflowId: string, body: unknown, key: string = KEYS.live) =>
  sandbox.call('POST', `/v1/workflows/${workflowId}/sessions`, { key, body });

describe('POST /v1/workflows/{id}/sessions', () => {
  it('answers the headless session: uuid, nullable expires_at, PENDING steps with requirements from the resolved config, current_step 0', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox, [
      { id: 'ID_VERIFICATION', config: { require_secondary_id: true, face_front_photo_only: true, require_front_only: true } },
      { id: 'FACE_LIVENESS', config: { confidence_threshold: 80 } },
    ]);
    const response = await createSession(sandbox, workflowId, APPLICANT);
    expect(response.status, response.text).toBe(200);
    const session = WorkflowSessionSchema.parse(response.body);
    expect(session.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(response.body).toHaveProperty('expires_at', null);
    expect(session.current_step).toBe(0);
    expect(session.steps).toEqual([
      {
        step_id: 'ID_VERIFICATION',
        status: 'PENDING',
        requirements: {
          document: {
            require_front_only: false,
            front_only_document_types: ['passport-us', 'passport-ca'],
            require_secondary_id: true,
            require_tertiary_id: false,
            valid_id_types: ['driver-license-us', 'driver-license-ca', 'passport-us', 'passport-ca', 'national-id-us'],
            valid_states: expect.arrayContaining(['CA', 'NY', 'TX', 'ON', 'QC']),
          },
          face: { face_front_photo_only: true },
        },
      },
      { step_id: 'FACE_LIVENESS', status: 'PENDING', requirements: { challenge_type: 'FaceMovementChallenge', confidence_threshold: 80 } },
    ]);
    expect(response.body.session_url).toBeUndefined();
  });

  it('is also a session record of type session, in GET /v1/sessions/{id} and the lists, and costs one token', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const before = (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body.organizations.find(
      (o: { id: string }) => o.id === 'org_demo',
    ).balance;
    const { session_id } = (await createSession(sandbox, workflowId, { ...APPLICANT, externalId: 'cust-9', expiresInHours: 48 })).body;
    const after = (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body.organizations.find(
      (o: { id: string }) => o.id === 'org_demo',
    ).balance;
    expect(after).toBe(before - 1);
    const read = await sandbox.call('GET', `/v1/sessions/${session_id}`);
    expect(read.body.session_record).toMatchObject({
      id: session_id,
      type: 'session',
      status: 'PENDING',
      session_progress: 'PENDING',
      workflow_id: workflowId,
      external_id: 'cust-9',
      expires_at: '2026-01-17T09:30:00.000Z',
    });
    expect(read.body.user).toMatchObject({ first_name: 'Jane', last_name: 'Doe', phone: '+14155550123' });
    for (const query of [`workflow_id=${workflowId}`, 'external_id=cust-9', 'by_organization=true']) {
      const list = await sandbox.call('GET', `/v1/sessions?${query}`);
      expect(list.body.sessions.map((s: { id: string }) => s.id)).toContain(session_id);
    }
  });

  it('refuses a workflow with steps a headless session cannot run with 400 and invalid_steps', async () => {
    const sandbox = await testSandbox();
    const response = await createSession(sandbox, FIXTURE_WORKFLOW_IDS.noExpiry, APPLICANT);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: `Workflow ${FIXTURE_WORKFLOW_IDS.noExpiry} has steps a headless session cannot run (PEP_SANCTIONS, ADVERSE_MEDIA): only ID_VERIFICATION and FACE_LIVENESS workflows are accepted; use POST /v1/sessions for a hosted session instead.`,
      invalid_steps: ['PEP_SANCTIONS', 'ADVERSE_MEDIA'],
      code: 'UNSUPPORTED_WORKFLOW_STEPS',
    });
  });

  it("refuses an inactive workflow (400), another organization's (403), an unknown one (404) and an empty balance (402)", async () => {
    const sandbox = await testSandbox();
    const inactive = await createSession(sandbox, FIXTURE_WORKFLOW_IDS.inactive, APPLICANT);
    expect(inactive.status).toBe(400);
    expect(inactive.body.error).toMatch(/is inactive, not active/);
    const foreign = await createSession(sandbox, FIXTURE_WORKFLOW_IDS.otherOrganization, APPLICANT);
    expect(foreign.status).toBe(403);
    expect((await createSession(sandbox, '00000000-0000-4000-8000-000000000000', APPLICANT)).status).toBe(404);
    const workflowOfBroke = await sandbox.call('POST', '/v1/workflows', { key: KEYS.broke, body: { name: 'b', steps: [{ id: 'ID_VERIFICATION' }] } });
    expect(workflowOfBroke.status).toBe(201);
    const broke = await createSession(sandbox, workflowOfBroke.body.workflow.id, APPLICANT, KEYS.broke);
    expect(broke.status).toBe(402);
    expect((await sandbox.call('GET', '/v1/sessions?by_organization=true', { key: KEYS.broke })).body.sessions).toEqual([]);
  });

  it('validates the body with aliases (camelCase wins) and limits, naming the field', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...APPLICANT, email: undefined }, /email is required/],
      [{ ...APPLICANT, phone: undefined }, /phone is required/],
      [{ ...APPLICANT, phone: '415 555 0123' }, /phone must be in E.164 format/],
      [{ ...APPLICANT, first_name: undefined }, /first_name/],
      [{ ...APPLICANT, last_name: 'x'.repeat(256) }, /last_name must be at most 255/],
      [{ ...APPLICANT, expires_in_hours: 0 }, /expires_in_hours must be at least 1/],
      [{ ...APPLICANT, expires_in_hours: 8761 }, /expires_in_hours must be at most 8760/],
    ];
    for (const [body, message] of cases) {
      const response = await createSession(sandbox, workflowId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toMatch(message);
    }
    expect((await sandbox.call('GET', `/v1/sessions?workflow_id=${workflowId}`)).body.sessions).toEqual([]);
    const aliased = await createSession(sandbox, workflowId, { ...APPLICANT, first_name: 'snake', firstName: 'Camel', expiresInHours: 8760 });
    expect(aliased.status).toBe(200);
    expect(aliased.body.expires_at).toBe('2027-01-15T09:30:00.000Z');
    expect((await sandbox.call('GET', `/v1/sessions/${aliased.body.session_id}`)).body.user.first_name).toBe('Camel');
  });
});

describe('GET /v1/sessions/{id}/workflow and POST .../workflow/start', () => {
  it('answers every key of the state, and start validates without writing (repeatable until a step is submitted)', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const { session_id } = (await createSession(sandbox, workflowId, APPLICANT)).body;
    const state = await sandbox.call('GET', `/v1/sessions/${session_id}/workflow`);
    expect(WorkflowStateSchema.parse(state.body)).toMatchObject({
      session_id,
      status: 'PENDING',
      session_progress: 'PENDING',
      current_step: 0,
      attempts_remaining: 3,
    });
    expect(state.body.steps[0]).toEqual(
      expect.objectContaining({ step_id: 'ID_VERIFICATION', status: 'PENDING', attempts: 0, started_at: null, completed_at: null, failure_reason: null }),
    );
    sandbox.clock.advance(10_000);
    const started = await sandbox.call('POST', `/v1/sessions/${session_id}/workflow/start`, { body: {} });
    expect(started.status, started.text).toBe(200);
    expect(started.text).toBe(state.text);
    sandbox.clock.advance(10_000);
    const again = await sandbox.call('POST', `/v1/sessions/${session_id}/workflow/start`);
    expect(again.text).toBe(started.text);
    expect((await sandbox.call('GET', `/v1/sessions/${session_id}/workflow`)).text).toBe(state.text);
  });

  it('answers 404 for a hosted session and an unknown id, 403 for another organization, and a synthetic state to a sandbox key', async () => {
    const sandbox = await testSandbox();
    const hosted = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'A', last_name: 'B', email: 'a@example.com' } });
    const notHeadless = await sandbox.call('GET', `/v1/sessions/${hosted.body.id}/workflow`);
    expect(notHeadless.status).toBe(404);
    expect(notHeadless.body).toMatchObject({
      code: 'EXECUTION_STATE_NOT_FOUND',
      error: expect.stringMatching(/was created without a workflow, so it has no workflow state/),
    });
    const unknown = await sandbox.call('GET', '/v1/sessions/00000000-0000-4000-8000-000000000000/workflow');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('SESSION_NOT_FOUND');
    const workflowId = await createWorkflow(sandbox);
    const { session_id } = (await createSession(sandbox, workflowId, APPLICANT)).body;
    const foreign = await sandbox.call('GET', `/v1/sessions/${session_id}/workflow`, { key: KEYS.other });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('FORBIDDEN');
    expect((await sandbox.call('POST', `/v1/sessions/${session_id}/steps/ID_VERIFICATION`, { key: KEYS.other, body: {} })).status).toBe(403);
    const synthetic = await sandbox.call('GET', '/v1/sessions/anything/workflow', { key: KEYS.sandbox });
    expect(WorkflowStateSchema.parse(synthetic.body)).toMatchObject({ session_id: 'anything', status: 'VERIFIED', current_step: null });
  });
});
