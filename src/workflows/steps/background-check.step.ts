/**
 * BACKGROUND_CHECK (`{action: "start" | "complete"}`): screens the identity the earlier ID_VERIFICATION
 * step read from the document (first name, last name, date of birth: the id_extracted_text of its
 * primary document), not the name the session was created with. `start` queues the screening area's
 * adverse-media job for that identity (IN_PROGRESS); `complete` reads it on the virtual clock (409
 * BACKGROUND_CHECK_NOT_READY before it is due, STEP_NOT_STARTED without a start; the step keeps the job as
 * queued, so a complete after its 24 h retention still reads it) and screens the identity against the PEP
 * and sanctions watchlists.
 *
 * Clear (no list match, adverse media LOW or MEDIUM): COMPLETED. A list match or adverse media HIGH or
 * CRITICAL ends the run: BACKGROUND_CHECK_HIT, the session REJECTED. A failed job (the async-jobs-fail
 * scenario) is a failed attempt SCREENING_UNAVAILABLE; start again. The record is
 * analysis_data.background_check (identity, list matches, adverse media summary, result).
 *
 * LIMITATIONS:
 * - Document identities are synthetic (seeded by the image), so they never hit the screening magic
 *   names: force BACKGROUND_CHECK_HIT with an attempt script. Another document image is another
 *   identity, and so another result.
 * - The session's price covers both screenings: nothing is billed.
 */
import type { z } from '@hono/zod-openapi';
import { defaultWatchlist, queueStepAdverseMedia, screenPepSanctions } from '../../screening/api.ts';
import type { StoredJob } from '../../platform/jobs/jobs.ts';
import { stepConflict } from '../workflow-errors.ts';
import { startCompleteBody } from './step-bodies.ts';
import { SCREENING_UNAVAILABLE, screeningUnavailable, settledStepJob } from './step-job.ts';
import { defineStep, type StepContext, type StepOutcome, type FailureRow } from './step-module.ts';
import { startCompleteForm } from './hosted-forms.ts';

export const BackgroundCheckStepBodySchema = startCompleteBody('BackgroundCheckStepBody');
export type BackgroundCheckStepBody = z.infer<typeof BackgroundCheckStepBodySchema>;

export interface DocumentIdentity {
  first_name: string;
  last_name: string;
  date_of_birth: string;
}

export interface BackgroundCheckState extends Record<string, unknown> {
  /** The job as queued: its outcome once GET /v1/async-jobs no longer keeps it. */
  job: StoredJob;
  identity: DocumentIdentity;
}

/** The identity ID_VERIFICATION read: its primary document's extracted text. */
function documentIdentity(context: StepContext): DocumentIdentity {
  const analysis = context.earlier('ID_VERIFICATION')?.analysis as { id_analysis_data?: { id_extracted_text?: { type: string; value: string }[] } } | undefined;
  const text = analysis?.id_analysis_data?.id_extracted_text ?? [];
  const field = (type: string) => text.find((entry) => entry.type === type)?.value;
  const [first_name, last_name, date_of_birth] = [field('FIRST_NAME'), field('LAST_NAME'), field('DATE_OF_BIRTH')];
  if (first_name === undefined || last_name === undefined || date_of_birth === undefined) {
    // The engine runs this step only after ID_VERIFICATION completed, and a completed document was read.
    throw stepConflict(
      'STEP_NOT_STARTED',
      `Session ${context.sessionId} has no identity read from a document: ID_VERIFICATION must complete with a readable document before BACKGROUND_CHECK.`,
      { current_step: context.index, step_id: 'BACKGROUND_CHECK' },
    );
  }
  return { first_name, last_name, date_of_birth };
}

function start(context: StepContext): StepOutcome {
  const identity = documentIdentity(context);
  const person = { firstName: identity.first_name, lastName: identity.last_name, dateOfBirth: identity.date_of_birth };
  const job = queueStepAdverseMedia(context.world, context.deps.jobs, context.organizationId, person, context.deps.jobFate());
  const state: BackgroundCheckState = { job, identity };
  return {
    kind: 'progress',
    state,
    payload: { background_check: { status: 'pending', identity } },
    explanations: [
      `background check of the document identity ${identity.first_name} ${identity.last_name} (${identity.date_of_birth}): adverse media job ${job.id} queued`,
    ],
  };
}

function complete(context: StepContext): StepOutcome {
  const state = context.state as BackgroundCheckState | undefined;
  const job = settledStepJob(context, state?.job, {
    step: 'BACKGROUND_CHECK',
    notReady: 'BACKGROUND_CHECK_NOT_READY',
    notStarted: `BACKGROUND_CHECK on session ${context.sessionId} has not started: submit {"action": "start"} first, then complete.`,
    what: 'The background check',
  });
  const { said } = job;
  if (job.status === 'failed') return screeningUnavailable(`The adverse media job ${job.jobId} of the background check failed: ${job.error}.`, said);
  const { identity } = state as BackgroundCheckState;
  const lists = screenPepSanctions({ firstName: identity.first_name, lastName: identity.last_name, dateOfBirth: identity.date_of_birth }, defaultWatchlist());
  const media = job.result;
  const hits = [
    ...(lists.value.totalMatches > 0 ? [`${lists.value.totalMatches} watchlist match(es)`] : []),
    ...(media.riskLevel === 'HIGH' || media.riskLevel === 'CRITICAL' ? [`adverse media ${media.riskLevel}`] : []),
  ];
  const record = {
    identity,
    pep_sanctions: { peps: lists.value.peps, sanctions: lists.value.sanctions, both: lists.value.both },
    adverse_media: { risk_level: media.riskLevel, risk_score: media.riskScore, total_hits: media.totalHits, summary: media.summary },
    result: hits.length > 0 ? 'HIT' : 'CLEAR',
  };
  const outcome = { analysis: { background_check: record }, payload: { background_check: record }, explanations: [...said, ...lists.explanations] };
  if (hits.length > 0) {
    return {
      kind: 'failed',
      failure: { code: 'BACKGROUND_CHECK_HIT', slot: 'STEP', detail: `${identity.first_name} ${identity.last_name}: ${hits.join(', ')}.` },
      endsRun: true,
      ...outcome,
    };
  }
  return { kind: 'passed', ...outcome };
}

const BACKGROUND_CHECK_FAILURES = {
  SCREENING_UNAVAILABLE,
  BACKGROUND_CHECK_HIT: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    content:
      'the identity read from the document is on a watchlist or has HIGH/CRITICAL adverse media (document identities are synthetic: force it with an attempt script; ends the run: REJECTED)',
    magicLastName: null,
    message: 'The background check of the identity on the document found a hit.',
  },
} satisfies Record<string, FailureRow>;

export const BACKGROUND_CHECK_STEP = defineStep<BackgroundCheckStepBody>({
  code: 'BACKGROUND_CHECK',
  summary: 'Watchlist and adverse media screening of the identity ID_VERIFICATION read: start queues it, complete reads it; a hit ends the run',
  body: BackgroundCheckStepBodySchema,
  headless: false,
  requirements: () => ({ actions: ['start', 'complete'], identity_from: 'ID_VERIFICATION' }),
  failures: BACKGROUND_CHECK_FAILURES,
  conflicts: {
    BACKGROUND_CHECK_NOT_READY: 'BACKGROUND_CHECK complete while its adverse-media job is pending or processing (ready_at)',
  },
  hostedForm: startCompleteForm('Background check', 'A background check on the identity read from your document'),
  run: (context, body) => (body.action === 'start' ? start(context) : complete(context)),
});
