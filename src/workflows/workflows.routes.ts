/** The routes of the workflows themselves; their runs' are in workflow-sessions.routes.ts. */
import { apiRoute, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  CreateWorkflowBodySchema,
  UpdateStepConfigBodySchema,
  WorkflowIdParamsSchema,
  WorkflowListResponseSchema,
  WorkflowResponseSchema,
  WorkflowStepParamsSchema,
} from './workflows.schemas.ts';

const json = jsonResponse;
const WORKFLOWS = ['Workflows'];

export const createWorkflowRoute = apiRoute({
  method: 'post',
  path: '/v1/workflows',
  operationId: 'createWorkflow',
  tags: WORKFLOWS,
  summary: 'Create a workflow (ordered steps with validated, resolved configs)',
  description: 'Sandbox keys get 403: creating a workflow needs a live key. Not billed.',
  request: { body: jsonBody(CreateWorkflowBodySchema) },
  responses: { 201: json(WorkflowResponseSchema, 'The new workflow, status active') },
});

export const listWorkflowsRoute = apiRoute({
  method: 'get',
  path: '/v1/workflows',
  operationId: 'listWorkflows',
  tags: WORKFLOWS,
  summary: "List the organization's workflows (summaries)",
  description: 'Created workflows first (newest first), then the fixture workflows. Sandbox keys get three synthetic workflows.',
  responses: { 200: json(WorkflowListResponseSchema, 'Workflow summaries') },
});

export const getWorkflowRoute = apiRoute({
  method: 'get',
  path: '/v1/workflows/{workflow_id}',
  operationId: 'getWorkflow',
  tags: WORKFLOWS,
  summary: 'Retrieve a workflow',
  description: 'Sandbox keys get a synthetic workflow for any id.',
  request: { params: WorkflowIdParamsSchema },
  responses: { 200: json(WorkflowResponseSchema, 'The workflow'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const updateStepConfigRoute = apiRoute({
  method: 'patch',
  path: '/v1/workflows/{workflow_id}/steps/{step_id}/config',
  operationId: 'updateWorkflowStepConfig',
  tags: WORKFLOWS,
  summary: "Replace one step's config (validated and resolved again)",
  request: { params: WorkflowStepParamsSchema, body: jsonBody(UpdateStepConfigBodySchema) },
  responses: { 200: json(WorkflowResponseSchema, 'The workflow after the change'), 404: extraErrors[404] },
});
