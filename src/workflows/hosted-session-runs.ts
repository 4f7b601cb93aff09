/**
 * What a hosted session that names a workflow needs of this area when it is created: the active check,
 * the attempt script its external_id carries, and the run stored beside the record. One module, which
 * the sessions area evaluates on first need (src/sessions/session-workflows.ts): these verbs import the
 * step engine and the workflows' schemas, most of this area's modules, which a read of a session or a
 * session without a workflow never needs.
 */
export { requireScriptOf } from './attempt-scripts.ts';
export { createHostedRun } from './workflow-runs.store.ts';
export { requireActiveWorkflow } from './workflows.service.ts';
