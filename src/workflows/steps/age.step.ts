/**
 * AGE_ESTIMATION and DEEP_AGE: the applicant's age from a selfie, by the face area's age engine
 * (estimateAge: the age and its range read from the face), against the step's minimum_age.
 *
 * AGE_ESTIMATION takes the selfie in its body and passes when the estimated age is at least minimum_age.
 * DEEP_AGE (start, then complete) re-examines the latest selfie of the run (AGE_ESTIMATION's, else
 * ID_VERIFICATION's selfie_front) more strictly: the LOWER bound of the age range must reach minimum_age,
 * and when ID_VERIFICATION read a date of birth, that age must fall inside the range widened by
 * max_age_gap years. The magic last name Underage puts the face one year under minimum_age.
 */
import { estimateAge } from '../../face/api.ts';
import type { AnalysedImage } from '../../images/image-analysis.ts';
import { ageAt } from '../session-results.ts';
import { z } from '@hono/zod-openapi';
import { stepConflict } from '../workflow-errors.ts';
import type { IdVerificationState } from './id-verification.step.ts';
import { startCompleteBody, type StartCompleteBody } from './step-bodies.ts';
import { readImage } from './step-files.ts';
import { defineStep, type StepFailure, type StepContext, type FailureRow } from './step-module.ts';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { requiredFile, startCompleteForm, fileField, submitButton, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

export const UNDERAGE_LAST_NAME = 'Underage';
const DEFAULT_MINIMUM_AGE = 18;
const DEFAULT_MAX_AGE_GAP = 10;

const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
const isUnderageMagic = (context: StepContext) => context.applicant.last_name.trim().toLowerCase() === UNDERAGE_LAST_NAME.toLowerCase();

interface Estimate {
  age: number;
  low: number;
  high: number;
  source: string;
}

/** The face's age, or undefined without a face; the magic last name moves it one year under minimum_age. */
function estimateOf(context: StepContext, image: AnalysedImage, minimumAge: number, source: string): Estimate | undefined {
  const outcome = estimateAge(image);
  if (!outcome.value.faceDetected) return undefined;
  const { estimatedAge, ageRange } = outcome.value as { estimatedAge: number; ageRange: { low: number; high: number } };
  if (!isUnderageMagic(context)) return { age: estimatedAge, low: ageRange.low, high: ageRange.high, source: `${source}: ${outcome.explanations.join('; ')}` };
  const age = Math.max(0, minimumAge - 1);
  return { age, low: Math.max(0, age - 3), high: age + 3, source: `${source} (magic value: last name ${UNDERAGE_LAST_NAME})` };
}

/** What both steps record about an estimate (analysis_data). */
function estimateAnalysis(estimate: Estimate, minimumAge: number) {
  return { face_detected: true, estimated_age: estimate.age, age_range: { low: estimate.low, high: estimate.high }, minimum_age: minimumAge };
}

// ─── AGE_ESTIMATION ─────────────────────────────────────────────────────────────────────────────────

export const AgeEstimationStepBodySchema = z
  .strictObject({
    uploads: z.strictObject(
      { selfie_front: z.string({ error: mustBe('uploads.selfie_front', 'the file key of the selfie') }).min(1) },
      { error: mustBe('uploads', 'an object {"selfie_front": <file key>}') },
    ),
  })
  .openapi('AgeEstimationStepBody');
export type AgeEstimationStepBody = z.infer<typeof AgeEstimationStepBodySchema>;

/** What DEEP_AGE reads from AGE_ESTIMATION's saved state. */
interface SelfieState extends Record<string, unknown> {
  selfieKey: string;
}

const selfieForm: StepForm = {
  title: 'A selfie',
  fields: () => html`${fileField('selfie_front', 'Selfie', 'selfie')}${submitButton('Send the selfie')}`,
  submit: async (form, client) =>
    client.submit({ uploads: { selfie_front: await client.store('selfie_front', await requiredFile(form, 'selfie_front', 'The selfie')) } }),
};

const AGE_ESTIMATION_FAILURES = {
  AGE_ESTIMATION_NO_FACE: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    content: 'a selfie without a face (fixtures/images/blank.png)',
    magicLastName: null,
    message: 'No face was found to estimate an age from.',
  },
  AGE_ESTIMATION_UNDER_MINIMUM: {
    category: 'SELFIE',
    user_action: 'NONE',
    reason: 'AGE_RESTRICTION_FAILED',
    content: 'a selfie whose estimated age is under the step’s minimum_age (e.g. minimum_age 60 with fixtures/images/face.jpg)',
    magicLastName: 'Underage',
    message: 'The estimated age is under the minimum age.',
  },
} satisfies Record<string, FailureRow>;

