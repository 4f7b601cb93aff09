/**
 * The workflows' runs as an area of their own (src/modules.ts: workflow-sessions): headless sessions, their
 * state and start, step submissions and the attempt script. Apart from the workflows' own routes, so that
 * creating, reading or changing a workflow evaluates neither the step engine nor the 21 step types.
 */
import { IMAGE_OPERATIONS } from '../images/image-catalog.ts';
import { codeSource, valueSource } from '../platform/coverage/sources.ts';
import { fundsPolicyOf, principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { createWorkflowSession, getWorkflowState, setAttemptScript, startWorkflow, submitStep, syntheticWorkflowState } from './workflow-sessions.service.ts';
import { noteStepAnswer, stepDepsFor } from './step-deps.ts';
import { createWorkflowSessionRoute, getWorkflowStateRoute, setAttemptScriptRoute, startWorkflowRoute, submitStepRoute } from './workflow-sessions.routes.ts';
import { failureRow, STEPS_IN_TABLE_ORDER, stepBodyName, WORKFLOW_ERROR_CODES } from './steps/index.ts';
import { WORKFLOW_MAGIC_VALUES } from './workflow-catalog.ts';
import { STEP_FAILURE_COVERAGE } from './workflow-failures.ts';

export const workflowSessionsRouter = newRouter()
  .openapi(createWorkflowSessionRoute, (c) => {
    const { organization } = principalOf(c);
    return c.json(
      explained(c, createWorkflowSession(c.get('world'), organization, c.req.valid('param').workflow_id, c.req.valid('json'), fundsPolicyOf(c))),
      200,
    );
  })
  .openapi(getWorkflowStateRoute, (c) => {
    const { kind, organization } = principalOf(c);
    const { session_id } = c.req.valid('param');
    return c.json(explained(c, kind === 'sandbox' ? syntheticWorkflowState(session_id) : getWorkflowState(c.get('world'), organization.id, session_id)), 200);
  })
  .openapi(startWorkflowRoute, (c) => {
    const { organization } = principalOf(c);
    return c.json(explained(c, startWorkflow(c.get('world'), organization.id, c.req.valid('param').session_id)), 200);
  })
  .openapi(submitStepRoute, async (c) => {
    const { organization } = principalOf(c);
    const { session_id, step_id } = c.req.valid('param');
    const answer = await submitStep(c.get('world'), organization.id, session_id, step_id, c.req.valid('json'), stepDepsFor(c, organization.id));
    noteStepAnswer(c, answer.value);
    return c.json(explained(c, answer), 200);
  })
  .openapi(setAttemptScriptRoute, (c) => {
    const { session_id } = c.req.valid('param');
    return c.json(explained(c, setAttemptScript(c.get('world'), session_id, c.req.valid('json').script)), 200);
  });

// The step bodies the submission's anyOf refers to.
for (const module of STEPS_IN_TABLE_ORDER) workflowSessionsRouter.openAPIRegistry.register(stepBodyName(module), module.body);

export const workflowSessionsModule: SandboxModule = {
  name: 'workflow-sessions',
  router: () => workflowSessionsRouter,
  capabilities: [
    IMAGE_OPERATIONS,
    // A step's pictures (id verification, deepfake detection).
    { decodesImages: ['submitWorkflowStep'] },
    {
      catalog: { magicValues: WORKFLOW_MAGIC_VALUES },
      coverage: [
        codeSource(
          'workflow error codes',
          Object.entries(WORKFLOW_ERROR_CODES).map(([code, { status, when }]) => ({ code, status, how: when })),
        ),
        valueSource(STEP_FAILURE_COVERAGE, (code) => {
          const row = failureRow(code);
          return {
            how: `POST /v1/sessions/{id}/steps/${row.step} with ${row.content}${row.magicLastName === null ? '' : `, or applicant last name ${row.magicLastName}`}`,
          };
        }),
      ],
    },
  ],
};
