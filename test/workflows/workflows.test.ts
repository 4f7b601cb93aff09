import { describe, expect, it } from 'vitest';
import { SingleSessionResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { STEP_CODES } from '../../src/workflows/steps/index.ts';
import { WorkflowListResponseSchema, WorkflowResponseSchema } from '../../src/workflows/workflows.schemas.ts';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { createWorkflow } from './helpers.ts';

const create = (sandbox: TestSandbox, body: unknown, key: string = KEYS.live) => sandbox.call('POST', '/v1/workflows', { key, body });

/** The resolved config of a single-step workflow created with `config`. */
async function resolved(sandbox: TestSandbox, id: string, config?: Record<string, unknown>) {
  const response = await create(sandbox, { name: 'w', steps: [{ id, ...(config === undefined ? {} : { config }) }] });
  expect(response.status, response.text).toBe(201);
  return WorkflowResponseSchema.parse(response.body).workflow.steps[0]!.config;
}

async function expect400(sandbox: TestSandbox, body: unknown, message: RegExp) {
  const before = (await sandbox.call('GET', '/v1/workflows')).body.workflows.length;
  const response = await create(sandbox, body);
  expect(response.status, response.text).toBe(400);
  expect(response.body.error).toMatch(message);
  expect((await sandbox.call('GET', '/v1/workflows')).body.workflows.length).toBe(before);
}

describe('POST /v1/workflows', () => {
  it('answers 201 with an active workflow, steps in request order with lowercase hyphenated ids and resolved configs', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const response = await create(sandbox, {
      name: '  Identity flow ',
      steps: [{ id: 'FACE_LIVENESS' }, { id: 'ID_VERIFICATION' }, { id: 'PEP_SANCTIONS', config: {} }],
    });
    expect(response.status, response.text).toBe(201);
    const { workflow } = WorkflowResponseSchema.parse(response.body);
    expect(workflow).toMatchObject({
      name: 'Identity flow',
      status: 'active',
      organization_id: 'org_demo',
      created_at: '2026-01-15T09:30:00.000Z',
      updated_at: '2026-01-15T09:30:00.000Z',
    });
    expect(workflow.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(workflow.steps.map((step) => step.id)).toEqual(['face-liveness', 'id-verification', 'pep-sanctions']);
    expect(workflow.steps[2]!.config).toEqual({});
  });

  it("fills every ID_VERIFICATION default into the spec's resolved groups", async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    expect(await resolved(sandbox, 'ID_VERIFICATION')).toEqual({
      age_restriction_settings: { age_restriction_mode: 'minimum_age', country_category_minimum_age: null, minimum_age: { lower: 18, upper: 51 } },
      expiry_date_settings: { expiry_date: 2 },
      face_scan_settings: { face_front_photo_only: false },
      id_scan_face_settings: { require_front_only: false },
      id_scan_settings: { require_secondary_id: false, require_tertiary_id: false },
      fraud_analysis_settings: { enable_fraud_analysis: false, fraud_analysis_mode: 'async', escalation_type: 'none', escalation_risk_threshold: 60 },
    });
  });

  it('resolves the fraud behaviour rules: enabled runs synchronously, an escalation implies it', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    expect((await resolved(sandbox, 'ID_VERIFICATION', { enable_fraud_analysis: true })).fraud_analysis_settings).toEqual({
      enable_fraud_analysis: true,
      fraud_analysis_mode: 'sync',
      escalation_type: 'none',
      escalation_risk_threshold: 60,
    });
    expect((await resolved(sandbox, 'ID_VERIFICATION', { escalation_type: 'nfc-passport', escalation_risk_threshold: 0 })).fraud_analysis_settings).toEqual({
      enable_fraud_analysis: true,
      fraud_analysis_mode: 'sync',
      escalation_type: 'nfc-passport',
      escalation_risk_threshold: 0,
    });
    const every = await resolved(sandbox, 'ID_VERIFICATION', {
      minimum_age: 21,
      maximum_age: 65,
      expiry_date_years: 0,
      require_secondary_id: true,
      require_tertiary_id: true,
      face_front_photo_only: true,
      require_front_only: true,
    });
    expect(every).toMatchObject({
      age_restriction_settings: { minimum_age: { lower: 21, upper: 65 } },
      expiry_date_settings: { expiry_date: 0 },
      face_scan_settings: { face_front_photo_only: true },
      id_scan_face_settings: { require_front_only: true },
      id_scan_settings: { require_secondary_id: true, require_tertiary_id: true },
    });
  });

  it('accepts every range edge and refuses one past it, naming the field', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const edges: [string, string, number, number][] = [
      ['ID_VERIFICATION', 'minimum_age', 1, 100],
      ['ID_VERIFICATION', 'expiry_date_years', 0, 50],
      ['ID_VERIFICATION', 'escalation_risk_threshold', 0, 100],
      ['FACE_LIVENESS', 'confidence_threshold', 1, 100],
      ['AGE_ESTIMATION', 'minimum_age', 1, 100],
    ];
    for (const [id, field, low, high] of edges) {
      const extra = field === 'minimum_age' && id === 'ID_VERIFICATION' ? { maximum_age: 150 } : {};
      await resolved(sandbox, id, { ...extra, [field]: low });
      await resolved(sandbox, id, { ...extra, [field]: high });
      await expect400(
        sandbox,
        { name: 'w', steps: [{ id, config: { ...extra, [field]: low - 1 } }] },
        new RegExp(`steps\\.0\\.config\\.${field}" must be at least ${low}`),
      );
      await expect400(
        sandbox,
        { name: 'w', steps: [{ id, config: { ...extra, [field]: high + 1 } }] },
        new RegExp(`steps\\.0\\.config\\.${field}" must be at most ${high}`),
      );
      await expect400(sandbox, { name: 'w', steps: [{ id, config: { ...extra, [field]: low + 0.5 } }] }, new RegExp(`steps\\.0\\.config\\.${field}`));
    }
    await resolved(sandbox, 'ID_VERIFICATION', { minimum_age: 30, maximum_age: 30 });
    await expect400(
      sandbox,
      { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: { minimum_age: 30, maximum_age: 29 } }] },
      /maximum_age must be at least minimum_age/,
    );
    await expect400(sandbox, { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: { maximum_age: 151 } }] }, /maximum_age" must be at most 150/);
    expect(await resolved(sandbox, 'ID_VERIFICATION', { minimum_age: 1, maximum_age: 1 })).toMatchObject({
      age_restriction_settings: { minimum_age: { lower: 1, upper: 1 } },
    });
    await expect400(sandbox, { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: { minimum_age: 1, maximum_age: 0 } }] }, /maximum_age" must be at least 1/);
  });

  it('uses the defaults 70 for FACE_LIVENESS and 18 for AGE_ESTIMATION', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    expect(await resolved(sandbox, 'FACE_LIVENESS')).toEqual({ confidence_threshold: 70 });
    expect(await resolved(sandbox, 'AGE_ESTIMATION')).toEqual({ minimum_age: 18 });
  });

  it('refuses bad bodies with 400 naming the field, and stores nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    await expect400(sandbox, { steps: [{ id: 'ID_VERIFICATION' }] }, /name is required/);
    await expect400(sandbox, { name: '', steps: [{ id: 'ID_VERIFICATION' }] }, /name must not be empty/);
    await expect400(sandbox, { name: 'x'.repeat(256), steps: [{ id: 'ID_VERIFICATION' }] }, /name must be at most 255 characters/);
    await resolved(sandbox, 'ID_VERIFICATION');
    await expect400(sandbox, { name: 'w', steps: [] }, /steps must have at least 1 step/);
    await expect400(sandbox, { name: 'w', steps: Array.from({ length: 11 }, () => ({ id: 'CONSENT' })) }, /steps must have at most 10 steps/);
    await expect400(sandbox, { name: 'w', steps: [{ id: 'ID_VERIFICATION' }, { id: 'ID_VERIFICATION' }] }, /id ID_VERIFICATION appears more than once/);
    await expect400(sandbox, { name: 'w', steps: [{ id: 'SELFIE' }] }, /id must be one of ID_VERIFICATION, FACE_LIVENESS/);
    await expect400(
      sandbox,
      { name: 'w', steps: [{ id: 'PEP_SANCTIONS', config: { threshold: 1 } }] },
      /config is not accepted for PEP_SANCTIONS: it takes no settings/,
    );
    await expect400(sandbox, { name: 'w', steps: [{ id: 'ADVERSE_MEDIA', config: { x: 1 } }] }, /config is not accepted for ADVERSE_MEDIA/);
    await expect400(
      sandbox,
      { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: { minimum_agee: 21 } }] },
      /unknown keys "minimum_agee" for ID_VERIFICATION/,
    );
    await expect400(sandbox, { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: { escalation_type: 'sms' } }] }, /escalation_type/);
    await expect400(
      sandbox,
      { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: { require_tertiary_id: true } }] },
      /require_tertiary_id needs require_secondary_id true/,
    );
    await expect400(sandbox, { name: 'w', steps: [{ id: 'ID_VERIFICATION', config: 'strict' }] }, /config must be a JSON object/);
    await expect400(
      sandbox,
      { name: 'w', steps: [{ id: 'BACKGROUND_CHECK' }, { id: 'ID_VERIFICATION' }] },
      /BACKGROUND_CHECK needs an earlier ID_VERIFICATION/,
    );
    await expect400(sandbox, { name: 'w', steps: [{ id: 'AI_BANK_STATEMENT_ANALYSIS' }] }, /needs an earlier BANK_STATEMENT_UPLOAD/);
  });

  it("accepts every step id of the real client, in their ordering rules, and keeps other steps' configs as sent", async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const ordered = [...STEP_CODES.filter((code) => code !== 'BACKGROUND_CHECK' && code !== 'AI_BANK_STATEMENT_ANALYSIS')];
    const chunks = [ordered.slice(0, 10), ordered.slice(10)];
    for (const chunk of chunks) {
      const response = await create(sandbox, { name: 'all', steps: chunk.map((id) => ({ id })) });
      expect(response.status, response.text).toBe(201);
    }
    const dependent = await create(sandbox, {
      name: 'deps',
      steps: [
        { id: 'ID_VERIFICATION' },
        { id: 'BACKGROUND_CHECK' },
        { id: 'BANK_STATEMENT_UPLOAD' },
        { id: 'AI_BANK_STATEMENT_ANALYSIS' },
        { id: 'CUSTOM_PROMPT', config: { questions: ['Why?'] } },
      ],
    });
    expect(dependent.status, dependent.text).toBe(201);
    expect(dependent.body.workflow.steps.map((s: { id: string }) => s.id)).toEqual([
      'id-verification',
      'background-check',
      'bank-statement-upload',
      'ai-bank-statement-analysis',
      'custom-prompt',
    ]);
    expect(dependent.body.workflow.steps[4].config).toEqual({ questions: ['Why?'] });
  });

  it('answers 403 to a sandbox key, saying a live key is needed', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const response = await create(sandbox, { name: 'w', steps: [{ id: 'ID_VERIFICATION' }] }, KEYS.sandbox);
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/a live .*key/i);
  });
});