export const AGE_ESTIMATION_STEP = defineStep<AgeEstimationStepBody>({
  code: 'AGE_ESTIMATION',
  summary: 'Estimates the age from uploads.selfie_front (face age engine) and passes when it reaches minimum_age',
  body: AgeEstimationStepBodySchema,
  headless: false,
  requirements: (config) => ({ minimum_age: numberOr(config.minimum_age, DEFAULT_MINIMUM_AGE) }),
  failures: AGE_ESTIMATION_FAILURES,
  hostedForm: { ...selfieForm, title: 'Age estimation from a selfie' },
  async run(context, body) {
    const minimumAge = numberOr(context.config.minimum_age, DEFAULT_MINIMUM_AGE);
    const image = await readImage('uploads.selfie_front', body.uploads.selfie_front, context.deps.readUpload);
    const state: SelfieState = { selfieKey: body.uploads.selfie_front };
    const estimate = estimateOf(context, image, minimumAge, 'uploads.selfie_front');
    if (estimate === undefined) {
      return {
        kind: 'failed',
        state,
        failure: { code: 'AGE_ESTIMATION_NO_FACE', slot: 'STEP', detail: `no face in uploads.selfie_front (${image.summary})` },
        analysis: { age_estimation: { face_detected: false, minimum_age: minimumAge, passed: false } },
        explanations: [`AGE_ESTIMATION: no face (${image.summary})`],
      };
    }
    const passed = estimate.age >= minimumAge;
    const analysis = { age_estimation: { ...estimateAnalysis(estimate, minimumAge), passed } };
    const said = `AGE_ESTIMATION: estimated age ${estimate.age} ${passed ? '>=' : '<'} minimum_age ${minimumAge} (${estimate.source})`;
    if (passed) return { kind: 'passed', state, analysis, explanations: [said] };
    const failure: StepFailure = { code: 'AGE_ESTIMATION_UNDER_MINIMUM', slot: 'STEP', detail: `estimated age ${estimate.age} < minimum_age ${minimumAge}` };
    return { kind: 'failed', state, failure, analysis, explanations: [said] };
  },
});

// ─── DEEP_AGE ───────────────────────────────────────────────────────────────────────────────────────

export const DeepAgeStepBodySchema = startCompleteBody('DeepAgeStepBody');

/** The document's date of birth read by ID_VERIFICATION, if any. */
function documentDateOfBirth(context: StepContext): string | undefined {
  const id = context.earlier('ID_VERIFICATION')?.analysis?.id_analysis_data as { id_extracted_text?: { type: string; value: string }[] } | undefined;
  return id?.id_extracted_text?.find((text) => text.type === 'DATE_OF_BIRTH')?.value;
}

const DEEP_AGE_FAILURES = {
  DEEP_AGE_NO_FACE: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    content: 'no selfie with a face earlier in the run (AGE_ESTIMATION or ID_VERIFICATION selfie_front)',
    magicLastName: null,
    message: 'No selfie with a face to analyse.',
  },
  DEEP_AGE_UNDER_MINIMUM: {
    category: 'SELFIE',
    user_action: 'NONE',
    reason: 'AGE_RESTRICTION_FAILED',
    content: 'the lower bound of the selfie’s age range is under minimum_age (config, default 18)',
    magicLastName: 'Underage',
    message: 'The deep age analysis puts the applicant under the minimum age.',
  },
  DEEP_AGE_DOCUMENT_MISMATCH: {
    category: 'FACE_MATCH',
    user_action: 'NONE',
    reason: 'AGE_RESTRICTION_FAILED',
    content: 'the age on the ID_VERIFICATION document is outside the selfie’s estimated age range widened by max_age_gap years (config, default 10)',
    magicLastName: null,
    message: 'The age on the document does not fit the face.',
  },
} satisfies Record<string, FailureRow>;

