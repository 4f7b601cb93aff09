/** The routes of the workflows' runs: headless sessions, their state and start, step submissions, the attempt script. */
import { controlRoute, apiRoute, NamespaceQuerySchema, ErrorSchema, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import { fallbackCodes } from './workflow-errors.ts';
import {
  AttemptScriptBodySchema,
  AttemptScriptResponseSchema,
  CreateWorkflowSessionBodySchema,
  SessionIdParamsSchema,
  SessionStepParamsSchema,
  StepSubmissionResponseSchema,
  WorkflowSessionSchema,
  WorkflowStateSchema,
  WorkflowConflictSchema,
  WorkflowErrorSchema,
} from './workflow-sessions.schemas.ts';
import { WorkflowIdParamsSchema } from './workflows.schemas.ts';
import { StepSubmissionBodySchema } from './steps/index.ts';

const json = jsonResponse;
const HEADLESS = ['Workflow sessions'];

/** The error responses of a headless-session route: every body carries `code`, a 409 also where the run is. */
function headlessErrors(statuses: readonly (400 | 402 | 403 | 404 | 409 | 500)[]) {
  const described: Record<number, string> = {
    400: 'Validation or a refused input; `code` says which (VALIDATION_ERROR, INVALID_UPLOAD_KEY, ...).',
    402: 'INSUFFICIENT_FUNDS.',
    403: 'FORBIDDEN: a sandbox key used for a write, or another organization’s resource.',
    404: '`code` says what was not found.',
    500: 'INTERNAL_ERROR; safe to retry.',
  };
  return Object.fromEntries(
    statuses.map((status) =>
      status === 409
        ? [status, json(WorkflowConflictSchema, 'The session is not in a state that allows this; `code`, `current_step` and `step_id` say where the run is.')]
        : [status, json(WorkflowErrorSchema, described[status] as string)],
    ),
  );
}

export const createWorkflowSessionRoute = apiRoute({
  method: 'post',
  path: '/v1/workflows/{workflow_id}/sessions',
  operationId: 'createWorkflowSession',
  tags: HEADLESS,
  summary: 'Create a headless session driven step by step through the API',
  description:
    'Only workflows whose steps are all ID_VERIFICATION and/or FACE_LIVENESS (else 400 with invalid_steps); the workflow must be active. Sends no invitation, returns no session_url. Costs one token.',
  guard: { errorCodes: fallbackCodes('WORKFLOW_NOT_FOUND') },
  request: { params: WorkflowIdParamsSchema, body: jsonBody(CreateWorkflowSessionBodySchema) },
  responses: { 200: json(WorkflowSessionSchema, 'The headless session'), ...headlessErrors([400, 402, 403, 404, 500]) },
});

export const getWorkflowStateRoute = apiRoute({
  method: 'get',
  path: '/v1/sessions/{session_id}/workflow',
  operationId: 'getWorkflowState',
  tags: HEADLESS,
  summary: "Get workflow state: each step's status, attempts and requirements",
  guard: { errorCodes: fallbackCodes('SESSION_NOT_FOUND') },
  request: { params: SessionIdParamsSchema },
  responses: { 200: json(WorkflowStateSchema, 'The workflow state'), ...headlessErrors([400, 403, 404, 500]) },
});

export const startWorkflowRoute = apiRoute({
  method: 'post',
  path: '/v1/sessions/{session_id}/workflow/start',
  operationId: 'startWorkflow',
  tags: HEADLESS,
  summary: "Check the session's workflow can start (validate-only, repeatable)",
  description:
    'Writes nothing: answers the workflow state while the session is PENDING and no step was submitted, as often as asked. Once a step was submitted, or the session is terminal or expired: 409 SESSION_ALREADY_STARTED. Body {} or none.',
  guard: { errorCodes: fallbackCodes('SESSION_NOT_FOUND') },
  request: { params: SessionIdParamsSchema },
  responses: { 200: json(WorkflowStateSchema, 'The workflow state'), ...headlessErrors([400, 403, 404, 409, 500]) },
});

export const submitStepRoute = apiRoute({
  method: 'post',
  path: '/v1/sessions/{session_id}/steps/{step_id}',
  operationId: 'submitWorkflowStep',
  tags: HEADLESS,
  summary: 'Submit the current step and execute it synchronously',
  description:
    'Only the current step, only while it is PENDING or IN_PROGRESS; out-of-order, repeated, concurrent and terminal or expired-session submissions answer 409. ID_VERIFICATION scans the documents, compares id_front with selfie_front and checks expiry, age and state; FACE_LIVENESS takes action start, upload-url (frame_count 1-8, clip_mime_type) or complete.',
  guard: { errorCodes: fallbackCodes('SESSION_NOT_FOUND') },
  request: { params: SessionStepParamsSchema, body: jsonBody(StepSubmissionBodySchema) },
  responses: { 200: json(StepSubmissionResponseSchema, 'The step envelope'), ...headlessErrors([400, 403, 404, 409, 500]) },
});

export const setAttemptScriptRoute = controlRoute({
  method: 'put',
  path: '/__sandbox/sessions/{session_id}/attempt-script',
  operationId: 'sandboxSetAttemptScript',
  summary: "Script a workflow session's attempts in advance (QA)",
  description:
    'The script decides the n-th decided submission of each named step whatever the uploaded content (see docs/workflows.md): a failure code (optionally @SLOT) or pass; "exhaust" fails every attempt until the limit. Replaces the script set at creation (external_id "sandbox-attempts:..."); null removes it. Any organization\'s session of the namespace.',
  request: { query: NamespaceQuerySchema, params: SessionIdParamsSchema, body: jsonBody(AttemptScriptBodySchema) },
  responses: {
    200: json(AttemptScriptResponseSchema, 'The script now in force and the workflow state'),
    404: json(ErrorSchema, 'Unknown session in this namespace, or one without a workflow'),
  },
});
