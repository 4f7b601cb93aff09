/**
 * What other areas use of workflows: a workflow and its steps' codes, the shapes a run writes on its
 * session, the workflows' refusals, the console's workflow pages, and (evaluated on first need) the runs'
 * state, attempt scripts and the step engine the hosted pages drive. What the engine needs of a session
 * is the port in session-port.ts, provided by the sessions area (src/modules.ts), not imported from it.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { VALID_ID_TYPES } from './id-document-types.ts';
export * from './session-results.ts';
export { stepCode } from './step-code.ts';
export { WorkflowConflictSchema } from './workflow-error-schemas.ts';
export { workflowError } from './workflow-errors.ts';
export { documentsRequired, organizationWorkflows, toWorkflowJson, workflowById, workflowHasStep } from './workflow-records.service.ts';
export type { AttemptScript } from './attempt-scripts.ts';
export type { HeadlessApplicant, RunSession, RunSessionEvent, WorkflowSessions } from './session-port.ts';
export type { FormView, PageClient, PageFile, StepAnswer } from './steps/hosted-forms.ts';
export type { StepCode } from './steps/index.ts';
export type { WorkflowState } from './workflow-sessions.schemas.ts';
export type { WorkflowRecord } from './workflows.store.ts';

/**
 * The step engine's verbs the console uses (a run's state, the attempt script), loaded on first need: the
 * engine imports every step type, which a session read or a workflow lookup never needs.
 */
export function workflowRuns(): Promise<Pick<typeof import('./workflow-sessions.service.ts'), 'attemptScriptOf' | 'getWorkflowState' | 'setAttemptScript'>> {
  return import('./workflow-sessions.service.ts');
}

export type HostedSessionRuns = typeof import('./hosted-session-runs.ts');

/** What a hosted session that names a workflow needs when it is created (hosted-session-runs.ts), loaded on first need. */
export function hostedSessionRuns(): Promise<HostedSessionRuns> {
  return import('./hosted-session-runs.ts');
}

/** The step engine the applicant's pages drive (hosted-page-runs.ts), loaded on the pages' first use. */
export function hostedPageRuns(): Promise<typeof import('./hosted-page-runs.ts')> {
  return import('./hosted-page-runs.ts');
}
