/**
 * ADVERSE_MEDIA: `{action: "start", email?, first_name, last_name, date_of_birth, country?}` queues the
 * screening area's adverse-media job for the person (the same job GET /v1/async-jobs/{jobId} shows, the
 * async-jobs-* scenarios included) and leaves the step IN_PROGRESS; `{action: "complete"}` reads the job on
 * the virtual clock. Before the result is due it answers 409 ADVERSE_MEDIA_NOT_READY (with `ready_at`),
 * without a start 409 STEP_NOT_STARTED. The step keeps the job as queued, so a complete after the job's
 * retention (24 h: GET /v1/async-jobs answers 404 then) still reads the screening's result.
 *
 * The result lands in analysis_data.adverse_media_data (the spec's member). LOW and MEDIUM risk complete
 * the step; HIGH and CRITICAL end the run (ADVERSE_MEDIA_HIT, the session REJECTED); a failed job is a
 * failed attempt (SCREENING_UNAVAILABLE), and the next start queues a new job. The screening magic names
 * (Clara Clean, Morgan Medium, Harper High, Cyrus Critical, Fay Failure) force each.
 *
 * A start repeated while its job is kept (not failed, not past its retention) returns the same job when
 * the person is the same (no new job), a new one when the person changed.
 *
 * LIMITATIONS:
 * - The session's price covers the job: nothing is billed, unlike the standalone endpoint.
 */
import type { z } from '@hono/zod-openapi';
import {
  adverseMediaFingerprint,
  adverseMediaJobState,
  type AdverseMediaRequest,
  CountrySchema,
  queueStepAdverseMedia,
  toAdverseMediaData,
} from '../../screening/api.ts';
import type { StoredJob } from '../../platform/jobs/jobs.ts';
import { screenedPersonFields, startOrComplete } from './step-bodies.ts';
import { SCREENING_UNAVAILABLE, screeningUnavailable, settledStepJob } from './step-job.ts';
import { defineStep, type StepContext, type StepOutcome, type FailureRow } from './step-module.ts';
import { identityBody, identityFields, startCompleteForm, text, withOptional } from './hosted-forms.ts';

export const AdverseMediaStepBodySchema = startOrComplete({ ...screenedPersonFields, country: CountrySchema.optional() }, {}).openapi('AdverseMediaStepBody');
export type AdverseMediaStepBody = z.infer<typeof AdverseMediaStepBodySchema>;

/** What the step keeps between start and complete. */
export interface AdverseMediaState extends Record<string, unknown> {
  /** The job as queued: its outcome once GET /v1/async-jobs no longer keeps it. */
  job: StoredJob;
  /** The person's fingerprint, so a repeated start with the same person reuses the job. */
  fingerprint: string;
}

type StartBody = Extract<AdverseMediaStepBody, { action: 'start' }>;

function personOf(body: StartBody): AdverseMediaRequest {
  return {
    ...(body.email === undefined ? {} : { email: body.email }),
    firstName: body.first_name,
    lastName: body.last_name,
    dateOfBirth: body.date_of_birth,
    ...(body.country === undefined ? {} : { country: body.country }),
  };
}

function start(context: StepContext, body: StartBody): StepOutcome {
  const { world, deps } = context;
  const person = personOf(body);
  const fingerprint = adverseMediaFingerprint(person);
  const earlier = context.state as AdverseMediaState | undefined;
  if (earlier?.fingerprint === fingerprint) {
    const running = adverseMediaJobState(world, deps.jobs, earlier.job);
    if (!running.retired && running.status !== 'failed') {
      return {
        kind: 'progress',
        state: earlier,
        payload: { adverse_media: { job_id: running.jobId, status: running.status } },
        explanations: [`start repeated with the same person: adverse media job ${running.jobId} (${running.status}) kept, nothing queued`],
      };
    }
  }
  const job = queueStepAdverseMedia(world, deps.jobs, context.organizationId, person, deps.jobFate());
  const state: AdverseMediaState = { job, fingerprint };
  const fate = job.fate === 'normal' ? '' : ` (scenario async-jobs-${job.fate})`;
  return {
    kind: 'progress',
    state,
    payload: { adverse_media: { job_id: job.id, status: 'pending' } },
    explanations: [
      `adverse media job ${job.id} queued for ${person.firstName} ${person.lastName}${fate}; complete once it is ready (GET /v1/async-jobs/${job.id})`,
    ],
  };
}

function complete(context: StepContext): StepOutcome {
  const job = settledStepJob(context, (context.state as AdverseMediaState | undefined)?.job, {
    step: 'ADVERSE_MEDIA',
    notReady: 'ADVERSE_MEDIA_NOT_READY',
    notStarted: `ADVERSE_MEDIA on session ${context.sessionId} has no screening running: submit {"action": "start", "first_name": ..., "last_name": ..., "date_of_birth": ...} first, then complete.`,
    what: 'The adverse media screening',
  });
  const { said } = job;
  if (job.status === 'failed') {
    return screeningUnavailable(`Adverse media job ${job.jobId} failed: ${job.error}.`, said, { adverse_media: { job_id: job.jobId, status: 'failed' } });
  }
  const { result } = job;
  const analysis = { adverse_media_data: toAdverseMediaData(result) };
  const payload = {
    adverse_media: { job_id: job.jobId, status: 'ready', risk_level: result.riskLevel, risk_score: result.riskScore, total_hits: result.totalHits },
  };
  if (result.riskLevel === 'HIGH' || result.riskLevel === 'CRITICAL') {
    return {
      kind: 'failed',
      failure: { code: 'ADVERSE_MEDIA_HIT', slot: 'STEP', detail: `Risk ${result.riskLevel} (score ${result.riskScore}): ${result.summary}` },
      endsRun: true,
      analysis,
      payload,
      explanations: said,
    };
  }
  return { kind: 'passed', analysis, payload, explanations: said };
}

const adverseMediaForm = startCompleteForm(
  'Adverse media screening',
  'A search of the news for your name',
  (view) => identityFields(view, true),
  (form) => withOptional(identityBody(form), { country: text(form, 'country') }),
);

const ADVERSE_MEDIA_FAILURES = {
  ADVERSE_MEDIA_HIT: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    content: 'adverse media risk HIGH or CRITICAL: Harper High, Cyrus Critical (ends the run: REJECTED)',
    magicLastName: null,
    message: 'Adverse media of high or critical risk was found.',
  },
  SCREENING_UNAVAILABLE,
} satisfies Record<string, FailureRow>;

export const ADVERSE_MEDIA_STEP = defineStep<AdverseMediaStepBody>({
  code: 'ADVERSE_MEDIA',
  summary: 'Adverse media screening of the person sent: start queues the job, complete reads it on the clock; HIGH or CRITICAL risk ends the run',
  body: AdverseMediaStepBodySchema,
  headless: false,
  requirements: () => ({ actions: ['start', 'complete'], fields: ['first_name', 'last_name', 'date_of_birth'] }),
  failures: ADVERSE_MEDIA_FAILURES,
  conflicts: {
    ADVERSE_MEDIA_NOT_READY: 'ADVERSE_MEDIA complete while the adverse-media job is pending or processing (ready_at says when it is due)',
  },
  hostedForm: adverseMediaForm,
  run: (context, body) => (body.action === 'start' ? start(context, body) : complete(context)),
});