export const DEEP_AGE_STEP = defineStep<StartCompleteBody>({
  code: 'DEEP_AGE',
  summary: "Re-examines the run's latest selfie: the age range's lower bound must reach minimum_age and fit the ID document's age",
  body: DeepAgeStepBodySchema,
  headless: false,
  requirements: (config) => ({
    minimum_age: numberOr(config.minimum_age, DEFAULT_MINIMUM_AGE),
    max_age_gap: numberOr(config.max_age_gap, DEFAULT_MAX_AGE_GAP),
    selfie_from: ['AGE_ESTIMATION', 'ID_VERIFICATION'],
  }),
  failures: DEEP_AGE_FAILURES,
  hostedForm: startCompleteForm('Age check', 'An age check of your face'),
  async run(context, body) {
    if (body.action === 'start') {
      return { kind: 'progress', state: { startedAt: context.nowIso }, explanations: ['DEEP_AGE started: complete runs the analysis'] };
    }
    if (context.state?.startedAt === undefined) {
      throw stepConflict('STEP_NOT_STARTED', `DEEP_AGE on session ${context.sessionId} has not started: submit {"action": "start"} first, then complete.`, {
        current_step: context.index,
        step_id: 'DEEP_AGE',
      });
    }
    const minimumAge = numberOr(context.config.minimum_age, DEFAULT_MINIMUM_AGE);
    const gap = numberOr(context.config.max_age_gap, DEFAULT_MAX_AGE_GAP);
    const selfieKey =
      (context.earlier('AGE_ESTIMATION')?.state as SelfieState | undefined)?.selfieKey ??
      (context.earlier('ID_VERIFICATION')?.state as IdVerificationState | undefined)?.selfieKey;
    const image = selfieKey === undefined ? undefined : await readImage('selfie', selfieKey, context.deps.readUpload);
    const estimate = image === undefined ? undefined : estimateOf(context, image, minimumAge, 'the run’s selfie');
    if (estimate === undefined) {
      const detail = image === undefined ? 'no AGE_ESTIMATION or ID_VERIFICATION selfie earlier in the run' : `no face in the run's selfie (${image.summary})`;
      return {
        kind: 'failed',
        failure: { code: 'DEEP_AGE_NO_FACE', slot: 'STEP', detail },
        analysis: { deep_age: { face_detected: false, minimum_age: minimumAge, passed: false } },
        explanations: [`DEEP_AGE: ${detail}`],
      };
    }
    const dateOfBirth = documentDateOfBirth(context);
    const documentAge = dateOfBirth === undefined ? undefined : ageAt(dateOfBirth, context.nowIso);
    const fits = documentAge === undefined || (documentAge >= estimate.low - gap && documentAge <= estimate.high + gap);
    const failure: StepFailure | undefined =
      estimate.low < minimumAge
        ? { code: 'DEEP_AGE_UNDER_MINIMUM', slot: 'STEP', detail: `age range ${estimate.low}-${estimate.high}: lower bound < minimum_age ${minimumAge}` }
        : !fits
          ? {
              code: 'DEEP_AGE_DOCUMENT_MISMATCH',
              slot: 'STEP',
              detail: `document age ${documentAge} is outside the face's range ${estimate.low}-${estimate.high} widened by ${gap} years`,
            }
          : undefined;
    const analysis = {
      deep_age: {
        ...estimateAnalysis(estimate, minimumAge),
        ...(documentAge === undefined ? {} : { document_age: documentAge, document_age_fits: fits }),
        passed: failure === undefined,
      },
    };
    const said = `DEEP_AGE: range ${estimate.low}-${estimate.high} vs minimum_age ${minimumAge}${documentAge === undefined ? '' : `, document age ${documentAge}`} (${estimate.source})`;
    return failure === undefined ? { kind: 'passed', analysis, explanations: [said] } : { kind: 'failed', failure, analysis, explanations: [said] };
  },
});
