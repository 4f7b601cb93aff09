/**
 * Workflows: POST /v1/workflows, GET /v1/workflows, GET /v1/workflows/{id} and the step-config PATCH.
 * A created workflow is stored in the namespace and is, with the fixture workflows (seed data), what
 * hosted sessions, headless sessions, the workflow_id list filter and the phone rule look up.
 *
 * LIMITATIONS:
 * - The PATCH replaces the step's config (settings not sent take their defaults); it does not merge.
 * - A fixture workflow patched in a namespace becomes a stored copy in that namespace.
 * - Sandbox keys read synthetic workflows: three per organization in the list, and any id retrieves a
 *   workflow derived from a hash of that id.
 */
import type { Explained } from '../platform/explained.ts';
import { z } from '@hono/zod-openapi';
import { codedError } from '../platform/errors/error-codes.ts';
import { WORKFLOWS_ERROR_CODES } from './workflows.errors.ts';
import type { World } from '../platform/namespaces/world.ts';
import { rngFrom, uuidFrom } from '../platform/random/random.ts';
import { stepRecordId } from './workflow-steps.ts';
import { defaultStepConfig, resolveStepConfig, STEP_CODES, type StepCode } from './steps/step-configs.ts';
import { checkStepConfig, type CreateWorkflowInput, type Workflow } from './workflows.schemas.ts';
import { stepCode } from './step-code.ts';
import { organizationWorkflows, toWorkflowJson } from './workflow-records.service.ts';
import { fixtureWorkflows, workflows, type WorkflowRecord } from './workflows.store.ts';

export function toWorkflowSummary(record: WorkflowRecord) {
  return { id: record.id, name: record.name, status: record.status, steps: record.steps.map((step) => stepCode(step.id)), created_at: record.created_at };
}

export function createWorkflow(world: World, organizationId: string, input: CreateWorkflowInput): Explained<Workflow> {
  const nowIso = world.clock.iso();
  const record: WorkflowRecord = {
    id: world.uuid(),
    name: input.name,
    status: 'active',
    organization_id: organizationId,
    created_at: nowIso,
    updated_at: nowIso,
    steps: input.steps.map((step) => ({ id: stepRecordId(step.code), config: resolveStepConfig(step.code, step.config) })),
  };
  workflows(world).put(record);
  return { value: toWorkflowJson(record), explanations: [`workflow ${record.id} created with ${input.steps.map((s) => s.code).join(', ')}`] };
}

export function listWorkflows(world: World, organizationId: string) {
  const list = organizationWorkflows(world, organizationId);
  return { value: { workflows: list.map(toWorkflowSummary) }, explanations: [`${list.length} workflows (created ones first, then the fixture workflows)`] };
}

/** The organization's workflow, or 404 (unknown anywhere in the namespace) / 403 (another organization's). */
export function requireOwnWorkflow(world: World, organizationId: string, id: string): WorkflowRecord {
  const found = workflows(world).get(id) ?? fixtureWorkflows().find((workflow) => workflow.id === id);
  if (found === undefined) throw codedError(WORKFLOWS_ERROR_CODES, 'WORKFLOW_NOT_FOUND', { id });
  if (found.organization_id !== organizationId) throw codedError(WORKFLOWS_ERROR_CODES, 'WORKFLOW_OF_ANOTHER_ORGANIZATION', { id });
  return found;
}

/**
 * 400 unless the workflow takes new sessions (spec, Errors: "inactive workflow" is a 400), for hosted and
 * headless sessions alike.
 */
export function requireActiveWorkflow(workflow: WorkflowRecord, extras: { code?: string } = {}): void {
  if (workflow.status !== 'active') throw codedError(WORKFLOWS_ERROR_CODES, 'WORKFLOW_NOT_ACTIVE', { id: workflow.id, status: workflow.status }, extras);
}

export function getWorkflow(world: World, organizationId: string, id: string): Explained<Workflow> {
  return { value: toWorkflowJson(requireOwnWorkflow(world, organizationId, id)), explanations: [] };
}

