/**
 * Sessions as coverage classes: the statuses GET /v1/sessions/{id} reports (its handler notes each
 * answer's), and the moves of the transition table (noted where a move is saved).
 */
import type { ClassSource, TriggerRequest } from '../platform/coverage/outcome-class.ts';
import type { ValueTable } from '../platform/coverage/sources.ts';
import { SESSION_TRANSITIONS, type SessionEventType, type SessionMove, type TransitionResult } from './session.machine.ts';
import { SESSION_STATUSES, type ControlOutcome } from './sessions.schemas.ts';

export const SESSION_STATUS_COVERAGE: ValueTable = {
  name: 'session statuses',
  operation: 'GET /v1/sessions/{id}',
  member: 'session_record.status',
  values: SESSION_STATUSES,
};

/** The fact of one move of the session machine, noted where the move is made. */
function moveFact({ event, from, to }: SessionMove): string {
  return `transition:${event} ${from} -> ${to}`;
}

/** The facts of a transition the service saved (none for a refusal). */
export function transitionFacts(result: TransitionResult): string[] {
  return result.ok ? result.moves.map(moveFact) : [];
}

const CREATE = 'create a session (POST /v1/sessions)';
const TO_SUBMITTED = 'move it to SUBMITTED (POST /__sandbox/sessions/{id}/outcome {"outcome":"SUBMITTED"})';

/** How each event of the table is made to happen: a control outcome, the reviewer's update-status, or the applicant. */
const EVENT_TRIGGERS: Record<SessionEventType, { how: string; outcome?: ControlOutcome; updateStatus?: 'VERIFIED' | 'REJECTED' }> = {
  open: { how: "the applicant opens the session's hosted page (its url)" },
  submit: { how: 'the applicant finishes, or POST /__sandbox/sessions/{id}/outcome {"outcome":"SUBMITTED"}', outcome: 'SUBMITTED' },
  verify: { how: 'PATCH /v1/sessions/{id}/update-status {"new_status":"VERIFIED"}', updateStatus: 'VERIFIED' },
  reject: { how: 'PATCH /v1/sessions/{id}/update-status {"new_status":"REJECTED"}', updateStatus: 'REJECTED' },
  void: { how: 'POST /__sandbox/sessions/{id}/outcome {"outcome":"VOIDED"}', outcome: 'VOIDED' },
  auto_decline: { how: 'the AI declines: POST /__sandbox/sessions/{id}/outcome {"outcome":"REJECTED"} (or the auto-decline scenario)', outcome: 'REJECTED' },
  fail: { how: 'POST /__sandbox/sessions/{id}/outcome {"outcome":"FAILED"}', outcome: 'FAILED' },
  attempt_failed: { how: 'a failed capture attempt on the hosted page or in a workflow step (the limit reached: FAILED)' },
  abandon: { how: 'the applicant cancels, or POST /__sandbox/sessions/{id}/outcome {"outcome":"abandoned"}', outcome: 'abandoned' },
  expire: { how: 'the session expires, or POST /__sandbox/sessions/{id}/outcome {"outcome":"expired"}', outcome: 'expired' },
};

/** One class per move of the transition table (each event from each of its states to each of its targets). */
export const sessionTransitionSource: ClassSource = {
  name: 'session transitions',
  classes: (context) =>
    SESSION_TRANSITIONS.flatMap((row) =>
      row.from.flatMap((from) =>
        row.to.map((to) => {
          const { how, outcome, updateStatus } = EVENT_TRIGGERS[row.event];
          const request: TriggerRequest | undefined =
            outcome !== undefined
              ? { method: 'POST', path: '/__sandbox/sessions/{id}/outcome', key: null, body: { outcome } }
              : updateStatus !== undefined
                ? { method: 'PATCH', path: '/v1/sessions/{id}/update-status', key: context.keys.live, body: { new_status: updateStatus } }
                : undefined;
          const steps = [CREATE, ...(from === 'SUBMITTED' ? [TO_SUBMITTED] : []), how];
          return {
            id: `transition ${row.event} ${from} -> ${to}`,
            kind: 'transition' as const,
            title: `${row.trigger}: ${from} -> ${to}`,
            trigger: { how: steps.join(', then '), ...(request ? { request } : {}) },
            recognizer: { by: 'fact' as const, fact: moveFact({ event: row.event, from, to }) },
          };
        }),
      ),
    ),
};
