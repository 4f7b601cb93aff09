import { WorkflowConflictSchema } from '../workflows/api.ts';
import { apiRoute, controlRoute, NamespaceQuerySchema, ErrorSchema, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  CreateSessionBodySchema,
  CreateSessionResponseSchema,
  ListSessionsQuerySchema,
  SessionIdParamsSchema,
  SessionListResponseSchema,
  SessionOutcomeBodySchema,
  SessionOutcomeResponseSchema,
  SessionUploadsBodySchema,
  SessionUploadsResponseSchema,
  SingleSessionResponseSchema,
  UpdateStatusBodySchema,
  UpdateStatusResponseSchema,
} from './sessions.schemas.ts';

const json = jsonResponse;
const TAGS = ['Sessions'];

export const createSessionRoute = apiRoute({
  method: 'post',
  path: '/v1/sessions',
  operationId: 'createSession',
  tags: TAGS,
  summary: 'Create a hosted verification session and send invitations',
  description:
    "snake_case fields and their camelCase aliases are accepted (camelCase wins when both are sent). Costs one token. The session_url opens the applicant page under {verify_url}; expires_at appears only when an expiry applies (expires_in_hours, else the workflow's own).",
  request: { body: jsonBody(CreateSessionBodySchema) },
  responses: {
    200: json(CreateSessionResponseSchema, 'The new session'),
    402: extraErrors[402],
    404: extraErrors[404],
  },
});

export const listSessionsRoute = apiRoute({
  method: 'get',
  path: '/v1/sessions',
  operationId: 'listSessions',
  tags: TAGS,
  summary: 'List sessions (newest first), with opaque next_token paging',
  description:
    'Query mode priority: external_id, then workflow_id, then by_organization, then the sessions the caller sent. Sandbox keys get five synthetic sessions (one per status VERIFIED, REJECTED, PENDING, SUBMITTED, VOIDED) and next_token null.',
  request: { query: ListSessionsQuerySchema },
  responses: { 200: json(SessionListResponseSchema, 'One page of sessions (list shape)') },
});

export const getSessionRoute = apiRoute({
  method: 'get',
  path: '/v1/sessions/{id}',
  operationId: 'getSession',
  tags: TAGS,
  summary: 'Retrieve a session with its applicant, sender and links',
  description:
    'Sandbox keys: test_verified, test_rejected, test_submitted, test_pending, test_voided, test_failed answer their fixtures; any other id a scenario chosen from a hash of the id.',
  request: { params: SessionIdParamsSchema },
  responses: { 200: json(SingleSessionResponseSchema, 'The session'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const updateSessionStatusRoute = apiRoute({
  method: 'patch',
  path: '/v1/sessions/{id}/update-status',
  operationId: 'updateSessionStatus',
  tags: TAGS,
  summary: 'Record a review decision (VERIFIED or REJECTED)',
  request: { params: SessionIdParamsSchema, body: jsonBody(UpdateStatusBodySchema) },
  responses: {
    200: json(UpdateStatusResponseSchema, 'The session record after the decision'),
    404: extraErrors[404],
    409: extraErrors[409],
  },
});

export const createSessionUploadsRoute = apiRoute({
  method: 'post',
  path: '/v1/sessions/{id}/uploads',
  operationId: 'createSessionUploads',
  tags: TAGS,
  summary: "Presigned upload URLs for the session's slots",
  description:
    "One signed URL per file (PUT the bytes with the requested Content-Type, no API key, within 15 minutes). The returned file_key is a storage key image operations and workflow steps accept. Once the bytes of a named slot arrive, the record's uploads flag of that slot is true.",
  request: { params: SessionIdParamsSchema, body: jsonBody(SessionUploadsBodySchema) },
  responses: {
    200: json(SessionUploadsResponseSchema, 'Signed upload URLs'),
    404: extraErrors[404],
    409: json(WorkflowConflictSchema, 'The session is terminal or expired (SESSION_TERMINAL, current_step null): it takes no more uploads'),
  },
});

export const driveSessionOutcomeRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/sessions/{id}/outcome',
  operationId: 'sandboxDriveSessionOutcome',
  summary: 'Drive a session as the applicant, reviewer or AI would',
  description:
    "SUBMITTED (applicant finishes, passing analysis), VERIFIED (finish + review), REJECTED (AI auto-decline with declinedData), VOIDED, FAILED (failureData; failed_attempts defaults to the workflow's limit), abandoned (stays PENDING), expired (expires now). Illegal moves answer 409 with the state machine's reason. Acts on the namespace given by X-Sandbox-Namespace or ?namespace=.",
  request: { query: NamespaceQuerySchema, params: SessionIdParamsSchema, body: jsonBody(SessionOutcomeBodySchema) },
  responses: {
    200: json(SessionOutcomeResponseSchema, 'The session after the move'),
    404: json(ErrorSchema, 'Unknown session in this namespace'),
    409: json(ErrorSchema, "The move is not allowed from the session's state"),
  },
});