/** `ID_VERIFICATION` or `id-verification` → the step code, or 400. */
function parseStepCode(stepId: string): StepCode {
  const code = stepCode(stepId);
  if (!(STEP_CODES as readonly string[]).includes(code)) {
    throw codedError(WORKFLOWS_ERROR_CODES, 'NOT_A_STEP_ID', { stepId, stepCodes: STEP_CODES });
  }
  return code as StepCode;
}

export function updateStepConfig(world: World, organizationId: string, id: string, stepId: string, config: Record<string, unknown>): Explained<Workflow> {
  const code = parseStepCode(stepId);
  const workflow = requireOwnWorkflow(world, organizationId, id);
  const index = workflow.steps.findIndex((step) => stepCode(step.id) === code);
  if (index < 0) {
    throw codedError(WORKFLOWS_ERROR_CODES, 'WORKFLOW_HAS_NO_SUCH_STEP', { id, step: code, steps: workflow.steps.map((s) => stepCode(s.id)) });
  }
  const checked = z
    .object({ config: z.record(z.string(), z.unknown()) })
    .transform((body, ctx) => checkStepConfig(code, body.config, ctx, ['config']))
    .safeParse({ config });
  if (!checked.success) throw codedError(WORKFLOWS_ERROR_CODES, 'INVALID_STEP_CONFIG', { error: checked.error });
  const nowIso = world.clock.iso();
  const steps = workflow.steps.map((step, i) => (i === index ? { id: step.id, config: resolveStepConfig(code, checked.data) } : step));
  const saved = workflows(world).put({ ...workflow, steps, updated_at: nowIso });
  return { value: toWorkflowJson(saved), explanations: [`${code} config of workflow ${id} replaced and re-resolved`] };
}

// ─── Sandbox keys: synthetic workflows ──────────────────────────────────────────────────────────────

const SYNTHETIC_SHAPES: readonly { name: string; steps: readonly StepCode[] }[] = [
  { name: 'Identity check (ID + liveness)', steps: ['ID_VERIFICATION', 'FACE_LIVENESS'] },
  { name: 'Onboarding with screening', steps: ['ID_VERIFICATION', 'FACE_LIVENESS', 'PEP_SANCTIONS', 'ADVERSE_MEDIA'] },
  { name: 'Age check', steps: ['AGE_ESTIMATION'] },
];

function syntheticWorkflow(id: string, organizationId: string, shape: (typeof SYNTHETIC_SHAPES)[number]): WorkflowRecord {
  const rng = rngFrom('synthetic-workflow', id);
  const createdAt = new Date(Date.UTC(2025, 5, 1) + rng.int(0, 180) * 86_400_000 + rng.int(8 * 3600, 18 * 3600) * 1000).toISOString();
  return {
    id,
    name: shape.name,
    status: 'active',
    organization_id: organizationId,
    created_at: createdAt,
    updated_at: createdAt,
    steps: shape.steps.map((code) => ({ id: stepRecordId(code), config: resolveStepConfig(code, defaultStepConfig(code)) })),
  };
}

export function listSandboxWorkflows(organizationId: string) {
  const list = SYNTHETIC_SHAPES.map((shape, index) => syntheticWorkflow(uuidFrom('synthetic-workflow', organizationId, index), organizationId, shape));
  return { value: { workflows: list.map(toWorkflowSummary) }, explanations: ['sandbox key: three synthetic workflows'] };
}

export function getSandboxWorkflow(organizationId: string, id: string): Explained<Workflow> {
  const shape = SYNTHETIC_SHAPES[rngFrom('synthetic-workflow-shape', id).int(0, SYNTHETIC_SHAPES.length - 1)] as (typeof SYNTHETIC_SHAPES)[number];
  return { value: toWorkflowJson(syntheticWorkflow(id, organizationId, shape)), explanations: [`sandbox key: synthetic workflow for id ${id.slice(0, 80)}`] };
}
