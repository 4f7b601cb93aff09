/**
 * Workflows as other areas read them: by id, the organization's list, and their wire shape. A module of its
 * own, importing the store only, so a lookup (a session naming its workflow) evaluates no step type.
 */
import type { World } from '../platform/namespaces/world.ts';
import { stepCode } from './step-code.ts';
import type { Workflow } from './workflows.schemas.ts';
import { findWorkflow, fixtureWorkflows, workflows, type WorkflowRecord } from './workflows.store.ts';

/** The organization's workflow, or undefined (none with this id, or another organization's). */
export function workflowById(world: World, organizationId: string, id: string): WorkflowRecord | undefined {
  return findWorkflow(world, organizationId, id);
}

/** The organization's workflows: stored ones (newest first), then the fixture workflows not overridden. */
export function organizationWorkflows(world: World, organizationId: string): WorkflowRecord[] {
  const stored = workflows(world).where('byOrganization', organizationId);
  const storedIds = new Set(stored.map((workflow) => workflow.id));
  const seeds = fixtureWorkflows().filter((workflow) => workflow.organization_id === organizationId && !storedIds.has(workflow.id));
  const newestFirst = (a: WorkflowRecord, b: WorkflowRecord) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id);
  return [...[...stored].sort(newestFirst), ...[...seeds].sort(newestFirst)];
}

/** The wire shape of a workflow (the sandbox's `settings` stay inside). */
export function toWorkflowJson(record: WorkflowRecord): Workflow {
  return {
    id: record.id,
    name: record.name,
    status: record.status,
    organization_id: record.organization_id,
    created_at: record.created_at,
    updated_at: record.updated_at,
    steps: record.steps.map((step) => ({ id: step.id, config: step.config })),
  };
}

/** Whether the workflow has the step `code` (ID_VERIFICATION for its step `id-verification`). */
export function workflowHasStep(workflow: Pick<WorkflowRecord, 'steps'>, code: string): boolean {
  return workflow.steps.some((step) => stepCode(step.id) === code);
}

/** How many ID documents the workflow's ID_VERIFICATION step asks for (1-3). */
export function documentsRequired(workflow: Pick<WorkflowRecord, 'steps'>): 1 | 2 | 3 {
  const step = workflow.steps.find((candidate) => stepCode(candidate.id) === 'ID_VERIFICATION');
  const scan = (step?.config.id_scan_settings ?? {}) as { require_secondary_id?: unknown; require_tertiary_id?: unknown };
  if (scan.require_tertiary_id === true) return 3;
  if (scan.require_secondary_id === true) return 2;
  return 1;
}
