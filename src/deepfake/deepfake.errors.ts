/** The deepfake area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

export const DEEPFAKE_ERROR_CODES = defineErrorCodes({
  DEEPFAKE_SESSION_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ sessionId }: { sessionId: string }) =>
      `Session ${sessionId} belongs to another organization: ask for the challenge with an API key of the organization that created it.`,
  },
});
