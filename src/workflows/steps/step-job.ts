/**
 * The job-wait protocol of the steps that queue the screening area's adverse-media job (ADVERSE_MEDIA,
 * BACKGROUND_CHECK): `complete` without a start is 409 STEP_NOT_STARTED, before the job is due 409 <the
 * step's NOT_READY code> with `ready_at`, and a failed job is a failed attempt SCREENING_UNAVAILABLE.
 * The step keeps the job as queued, so a complete after the job's retention still reads its outcome.
 */
import type { StoredJob } from '../../platform/jobs/jobs.ts';
import { adverseMediaJobState } from '../../screening/api.ts';
import { stepConflict } from '../workflow-errors.ts';
import type { FailureRow, StepContext, StepOutcome } from './step-module.ts';

/** The screening provider failed: either screening step gives it, one row shared by both modules. */
export const SCREENING_UNAVAILABLE = {
  category: 'OTHER',
  user_action: 'RETRY_STEP',
  reason: 'SCREENING_UNAVAILABLE',
  content: 'the adverse-media job failed: the person Fay Failure, or the async-jobs-fail scenario during start (start again)',
  magicLastName: null,
  message: 'The screening provider failed to complete the check.',
} satisfies FailureRow;

export interface StepJobWait {
  step: string;
  /** The 409 code while the job runs (the step's own conflict code). */
  notReady: string;
  /** The 409 sentence without a start. */
  notStarted: string;
  /** What is waited on, as the not-ready sentence names it ("The background check of session …"). */
  what: string;
}

export type SettledStepJob =
  | { status: 'failed'; jobId: string; error: string; said: string[] }
  | { status: 'ready'; jobId: string; result: Extract<ReturnType<typeof adverseMediaJobState>, { status: 'ready' }>['result']; said: string[] };

/** The step's job once it has an outcome; 409 while it is missing or still running. */
export function settledStepJob(context: StepContext, queued: StoredJob | undefined, wait: StepJobWait): SettledStepJob {
  const { world, index, sessionId } = context;
  const where = { current_step: index, step_id: wait.step };
  if (queued === undefined) throw stepConflict('STEP_NOT_STARTED', wait.notStarted, where);
  const job = adverseMediaJobState(world, context.deps.jobs, queued);
  if (job.status === 'pending' || job.status === 'processing') {
    const readyAt = job.readyAtMs === undefined ? undefined : world.clock.iso(job.readyAtMs);
    throw stepConflict(
      wait.notReady,
      `${wait.what} of session ${sessionId} is still ${job.status}: ${readyAt === undefined ? 'it stays processing (scenario async-jobs-stuck)' : `it is due at ${readyAt}`}; submit {"action": "complete"} again then.`,
      { ...where, ...(readyAt === undefined ? {} : { ready_at: readyAt }) },
    );
  }
  const said = job.explanation === undefined ? [] : [job.explanation];
  return job.status === 'failed'
    ? { status: 'failed', jobId: job.jobId, error: job.error, said }
    : { status: 'ready', jobId: job.jobId, result: job.result, said };
}

/** The failed attempt of a failed job: the step starts again to queue a new one. */
export function screeningUnavailable(detail: string, said: string[], payload?: Record<string, unknown>): StepOutcome {
  return {
    kind: 'failed',
    failure: { code: 'SCREENING_UNAVAILABLE', slot: 'STEP', detail },
    state: {},
    ...(payload === undefined ? {} : { payload }),
    explanations: said,
  };
}
