/**
 * The error codes of the workflow endpoints (POST /v1/workflows/{id}/sessions, GET /v1/sessions/{id}/workflow,
 * POST .../workflow/start, POST .../steps/{step_id}), as data: the service's list that the mobile client
 * reads from the body's `code`. Every error of these routes carries one: the service throws the specific
 * ones (workflowError, stepConflict), and the routes' guard fills the rest by status (FALLBACK_CODES).
 *
 * Every 409 also carries `current_step` (the index of the step to submit next, null once the run is over)
 * and `step_id` (the step the server expects next when out of order, else the submitted step), which the
 * clients read to resynchronise without a GET.
 *
 * These are the engine's codes and the 409s any step may give; a step's own 409 codes (ADVERSE_MEDIA_NOT_READY…)
 * sit in its module (`conflicts`). The whole table, WORKFLOW_ERROR_CODES, is derived in steps/index.ts, so
 * the catalog, the docs page and a coverage check read the same rows.
 */
import { ApiError, type ErrorStatus } from '../platform/errors/api-error.ts';

export interface WorkflowErrorCode {
  status: ErrorStatus;
  /** A second status the code is answered with (INVALID_UPLOAD_KEY: 403 for a key that cannot be read, as the spec says). */
  alsoStatus?: ErrorStatus;
  /** When the endpoints answer it (a sentence for the docs table). */
  when: string;
}

/** The codes of the engine (requests, sessions, order, locks). */
export const ENGINE_ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, when: 'a body, path or query value fails validation (the sentence names the field), or malformed JSON' },
  WORKFLOW_INACTIVE: { status: 400, when: 'creating a session on a workflow whose status is not active' },
  UNSUPPORTED_WORKFLOW_STEPS: {
    status: 400,
    when: 'creating a session on a workflow with steps other than ID_VERIFICATION and FACE_LIVENESS (invalid_steps lists them)',
  },
  INVALID_UPLOAD_KEY: {
    status: 400,
    alsoStatus: 403,
    when: 'an ID_VERIFICATION upload value is not a file key (400), or names a file that was never uploaded or belongs to another organization (403, the spec’s "storage key not readable")',
  },
  INVALID_MEDIA: { status: 400, when: 'an uploaded file (ID image, selfie or liveness frame) is not a decodable image' },
  UPLOAD_SLOT_NOT_REQUIRED: {
    status: 400,
    when: 'an ID_VERIFICATION body sends a slot the step does not take (a secondary ID that is not required, a back for a front-only type)',
  },
  STEP_NOT_RUNNABLE: {
    status: 400,
    when: 'the path names a step type a headless session cannot execute (any of the 21 step ids but ID_VERIFICATION and FACE_LIVENESS)',
  },
  INSUFFICIENT_FUNDS: { status: 402, when: "creating a session with the organization's token balance at 0" },
  FORBIDDEN: { status: 403, when: "a sandbox key used for a write, or another organization's workflow or session" },
  ORGANIZATION_NOT_FOUND: { status: 404, when: 'never in the sandbox: every valid key belongs to an organization (listed because the service names it)' },
  WORKFLOW_NOT_FOUND: { status: 404, when: 'creating a session on an unknown workflow id' },
  SESSION_NOT_FOUND: { status: 404, when: 'an unknown session id' },
  EXECUTION_STATE_NOT_FOUND: { status: 404, when: 'a session that exists but was created without a workflow' },
  STEP_NOT_FOUND: { status: 404, when: "the path names a step the session's workflow does not have" },
  SESSION_TERMINAL: { status: 409, when: 'the session is VERIFIED, REJECTED, VOIDED or FAILED (current_step null)' },
  SESSION_ALREADY_STARTED: { status: 409, when: 'workflow/start after a step was submitted, or on a terminal or expired session' },
  NO_ACTIVE_STEP: { status: 409, when: 'the session is open (or expired) but no step is left to submit' },
  STEP_OUT_OF_ORDER: { status: 409, when: 'the submitted step comes after the current one (step_id is the expected step)' },
  STEP_NOT_SUBMITTABLE: { status: 409, when: 'the submitted step is already COMPLETED or FAILED (step_id is the submitted step)' },
  STEP_CONFLICT: { status: 409, when: 'another submission of the session is still running' },
} as const satisfies Record<string, WorkflowErrorCode>;

/** The 409s any start/complete step may give. */
export const SHARED_STEP_CONFLICTS = {
  STEP_NOT_STARTED: {
    status: 409,
    when: 'complete of a start/complete step before its start: DEEP_AGE, DEEPFAKE_DETECTION, ADDRESS_VERIFICATION, ADVERSE_MEDIA and BACKGROUND_CHECK, BANK_STATEMENT_UPLOAD (no bank linked yet), PHONE_VERIFICATION (no code waiting, or it expired)',
  },
  STEP_UPLOAD_INCOMPLETE: { status: 409, when: 'complete of a step whose files presigned by start have not all been PUT (ADDRESS_VERIFICATION)' },
} as const satisfies Record<string, WorkflowErrorCode>;

export const INTERNAL_ERROR: WorkflowErrorCode = { status: 500, when: 'an unexpected fault; safe to retry' };

const CODES_WITH_STATUS = { ...ENGINE_ERROR_CODES, ...SHARED_STEP_CONFLICTS, INTERNAL_ERROR };
export type WorkflowErrorCodeName = keyof typeof CODES_WITH_STATUS;

/** The code an error of these routes gets from its status when the service named none. */
export function fallbackCodes(notFound: 'WORKFLOW_NOT_FOUND' | 'SESSION_NOT_FOUND'): Partial<Record<number, WorkflowErrorCodeName>> {
  return { 400: 'VALIDATION_ERROR', 402: 'INSUFFICIENT_FUNDS', 403: 'FORBIDDEN', 404: notFound, 500: 'INTERNAL_ERROR' };
}

/** An error of the workflow endpoints with its code (the status comes from the table, or is its alsoStatus). */
export function workflowError(code: WorkflowErrorCodeName, message: string, extras: Record<string, unknown> = {}, status?: ErrorStatus): ApiError {
  const row: WorkflowErrorCode = CODES_WITH_STATUS[code];
  return new ApiError(status !== undefined && status === row.alsoStatus ? status : row.status, message, { ...extras, code });
}

/**
 * A 409 of the workflow endpoints: the code (the engine's, a shared one, or one of the step module's
 * `conflicts`), where the run is (`current_step`) and which step it is about.
 */
export function stepConflict(
  code: string,
  message: string,
  where: { current_step: number | null; step_id?: string; failure_reason?: string; ready_at?: string },
): ApiError {
  return new ApiError(409, message, { ...where, code });
}
