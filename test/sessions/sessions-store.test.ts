import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/platform/errors/api-error.ts';
import {
  createSessionRecord,
  findSession,
  patchAnalysisData,
  requireOwnSession,
  saveSession,
  SESSION_INDEXES,
  sessionIndexKey,
  sessions,
} from '../../src/sessions/sessions.store.ts';
import { findWorkflow, FIXTURE_WORKFLOW_IDS, fixtureWorkflows, workflows, type WorkflowRecord } from '../../src/workflows/workflows.store.ts';
import { FROZEN_AT, KEYS, testSandbox } from '../helpers/sandbox.ts';
import { addMs } from './helpers.ts';
import { drive, getSession, JANE } from './route-helpers.ts';

const ORG = { id: 'org_demo', name: 'Demo Org' };
const PERSON = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+447700900123' };

describe('sessions.store: the contract other areas import', () => {
  it('createSessionRecord stores a credit-check session that GET and the list show', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const stored = createSessionRecord(world, {
      organization: ORG,
      type: 'credit-check-hard',
      input: { ...PERSON, externalId: 'loan-1' },
      nowIso: world.clock.iso(),
    });
    expect(stored.id).toBe(stored.record.id);
    expect(stored.record).toMatchObject({ type: 'credit-check-hard', status: 'PENDING', external_id: 'loan-1', created_at: FROZEN_AT });
    expect(stored.record).not.toHaveProperty('workflow_id');
    expect(stored.user).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', phone: '+447700900123' });
    expect(stored.invitations).toEqual({ email: true, sms: true });
    expect((await getSession(sandbox, stored.id)).session_record.type).toBe('credit-check-hard');
    const list = await sandbox.call('GET', '/v1/sessions?external_id=loan-1');
    expect(list.body.sessions.map((s: { id: string; type: string }) => [s.id, s.type])).toEqual([[stored.id, 'credit-check-hard']]);
  });

  it('records the analysis given at creation when the session finishes (credit checks get no ID analysis)', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const report = { credit_check: { type: 'credit-check-soft', uat: true }, credit_report: { score: 712 } };
    const credit = createSessionRecord(world, { organization: ORG, type: 'credit-check-soft', input: PERSON, nowIso: world.clock.iso(), analysis: report });
    expect(findSession(world, credit.id)?.record).not.toHaveProperty('analysis_data');
    await drive(sandbox, credit.id, { outcome: 'SUBMITTED' });
    expect((await getSession(sandbox, credit.id)).session_record.analysis_data).toEqual(report);

    const workflowSession = createSessionRecord(world, {
      organization: ORG,
      type: 'session',
      input: PERSON,
      nowIso: world.clock.iso(),
      analysis: { custom_marker: 1 },
    });
    await drive(sandbox, workflowSession.id, { outcome: 'SUBMITTED' });
    const analysis = (await getSession(sandbox, workflowSession.id)).session_record.analysis_data as Record<string, unknown>;
    expect(analysis.custom_marker).toBe(1);
    expect(analysis).toHaveProperty('compare_faces_data');
  });

  it('patchAnalysisData sets a nested path immutably, bumps updated_at, and survives the finish', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const stored = createSessionRecord(world, { organization: ORG, type: 'session', input: PERSON, nowIso: world.clock.iso() });
    const later = addMs(FROZEN_AT, 5000);
    const ownership = { outcome: 'NO_MATCH', strictness: 'strict', threshold: 90, statusMessage: 'Response from one supplier', checkedAt: later };
    const patched = patchAnalysisData(world, stored.id, ['phone_checks', 'ownership'], ownership, later);
    expect(patched.record.analysis_data).toEqual({ phone_checks: { ownership } });
    expect(patched.record.updated_at).toBe(later);
    expect(stored.record).not.toHaveProperty('analysis_data');
    const again = patchAnalysisData(world, stored.id, ['phone_checks', 'trust', 'tripped'], true, later);
    expect(again.record.analysis_data).toEqual({ phone_checks: { ownership, trust: { tripped: true } } });

    await drive(sandbox, stored.id, { outcome: 'SUBMITTED' });
    const finished = (await getSession(sandbox, stored.id)).session_record.analysis_data;
    expect(finished?.phone_checks?.ownership).toEqual(ownership);
    expect(finished?.phone_checks?.trust?.tripped).toBe(true);
    // The run's own trust result fills the members the attached one did not set.
    expect(finished?.phone_checks?.trust?.simSwappedRisk).toBeTypeOf('string');
    expect(finished?.compare_faces_data?.face_match_result).toBe('MATCH');

    expect(() => patchAnalysisData(world, 'nope', ['x'], 1, later)).toThrowError(ApiError);
  });

  it('requireOwnSession answers 404 for an unknown id and 403 for another organization', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const stored = createSessionRecord(world, { organization: ORG, type: 'session', input: PERSON, nowIso: world.clock.iso() });
    expect(requireOwnSession(world, 'org_demo', stored.id).id).toBe(stored.id);
    expect(() => requireOwnSession(world, 'org_other', stored.id)).toThrowError(expect.objectContaining({ status: 403 }));
    expect(() => requireOwnSession(world, 'org_demo', 'missing')).toThrowError(
      expect.objectContaining({ status: 404, message: expect.stringMatching(/^Session missing was not found/) }),
    );
  });

  it('files sessions under organization, external_id, workflow_id and sender', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const workflow = findWorkflow(world, 'org_demo', FIXTURE_WORKFLOW_IDS.identity72h) as WorkflowRecord;
    const a = createSessionRecord(world, { organization: ORG, type: 'session', input: { ...PERSON, externalId: 'e1' }, workflow, nowIso: world.clock.iso() });
    createSessionRecord(world, { organization: { id: 'org_other' }, type: 'session', input: { ...PERSON, externalId: 'e1' }, nowIso: world.clock.iso() });
    const collection = sessions(world);
    expect(collection.where(SESSION_INDEXES.byOrganization, 'org_demo').map((s) => s.id)).toEqual([a.id]);
    expect(collection.where(SESSION_INDEXES.byOrganizationExternalId, sessionIndexKey('org_demo', 'e1')).map((s) => s.id)).toEqual([a.id]);
    expect(collection.where(SESSION_INDEXES.byOrganizationWorkflow, sessionIndexKey('org_demo', workflow.id)).map((s) => s.id)).toEqual([a.id]);
    expect(collection.where(SESSION_INDEXES.byOrganizationSender, sessionIndexKey('org_demo', a.record.sender_user_id))).toHaveLength(1);
    expect(a).toMatchObject({ maxFailedAttempts: 3, documents: 1 });
    expect(a.record.expires_at).toBe(addMs(FROZEN_AT, 72 * 3_600_000));
  });

  it('saveSession writes a new version and refuses a record under another id', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const stored = createSessionRecord(world, { organization: ORG, type: 'session', input: PERSON, nowIso: world.clock.iso() });
    saveSession(world, { ...stored, record: { ...stored.record, session_progress: 'STARTED' } });
    expect(findSession(world, stored.id)?.record.session_progress).toBe('STARTED');
    expect(stored.record.session_progress).toBe('PENDING');
    expect(() => saveSession(world, { ...stored, id: 'other' })).toThrow(/holds record/);
  });
});

