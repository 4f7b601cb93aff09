import { fundsPolicyOf, principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { createWorkflowSession, getWorkflowState, setAttemptScript, startWorkflow, submitStep, syntheticWorkflowState } from './workflow-sessions.service.ts';
import { noteStepAnswer, stepDepsFor } from './step-deps.ts';
import {
  createWorkflowRoute,
  createWorkflowSessionRoute,
  getWorkflowRoute,
  getWorkflowStateRoute,
  listWorkflowsRoute,
  setAttemptScriptRoute,
  startWorkflowRoute,
  submitStepRoute,
  updateStepConfigRoute,
} from './workflows.routes.ts';
import { STEPS_IN_TABLE_ORDER, stepBodyName } from './steps/index.ts';
import { createWorkflow, getSandboxWorkflow, getWorkflow, listSandboxWorkflows, listWorkflows, updateStepConfig } from './workflows.service.ts';

export const workflowsRouter = newRouter()
  .openapi(createWorkflowRoute, (c) => {
    const { organization } = principalOf(c);
    const workflow = explained(c, createWorkflow(c.get('world'), organization.id, c.req.valid('json')));
    return c.json({ workflow }, 201);
  })
  .openapi(listWorkflowsRoute, (c) => {
    const { kind, organization } = principalOf(c);
    return c.json(explained(c, kind === 'sandbox' ? listSandboxWorkflows(organization.id) : listWorkflows(c.get('world'), organization.id)), 200);
  })
  .openapi(getWorkflowRoute, (c) => {
    const { kind, organization } = principalOf(c);
    const { workflow_id } = c.req.valid('param');
    const workflow = explained(
      c,
      kind === 'sandbox' ? getSandboxWorkflow(organization.id, workflow_id) : getWorkflow(c.get('world'), organization.id, workflow_id),
    );
    return c.json({ workflow }, 200);
  })
  .openapi(updateStepConfigRoute, (c) => {
    const { organization } = principalOf(c);
    const { workflow_id, step_id } = c.req.valid('param');
    const workflow = explained(c, updateStepConfig(c.get('world'), organization.id, workflow_id, step_id, c.req.valid('json').config));
    return c.json({ workflow }, 200);
  })
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
for (const module of STEPS_IN_TABLE_ORDER) workflowsRouter.openAPIRegistry.register(stepBodyName(module), module.body);
