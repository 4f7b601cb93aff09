import { principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { createWorkflowRoute, getWorkflowRoute, listWorkflowsRoute, updateStepConfigRoute } from './workflows.routes.ts';
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
  });
