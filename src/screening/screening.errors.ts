/** The screening area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

export const SCREENING_ERROR_CODES = defineErrorCodes({
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    message: ({ key, jobId }: { key: string; jobId: string }) =>
      `Idempotency-Key "${key.slice(0, 80)}" was already used for a different request body (job ${jobId}): send a new Idempotency-Key for a new request, or resend the original body to get the original job.`,
  },
  SESSION_HAS_NO_PHONE: {
    status: 400,
    message: ({ sessionId }: { sessionId: string }) =>
      `Invalid request: body field phone is required: session ${sessionId} has no applicant phone on file; send an E.164 number such as +447700900001.`,
  },
  /** A carrier check's own sentence about the field it refused. */
  PHONE_CHECK_INVALID_INPUT: {
    status: 400,
    message: ({ problem }: { problem: string }) => `Invalid request: body field ${problem}.`,
  },
  CARRIER_UNAVAILABLE: {
    status: 503,
    message: () => 'Service temporarily unavailable.',
  },
});
