/**
 * CARRIER_AGE_GATE (`{}`): the session's phone through the screening area's carrier age gate (required
 * age 18). PASS completes the step; FAIL (the subscriber is younger) is a failed attempt
 * CARRIER_AGE_NOT_VERIFIED; NO_DATA (the carrier holds no date of birth, or does not cover the number) is
 * CARRIER_AGE_NO_DATA, since the age was not verified. The result is
 * analysis_data.phone_checks.carrier_age_gate and the response's `carrier_age_gate`.
 *
 * LIMITATIONS:
 * - The required age is the engine's default (18); the step's config does not change it.
 */
import { z } from '@hono/zod-openapi';
import { failuresOfStep } from '../workflow-failures.ts';
import { sessionPhoneCheck } from './session-phone.ts';
import { defineStep } from './step-module.ts';

export const CarrierAgeGateStepBodySchema = z.strictObject({}).openapi('CarrierAgeGateStepBody');

export const CARRIER_AGE_GATE_STEP = defineStep<z.infer<typeof CarrierAgeGateStepBodySchema>>({
  code: 'CARRIER_AGE_GATE',
  summary: "The carrier's date of birth for the session's phone against age 18: PASS completes it",
  body: CarrierAgeGateStepBodySchema,
  headless: false,
  requirements: () => ({ phone: 'the session applicant phone', required_age: 18 }),
  failures: failuresOfStep('CARRIER_AGE_GATE'),
  run(context) {
    const check = sessionPhoneCheck(context, 'carrierAgeGate');
    if (!check.answered) return check.outcome;
    const { response, explanations } = check;
    const payload = { carrier_age_gate: response };
    if (response.outcome === 'PASS') return { kind: 'passed', payload, explanations };
    return {
      kind: 'failed',
      failure: {
        code: response.outcome === 'FAIL' ? 'CARRIER_AGE_NOT_VERIFIED' : 'CARRIER_AGE_NO_DATA',
        slot: 'PRIMARY',
        detail: `${response.outcome} against required age ${response.requiredAge}: ${response.statusMessage}.`,
      },
      payload,
      explanations,
    };
  },
});