describe('GET /v1/workflows and GET /v1/workflows/{id}', () => {
  it('lists created workflows (newest first) then the fixture workflows, as summaries', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const first = await createWorkflow(sandbox);
    sandbox.clock.advance(1000);
    const second = await createWorkflow(sandbox, [{ id: 'AGE_ESTIMATION' }]);
    const list = WorkflowListResponseSchema.parse((await sandbox.call('GET', '/v1/workflows')).body).workflows;
    expect(list.slice(0, 2)).toEqual([
      { id: second, name: 'Identity flow', status: 'active', steps: ['AGE_ESTIMATION'], created_at: '2026-01-15T09:30:01.000Z' },
      { id: first, name: 'Identity flow', status: 'active', steps: ['ID_VERIFICATION', 'FACE_LIVENESS'], created_at: '2026-01-15T09:30:00.000Z' },
    ]);
    expect(list.map((w) => w.id)).toContain(FIXTURE_WORKFLOW_IDS.identity72h);
    expect(list.map((w) => w.id)).not.toContain(FIXTURE_WORKFLOW_IDS.otherOrganization);
    const other = (await sandbox.call('GET', '/v1/workflows', { key: KEYS.other })).body.workflows.map((w: { id: string }) => w.id);
    expect(other).toEqual([FIXTURE_WORKFLOW_IDS.otherOrganization]);
  });

  it('retrieves a workflow: 200 for the organization, 403 for another one, 404 unknown', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const id = await createWorkflow(sandbox);
    const own = await sandbox.call('GET', `/v1/workflows/${id}`);
    expect(WorkflowResponseSchema.parse(own.body).workflow).toMatchObject({
      id,
      status: 'active',
      steps: [{ id: 'id-verification' }, { id: 'face-liveness' }],
    });
    expect(own.body.workflow.settings).toBeUndefined();
    expect((await sandbox.call('GET', `/v1/workflows/${FIXTURE_WORKFLOW_IDS.identity72h}`)).status).toBe(200);
    const foreign = await sandbox.call('GET', `/v1/workflows/${id}`, { key: KEYS.other });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatch(/belongs to another organization/);
    const unknown = await sandbox.call('GET', '/v1/workflows/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/was not found: create one with POST \/v1\/workflows/);
  });

  it('answers synthetic workflows to a sandbox key, the same for the same id', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const list = WorkflowListResponseSchema.parse((await sandbox.call('GET', '/v1/workflows', { key: KEYS.sandbox })).body).workflows;
    expect(list).toHaveLength(3);
    const one = await sandbox.call('GET', '/v1/workflows/any-id', { key: KEYS.sandbox });
    expect(WorkflowResponseSchema.parse(one.body).workflow).toMatchObject({ id: 'any-id', status: 'active', organization_id: 'org_demo' });
    expect((await sandbox.call('GET', '/v1/workflows/any-id', { key: KEYS.sandbox })).text).toBe(one.text);
  });
});

