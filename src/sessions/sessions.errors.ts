/** The sessions area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface SessionFacts {
  id: string;
}

export const SESSIONS_ERROR_CODES = defineErrorCodes({
  /** A file the hosted page stores, over the upload limit (the limit's MB from its bytes). */
  HOSTED_FILE_TOO_LARGE: {
    status: 400,
    message: (facts: { label: string; bytes: number; maxBytes: number }) =>
      `${facts.label} has ${facts.bytes} bytes: a file may have at most ${facts.maxBytes} (${facts.maxBytes / 1_048_576} MB).`,
  },
  SESSION_NOT_FOUND: {
    status: 404,
    message: ({ id }: SessionFacts) => `Session ${id} was not found: check the id (sessions live in the namespace that created them).`,
  },
  SESSION_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ id }: SessionFacts) => `Session ${id} belongs to another organization: use an API key of the organization that created it.`,
  },
  /** Another area records on a session that is gone (headless step results, attached phone checks). */
  SESSION_TO_RECORD_ON_NOT_FOUND: {
    status: 404,
    message: ({ id }: SessionFacts) => `Session ${id} was not found: check the session id.`,
  },
  /** The control API drives a session the namespace does not hold. */
  SESSION_TO_DRIVE_NOT_FOUND: {
    status: 404,
    message: (facts: SessionFacts & { namespace: string }) =>
      `Session ${facts.id} was not found in namespace "${facts.namespace}": create it with POST /v1/sessions first (sandbox test identifiers are synthetic and cannot be driven).`,
  },
  /** The session machine refuses the move; its sentence says why (session.machine.ts). */
  SESSION_MOVE_NOT_POSSIBLE: {
    status: 409,
    message: ({ reason }: { reason: string }) => `${reason}.`,
  },
  SESSION_WORKFLOW_NOT_FOUND: {
    status: 404,
    message: ({ workflowId }: { workflowId: string }) =>
      `Workflow ${workflowId} was not found in your organization: send the id of one of your workflows as workflow_id, or omit it for a standalone verification.`,
  },
  SESSION_PHONE_REQUIRED: {
    status: 400,
    message: (facts: { workflowId: string; step: string }) =>
      `Invalid request: body field "phone" is required because workflow ${facts.workflowId} has a ${facts.step} step: send the applicant's number in E.164 format (e.g. +14155550123).`,
  },
});
