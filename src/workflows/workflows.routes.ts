import { apiRoute, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  InvalidStepsErrorSchema,
  CreateWorkflowBodySchema,
  CreateWorkflowSessionBodySchema,
  SessionIdParamsSchema,
  SessionStepParamsSchema,
  StepSubmissionBodySchema,
  StepSubmissionResponseSchema,
  UpdateStepConfigBodySchema,
  WorkflowIdParamsSchema,
  WorkflowListResponseSchema,
  WorkflowResponseSchema,
  WorkflowSessionSchema,
  WorkflowStateSchema,
  WorkflowStepParamsSchema,
} from './workflows.schemas.ts';

const json = jsonResponse;
const WORKFLOWS = ['Workflows'];
const HEADLESS = ['Workflow sessions'];

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

export const createWorkflowSessionRoute = apiRoute({
  method: 'post',
  path: '/v1/workflows/{workflow_id}/sessions',
  operationId: 'createWorkflowSession',
  tags: HEADLESS,
  summary: 'Create a headless session driven step by step through the API',
  description:
    'Only workflows whose steps are all ID_VERIFICATION and/or FACE_LIVENESS (else 400 with invalid_steps); the workflow must be active. Sends no invitation, returns no session_url. Costs one token.',
  request: { params: WorkflowIdParamsSchema, body: jsonBody(CreateWorkflowSessionBodySchema) },
  responses: {
    200: json(WorkflowSessionSchema, 'The headless session'),
    400: json(InvalidStepsErrorSchema, 'Invalid body, an inactive workflow, or steps a headless session cannot run (invalid_steps)'),
    402: extraErrors[402],
    404: extraErrors[404],
  },
});

export const getWorkflowStateRoute = apiRoute({
  method: 'get',
  path: '/v1/sessions/{session_id}/workflow',
  operationId: 'getWorkflowState',
  tags: HEADLESS,
  summary: "Get workflow state: each step's status, attempts and requirements",
  request: { params: SessionIdParamsSchema },
  responses: { 200: json(WorkflowStateSchema, 'The workflow state'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const startWorkflowRoute = apiRoute({
  method: 'post',
  path: '/v1/sessions/{session_id}/workflow/start',
  operationId: 'startWorkflow',
  tags: HEADLESS,
  summary: "Start the session's workflow (safe to repeat)",
  description: 'session_progress STARTED and the current step IN_PROGRESS. Body {} or none.',
  request: { params: SessionIdParamsSchema },
  responses: { 200: json(WorkflowStateSchema, 'The workflow state'), 404: extraErrors[404], 409: extraErrors[409] },
});

export const submitStepRoute = apiRoute({
  method: 'post',
  path: '/v1/sessions/{session_id}/steps/{step_id}',
  operationId: 'submitWorkflowStep',
  tags: HEADLESS,
  summary: 'Submit the current step and execute it synchronously',
  description:
    'Only the current step, only while it is PENDING or IN_PROGRESS; out-of-order, repeated, concurrent and terminal or expired-session submissions answer 409. ID_VERIFICATION scans the documents, compares id_front with selfie_front and checks expiry, age and state; FACE_LIVENESS takes action start, upload-url (frame_count 1-8, clip_mime_type) or complete.',
  request: { params: SessionStepParamsSchema, body: jsonBody(StepSubmissionBodySchema) },
  responses: { 200: json(StepSubmissionResponseSchema, 'The step envelope'), 404: extraErrors[404], 409: extraErrors[409] },
});
