/** The iGaming area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface SessionFacts {
  sessionId: string;
}

export const IGAMING_ERROR_CODES = defineErrorCodes({
  DOCUMENT_NUMBER_MALFORMED: {
    status: 400,
    message: ({ shown, rule }: { shown: string; rule: string }) =>
      `Invalid request: path parameter "document_number" ${shown}: send the URL-encoded document number (${rule}).`,
  },
  SESSION_NOT_IN_ORGANIZATION: {
    status: 404,
    message: ({ sessionId }: SessionFacts) =>
      `Session ${sessionId} was not found in your organization: send the id of one of your sessions (POST /v1/sessions returned it).`,
  },
  /** Anti-cheat answers the spec's terse sentence, and what to do in `detail`. */
  ANTI_CHEAT_SESSION_NOT_FOUND: {
    status: 404,
    message: () => 'Session not found',
    detail: ({ sessionId }: SessionFacts) =>
      `Session ${sessionId.slice(0, 80)} does not exist in this organization: send the session_id of one of your verification sessions.`,
  },
  IP_ADDRESS_MALFORMED: {
    status: 400,
    message: ({ raw }: { raw: string }) =>
      `Invalid request: body field "ip_address" must be an IPv4 or IPv6 address such as 203.0.113.7 or 2001:db8:1::7; got ${JSON.stringify(raw.slice(0, 64))}.`,
  },
});
