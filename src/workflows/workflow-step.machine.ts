/**
 * A headless step's life cycle as data, and the one place that checks a move is legal.
 *
 *   PENDING ──begin──▶ IN_PROGRESS            (workflow/start, FACE_LIVENESS start or upload-url)
 *   PENDING | IN_PROGRESS ──pass──▶ COMPLETED  (the step's checks passed; current_step advances)
 *   PENDING | IN_PROGRESS ──fail_attempt──▶ IN_PROGRESS  (a failed attempt with attempts left: resubmit)
 *   PENDING | IN_PROGRESS ──fail_final──▶ FAILED         (the workflow's failed-attempt limit reached)
 *
 *   PENDING | IN_PROGRESS ──end_run──▶ FAILED         (the step ends the run whatever attempts are left: declined consent)
 *
 * Only the session's current step moves, and only from PENDING or IN_PROGRESS (the spec's rule); SKIPPED
 * is in the status set but no move leads there.
 */
import { defineMachine } from '../platform/machines/define-machine.ts';
import type { StepCode } from './steps/index.ts';
import { STEP_STATUSES, type StepStatus } from './steps/step-schemas.ts';

export type StepEvent = 'begin' | 'pass' | 'fail_attempt' | 'fail_final' | 'end_run';

const OPEN: readonly StepStatus[] = ['PENDING', 'IN_PROGRESS'];

export const STEP_MACHINE = defineMachine({
  states: STEP_STATUSES,
  initial: 'PENDING',
  final: ['COMPLETED', 'FAILED', 'SKIPPED'],
  transitions: [
    { event: 'begin', from: OPEN, to: ['IN_PROGRESS'], effects: 'started_at set on the first move' },
    { event: 'pass', from: OPEN, to: ['COMPLETED'], effects: 'attempts + 1, completed_at set, failure_reason cleared, current_step advances' },
    { event: 'fail_attempt', from: OPEN, to: ['IN_PROGRESS'], effects: 'attempts + 1, failure_reason set; the step may be submitted again' },
    { event: 'fail_final', from: OPEN, to: ['FAILED'], effects: 'attempts + 1, failure_reason and completed_at set; the session is FAILED' },
    { event: 'end_run', from: OPEN, to: ['FAILED'], effects: 'attempts + 1, failure_reason and completed_at set; the session is REJECTED (declined consent)' },
  ] as const satisfies readonly { event: StepEvent; from: readonly StepStatus[]; to: readonly StepStatus[]; effects: string }[],
});

export interface StepState {
  step_id: StepCode;
  status: StepStatus;
  attempts: number;
  started_at: string | null;
  completed_at: string | null;
  failure_reason: string | null;
}

/** Whether a step in this status may be submitted (the spec: PENDING or IN_PROGRESS). */
export function isSubmittable(status: StepStatus): boolean {
  return OPEN.includes(status);
}

/** Applies one event; throws on an illegal move (callers check submittability first, so that is a bug). */
export function moveStep<S extends StepState>(step: S, event: StepEvent, nowIso: string, failureReason?: string): S {
  const move = STEP_MACHINE.moveFrom(step.status, event);
  if (move === undefined) throw new Error(`step ${step.step_id} cannot ${event} from ${step.status}`);
  const [status] = move.to;
  const started = step.started_at ?? nowIso;
  switch (event) {
    case 'begin':
      return { ...step, status, started_at: started };
    case 'pass':
      return { ...step, status, attempts: step.attempts + 1, started_at: started, completed_at: nowIso, failure_reason: null };
    case 'fail_attempt':
      return { ...step, status, attempts: step.attempts + 1, started_at: started, failure_reason: failureReason ?? null };
    case 'fail_final':
    case 'end_run':
      return { ...step, status, attempts: step.attempts + 1, started_at: started, completed_at: nowIso, failure_reason: failureReason ?? null };
  }
}
