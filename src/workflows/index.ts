/**
 * Workflows: POST/GET /v1/workflows, GET /v1/workflows/{id} and the step-config PATCH. Their runs
 * (headless sessions, the workflow state and start, step submissions executed on uploaded images) are an
 * area of their own, workflow-sessions.router.ts, evaluated on their first request. Other areas use
 * workflows through api.ts.
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { workflowsRouter } from './workflows.router.ts';

export const workflowsModule: SandboxModule = {
  name: 'workflows',
  router: () => workflowsRouter,
};
