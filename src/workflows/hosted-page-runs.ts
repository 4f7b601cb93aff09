/**
 * What the applicant's pages (the sessions area's hosted-page router) drive: the step engine, its HTTP
 * adapters, the step codes and the step modules (their hosted forms). One module, loaded through api.ts on the pages' first use: it imports every
 * step type, which the sessions API never needs.
 */
export { noteStepAnswer, stepDepsFor } from './step-deps.ts';
export { getWorkflowState, submitStep } from './workflow-sessions.service.ts';
export { STEP_CODES } from './steps/index.ts';
export { STEP_MODULES } from './steps/index.ts';