describe('workflows.store', () => {
  it('finds the organization’s fixture workflows and none of another organization', async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    expect(fixtureWorkflows().map((w) => w.id)).toEqual(Object.values(FIXTURE_WORKFLOW_IDS));
    expect(findWorkflow(world, 'org_demo', FIXTURE_WORKFLOW_IDS.identity72h)?.settings).toEqual({ expires_in_hours: 72, max_failed_attempts: 3 });
    expect(findWorkflow(world, 'org_demo', FIXTURE_WORKFLOW_IDS.noExpiry)?.settings?.expires_in_hours).toBeUndefined();
    expect(findWorkflow(world, 'org_demo', FIXTURE_WORKFLOW_IDS.identityAndPhone)?.steps.map((s) => s.id)).toEqual([
      'id-verification',
      'face-liveness',
      'phone-verification',
    ]);
    expect(findWorkflow(world, 'org_other', FIXTURE_WORKFLOW_IDS.identity72h)).toBeUndefined();
    expect(findWorkflow(world, 'org_demo', FIXTURE_WORKFLOW_IDS.otherOrganization)).toBeUndefined();
  });

  it("merges the namespace's 'workflows' collection, so sessions can use a workflow created later", async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get();
    const id = '1f2e3d4c-5b6a-4789-9a8b-7c6d5e4f3a2b';
    workflows(world).put({
      id,
      name: 'Created later',
      status: 'active',
      organization_id: 'org_demo',
      created_at: FROZEN_AT,
      updated_at: FROZEN_AT,
      steps: [{ id: 'id-verification', config: { id_scan_settings: { require_secondary_id: true, require_tertiary_id: true } } }],
      settings: { expires_in_hours: 6, max_failed_attempts: 2 },
    });
    expect(findWorkflow(world, 'org_demo', id)?.name).toBe('Created later');
    expect(findWorkflow(sandbox.platform.worlds.get('elsewhere'), 'org_demo', id)).toBeUndefined();
    const created = await sandbox.call('POST', '/v1/sessions', { key: KEYS.live, body: { ...JANE, workflowId: id } });
    expect(created.body.expires_at).toBe(addMs(FROZEN_AT, 6 * 3_600_000));
    const failed = await drive(sandbox, created.body.id, { outcome: 'FAILED' });
    expect(failed.body.session_record.meta_data.failureData.failedAttempts).toBe(2);
    const verified = await drive(sandbox, (await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, workflowId: id } })).body.id, { outcome: 'VERIFIED' });
    expect(verified.body.session_record.analysis_data).toHaveProperty('tertiary_id_analysis_data');
  });
});

describe('sessions across a restart and a reset', () => {
  it('survives a restart on a data file (indexes rebuilt, uploads flags still derived) and is gone after a reset', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'idv-sessions-')), 'store.json');
    const first = await testSandbox({ memory: false, data });
    const created = await first.call('POST', '/v1/sessions', { body: { ...JANE, externalId: 'persist-1' } });
    const [upload] = (
      await first.call('POST', `/v1/sessions/${created.body.id}/uploads`, {
        body: { files: [{ file_name: 'a.png', content_type: 'image/png', upload_type: 'id_front' }] },
      })
    ).body.signed_urls;
    const url = new URL(upload.upload_url);
    expect(
      (await first.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50]) })).status,
    ).toBe(200);
    await first.close();

    const second = await testSandbox({ memory: false, data });
    const list = await second.call('GET', '/v1/sessions?external_id=persist-1');
    expect(list.body.sessions.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    expect((await getSession(second, created.body.id)).session_record.uploads?.id_front).toBe(true);
    expect((await second.call('POST', '/__sandbox/reset', { key: null })).status).toBe(200);
    expect((await second.call('GET', `/v1/sessions/${created.body.id}`)).status).toBe(404);
    await second.close();
  });
});
