/**
 * What other areas use of hosted sessions: creating a session of their own type and reading sessions
 * (session-records.service.ts), the links a session answers with, the session machine's reads, and the
 * console's outcomes. The port implementations the areas below use (area-ports.ts) are listed on this
 * area's entry in src/modules.ts, not offered through here.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { legalControlOutcomes } from './session-outcomes.ts';
export { adminConsoleUrl, applicantUserIdFor, buildSessionUrl, senderUserIdFor, sessionDetailsUrl, type SessionUrls } from './session-record.ts';
export { allSessions, createSession, recordFinishAnalysis, sessionById, sessionsByExternalId, sessionUploads } from './session-records.service.ts';
export { displayStatus, isTerminal } from './session.machine.ts';
export { CONTROL_OUTCOMES, type ControlOutcome, SESSION_STATUSES, SESSION_TYPES } from './sessions.schemas.ts';
export { driveSessionOutcome } from './sessions.service.ts';
export type { StoredSession } from './sessions.store.ts';
