/** The session statuses GET /v1/sessions/{id} reports, as a coverage table (its handler notes each answer's). */
import type { ValueTable } from '../platform/coverage/sources.ts';
import { SESSION_STATUSES } from './sessions.schemas.ts';

export const SESSION_STATUS_COVERAGE: ValueTable = {
  name: 'session statuses',
  operation: 'GET /v1/sessions/{id}',
  member: 'session_record.status',
  values: SESSION_STATUSES,
};
