/**
 * The shape of PHONE_TRUST_CHECK, CARRIER_AGE_GATE and PHONE_OWNERSHIP_MATCH: body `{}`, and the screening
 * area checks the session's own phone (its magic numbers included) and attaches the result to
 * analysis_data.phone_checks as the endpoint does with a sessionId. The carrier's outage (magic number
 * +447700900009) is a failed attempt CARRIER_UNAVAILABLE that a retry may pass; each step says what the
 * carrier's answer means (`failureOf`).
 */
import { checkSessionPhone, type PhoneCheckKind, type PhoneCheckResponses } from '../../screening/api.ts';
import { workflowError } from '../workflow-errors.ts';
import { emptyBody } from './step-bodies.ts';
import { continueForm } from './hosted-forms.ts';
import { defineStep, type FailureRow, type StepContext, type StepModule, type StepOutcome } from './step-module.ts';

/** The carrier's outage: any of the three carrier steps gives it, one row shared by their modules. */
const CARRIER_UNAVAILABLE = {
  category: 'OTHER',
  user_action: 'RETRY_STEP',
  reason: 'CARRIER_UNAVAILABLE',
  content: 'the session phone +447700900009 (the carrier data provider is down)',
  magicLastName: null,
  message: 'The carrier data provider did not answer.',
} satisfies FailureRow;

export type SessionPhoneCheck<K extends PhoneCheckKind> =
  | { answered: true; response: PhoneCheckResponses[K]; explanations: string[] }
  | { answered: false; outcome: StepOutcome };

export function sessionPhoneCheck<K extends PhoneCheckKind>(context: StepContext, kind: K): SessionPhoneCheck<K> {
  const { result, explanations } = checkSessionPhone(context.world, context.organizationId, context.sessionId, kind);
  if (result.status === 'ok') return { answered: true, response: result.response, explanations };
  if (result.status === 'carrier-unavailable') {
    return {
      answered: false,
      outcome: {
        kind: 'failed',
        failure: { code: 'CARRIER_UNAVAILABLE', slot: 'STEP', detail: 'The carrier data provider did not answer; submit the step again.' },
        explanations,
      },
    };
  }
  // Sessions with a phone step are created with an E.164 phone, so only a record from before that rule lands here.
  throw workflowError(
    'VALIDATION_ERROR',
    `Session ${context.sessionId} has no phone the carrier can check (${result.message}): create a new session with the applicant's phone in E.164 form.`,
  );
}

export interface CarrierStepSpec<K extends PhoneCheckKind> {
  code: string;
  kind: K;
  summary: string;
  /** The body's OpenAPI component name (<PascalCode>StepBody). */
  bodyName: string;
  requirements: Record<string, unknown>;
  /** The step response's key for the carrier's answer. */
  payloadKey: string;
  /** The step's own failure rows (CARRIER_UNAVAILABLE is added: every carrier step can give it). */
  failures: Record<string, FailureRow>;
  /** The failure the carrier's answer means; undefined: the step completes. */
  failureOf(response: PhoneCheckResponses[K]): { code: string; detail: string } | undefined;
  /** The hosted page's one sentence: what the step checks. */
  hostedPage: { title: string; what: string };
}

export function carrierStep<K extends PhoneCheckKind>(spec: CarrierStepSpec<K>): StepModule<Record<string, never>> {
  return defineStep<Record<string, never>>({
    code: spec.code,
    summary: spec.summary,
    body: emptyBody(spec.bodyName),
    headless: false,
    requirements: () => spec.requirements,
    failures: { ...spec.failures, CARRIER_UNAVAILABLE },
    hostedForm: continueForm(spec.hostedPage.title, spec.hostedPage.what),
    run(context) {
      const check = sessionPhoneCheck(context, spec.kind);
      if (!check.answered) return check.outcome;
      const payload = { [spec.payloadKey]: check.response };
      const failure = spec.failureOf(check.response);
      if (failure === undefined) return { kind: 'passed', payload, explanations: check.explanations };
      return { kind: 'failed', failure: { ...failure, slot: 'STEP' }, payload, explanations: check.explanations };
    },
  });
}
