/** The face area's rows of the error-code map (platform/errors/error-codes.ts). Image routes add `hints` to the body. */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface LivenessFacts {
  lid: string;
}

export const FACE_ERROR_CODES = defineErrorCodes({
  LIVENESS_SESSION_NOT_FOUND: {
    status: 404,
    message: ({ lid }: LivenessFacts) =>
      `Liveness session "${lid.slice(0, 80)}" not found: use the liveness_session_id returned by POST /v1/face/liveness/sessions.`,
  },
  LIVENESS_SESSION_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ lid }: LivenessFacts) => `Liveness session "${lid}" belongs to another organization.`,
  },
  LIVENESS_SESSION_ID_MISMATCH: {
    status: 400,
    message: ({ sessionId }: { sessionId: string }) =>
      `Invalid request: query parameter "session_id" "${sessionId.slice(0, 80)}" is not the session this liveness session was created for.`,
  },
});
