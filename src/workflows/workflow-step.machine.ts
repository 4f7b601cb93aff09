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
import type { StepCode } from './workflow-steps.ts';
import type { StepStatus } from './steps/step-schemas.ts';

export type StepEvent = 'begin' | 'pass' | 'fail_attempt' | 'fail_final' | 'end_run';

export const STEP_TRANSITIONS: readonly { event: StepEvent; from: readonly StepStatus[]; to: StepStatus; effects: string }[] = [
  { event: 'begin', from: ['PENDING', 'IN_PROGRESS'], to: 'IN_PROGRESS', effects: 'started_at set on the first move' },
  {
    event: 'pass',
    from: ['PENDING', 'IN_PROGRESS'],
    to: 'COMPLETED',
    effects: 'attempts + 1, completed_at set, failure_reason cleared, current_step advances',
  },
  { event: 'fail_attempt', from: ['PENDING', 'IN_PROGRESS'], to: 'IN_PROGRESS', effects: 'attempts + 1, failure_reason set; the step may be submitted again' },
  { event: 'fail_final', from: ['PENDING', 'IN_PROGRESS'], to: 'FAILED', effects: 'attempts + 1, failure_reason and completed_at set; the session is FAILED' },
  {
    event: 'end_run',
    from: ['PENDING', 'IN_PROGRESS'],
    to: 'FAILED',
    effects: 'attempts + 1, failure_reason and completed_at set; the session is REJECTED (declined consent)',
  },
];

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
  return status === 'PENDING' || status === 'IN_PROGRESS';
}

/** Applies one event; throws on an illegal move (callers check submittability first, so that is a bug). */
export function moveStep<S extends StepState>(step: S, event: StepEvent, nowIso: string, failureReason?: string): S {
  const row = STEP_TRANSITIONS.find((candidate) => candidate.event === event);
  if (row === undefined || !row.from.includes(step.status)) throw new Error(`step ${step.step_id} cannot ${event} from ${step.status}`);
  const started = step.started_at ?? nowIso;
  switch (event) {
    case 'begin':
      return { ...step, status: row.to, started_at: started };
    case 'pass':
      return { ...step, status: row.to, attempts: step.attempts + 1, started_at: started, completed_at: nowIso, failure_reason: null };
    case 'fail_attempt':
      return { ...step, status: row.to, attempts: step.attempts + 1, started_at: started, failure_reason: failureReason ?? null };
    case 'fail_final':
    case 'end_run':
      return { ...step, status: row.to, attempts: step.attempts + 1, started_at: started, completed_at: nowIso, failure_reason: failureReason ?? null };
  }
}
