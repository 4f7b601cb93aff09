/**
 * A workflow's own requests (create, list, read, the step-config PATCH, their refusals) evaluate neither
 * the step engine nor the step types: a step's config is checked with its rules (steps/step-configs.ts).
 * The first request of a run (a headless session) evaluates both, as the workflow-sessions area.
 */
import { describe, expect, it, vi } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

/** The modules evaluated so far, of those watched here (each notes its first evaluation). */
const evaluated = vi.hoisted(() => new Set<string>());
vi.mock('../../src/workflows/steps/index.ts', async (original) => {
  evaluated.add('step types');
  return original();
});
vi.mock('../../src/workflows/workflow-sessions.service.ts', async (original) => {
  evaluated.add('step engine');
  return original();
});

describe("what a workflow's own requests evaluate", () => {
  it('creating, listing, reading and configuring a workflow evaluate no step type; its first session evaluates them', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/workflows', {
      body: { name: 'KYC', steps: [{ id: 'ID_VERIFICATION', config: { minimum_age: 21 } }, { id: 'FACE_LIVENESS' }] },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.workflow.id;
    // The record's form of each config: ID_VERIFICATION's groups, FACE_LIVENESS's default filled in.
    expect(created.body.workflow.steps.map((step: { config: object }) => step.config)).toEqual([
      expect.objectContaining({ age_restriction_settings: expect.objectContaining({ minimum_age: { lower: 21, upper: 51 } }) }),
      { confidence_threshold: 70 },
    ]);
    const refused = await sandbox.call('POST', '/v1/workflows', {
      body: { name: 'KYC', steps: [{ id: 'FACE_LIVENESS', config: { confidence_threshold: 0 } }] },
    });
    expect([refused.status, refused.body.error]).toEqual([400, expect.stringMatching(/steps\.0\.config\.confidence_threshold" must be at least 1/)]);
    expect((await sandbox.call('GET', '/v1/workflows')).status).toBe(200);
    expect((await sandbox.call('GET', `/v1/workflows/${id}`)).body.workflow.id).toBe(id);
    const patched = await sandbox.call('PATCH', `/v1/workflows/${id}/steps/face-liveness/config`, { body: { config: { confidence_threshold: 85 } } });
    expect([patched.status, patched.body.workflow.steps[1].config]).toEqual([200, { confidence_threshold: 85 }]);
    expect([...evaluated]).toEqual([]);

    const session = await sandbox.call('POST', `/v1/workflows/${id}/sessions`, {
      body: { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', phone: '+14155550100' },
    });
    expect(session.status, session.text).toBe(200);
    expect([...evaluated].sort()).toEqual(['step engine', 'step types']);
    await sandbox.close();
  });
});
