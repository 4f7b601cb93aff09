/**
 * What other areas use of workflows: a workflow and its steps' codes, the console's workflow pages, and
 * (evaluated on first need) the runs' state and attempt scripts.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { stepCode } from './step-code.ts';
export { organizationWorkflows, toWorkflowJson, workflowById } from './workflow-records.service.ts';
export type { WorkflowRecord } from './workflows.store.ts';

/**
 * The step engine's verbs the console uses (a run's state, the attempt script), loaded on first need: the
 * engine imports every step type, which a session read or a workflow lookup never needs.
 */
export function workflowRuns(): Promise<Pick<typeof import('./workflow-sessions.service.ts'), 'attemptScriptOf' | 'getWorkflowState' | 'setAttemptScript'>> {
  return import('./workflow-sessions.service.ts');
}