describe('PATCH /v1/workflows/{id}/steps/{step_id}/config', () => {
  it('re-validates and re-resolves the step config, by either step id form', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const id = await createWorkflow(sandbox);
    sandbox.clock.advance(5000);
    const patched = await sandbox.call('PATCH', `/v1/workflows/${id}/steps/face-liveness/config`, { body: { config: { confidence_threshold: 85 } } });
    expect(patched.status, patched.text).toBe(200);
    expect(WorkflowResponseSchema.parse(patched.body).workflow).toMatchObject({
      updated_at: '2026-01-15T09:30:05.000Z',
      steps: [{ id: 'id-verification' }, { id: 'face-liveness', config: { confidence_threshold: 85 } }],
    });
    const id2 = await sandbox.call('PATCH', `/v1/workflows/${id}/steps/ID_VERIFICATION/config`, { body: { config: { minimum_age: 21 } } });
    expect(id2.body.workflow.steps[0].config.age_restriction_settings.minimum_age).toEqual({ lower: 21, upper: 51 });
    expect((await sandbox.call('GET', `/v1/workflows/${id}`)).body.workflow.steps[1].config).toEqual({ confidence_threshold: 85 });
  });

  it('refuses an invalid config, a step the workflow lacks and an unknown step id, changing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const id = await createWorkflow(sandbox);
    const bad = await sandbox.call('PATCH', `/v1/workflows/${id}/steps/FACE_LIVENESS/config`, { body: { config: { confidence_threshold: 101 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/config\.confidence_threshold" must be at most 100/);
    const missing = await sandbox.call('PATCH', `/v1/workflows/${id}/steps/AGE_ESTIMATION/config`, { body: { config: {} } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/has no AGE_ESTIMATION step: its steps are ID_VERIFICATION, FACE_LIVENESS/);
    const unknown = await sandbox.call('PATCH', `/v1/workflows/${id}/steps/SELFIE/config`, { body: { config: {} } });
    expect(unknown.status).toBe(400);
    expect((await sandbox.call('GET', `/v1/workflows/${id}`)).body.workflow.steps[1].config).toEqual({ confidence_threshold: 70 });
    expect((await sandbox.call('PATCH', `/v1/workflows/${id}/steps/FACE_LIVENESS/config`, { key: KEYS.other, body: { config: {} } })).status).toBe(403);
  });
});

describe('created workflows are the source of truth for hosted sessions', () => {
  it('creates a hosted session on a created workflow and finds it with the workflow_id filter', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const id = await createWorkflow(sandbox);
    const created = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', workflow_id: id } });
    expect(created.status, created.text).toBe(200);
    const record = SingleSessionResponseSchema.parse((await sandbox.call('GET', `/v1/sessions/${created.body.id}`)).body).session_record;
    expect(record).toMatchObject({ workflow_id: id, workflow_steps: ['id-verification', 'face-liveness'] });
    const listed = await sandbox.call('GET', `/v1/sessions?workflow_id=${id}`);
    expect(listed.body.sessions.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    expect(
      (await sandbox.call('POST', '/v1/sessions', { key: KEYS.other, body: { first_name: 'J', last_name: 'D', email: 'j@example.com', workflow_id: id } }))
        .status,
    ).toBe(404);
  });

  it('applies the phone rule to a created workflow with a phone step', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const id = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }, { id: 'PHONE_VERIFICATION' }]);
    const refused = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', workflow_id: id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/"phone" is required because workflow .* has a PHONE_VERIFICATION step/);
  });

  it('refuses an inactive workflow with 400 and an unknown one with 404, as headless sessions do, charging and storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const applicant = { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' };
    const balance = async () =>
      (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body.organizations.find((o: { id: string }) => o.id === 'org_demo').balance;
    const before = await balance();

    const inactive = await sandbox.call('POST', '/v1/sessions', { body: { ...applicant, workflow_id: FIXTURE_WORKFLOW_IDS.inactive } });
    expect(inactive.status).toBe(400);
    expect(inactive.body).toEqual({
      error: `Workflow ${FIXTURE_WORKFLOW_IDS.inactive} is inactive, not active: only active workflows take new sessions; use an active workflow (GET /v1/workflows lists them) or omit the workflow id.`,
    });
    const headless = await sandbox.call('POST', `/v1/workflows/${FIXTURE_WORKFLOW_IDS.inactive}/sessions`, { body: { ...applicant, phone: '+14155550123' } });
    expect(headless.status).toBe(400);
    expect(headless.body).toEqual({ error: inactive.body.error, code: 'WORKFLOW_INACTIVE' });
    const camel = await sandbox.call('POST', '/v1/sessions', {
      body: { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', workflowId: FIXTURE_WORKFLOW_IDS.inactive },
    });
    expect(camel.status).toBe(400);

    const unknown = await sandbox.call('POST', '/v1/sessions', { body: { ...applicant, workflow_id: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(
      /^Workflow 00000000-0000-4000-8000-000000000000 was not found in your organization: send the id of one of your workflows as workflow_id/,
    );

    expect(await balance()).toBe(before);
    expect((await sandbox.call('GET', `/v1/sessions?workflow_id=${FIXTURE_WORKFLOW_IDS.inactive}`)).body.sessions).toEqual([]);
    expect((await sandbox.call('GET', '/v1/sessions?by_organization=true')).body.sessions).toEqual([]);
  });
});
