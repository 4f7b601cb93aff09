/**
 * The shared half of PHONE_TRUST_CHECK, CARRIER_AGE_GATE and PHONE_OWNERSHIP_MATCH: the screening area
 * checks the session's own phone (its magic numbers included) and attaches the result to
 * analysis_data.phone_checks as the endpoint does with a sessionId. The carrier's outage (magic number
 * +447700900009) is a failed attempt CARRIER_UNAVAILABLE that a retry may pass; the step decides what the
 * carrier's answer means.
 */
import { checkSessionPhone, type PhoneCheckResponses } from '../../screening/screening.service.ts';
import type { PhoneCheckKind } from '../../screening/screening.service.ts';
import { workflowError } from '../workflow-errors.ts';
import type { StepContext, StepOutcome } from './step-module.ts';

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
        failure: { code: 'CARRIER_UNAVAILABLE', slot: 'PRIMARY', detail: 'The carrier data provider did not answer; submit the step again.' },
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
