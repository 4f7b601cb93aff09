/**
 * PHONE_TRUST_CHECK (`{}`): the session's phone through the screening area's phone-trust engine at
 * medium sensitivity. Not tripped (NO_DATA included: a missing signal never trips) completes the step;
 * tripped (a SIM swap within 30 days, or active call forwarding) is a failed attempt PHONE_TRUST_TRIPPED.
 * The result is analysis_data.phone_checks.trust and the response's `phone_trust`.
 *
 * LIMITATIONS:
 * - The sensitivity is the engine's default (medium); the step's config does not change it.
 */
import { z } from '@hono/zod-openapi';
import { failuresOfStep } from '../workflow-failures.ts';
import { sessionPhoneCheck } from './session-phone.ts';
import { defineStep } from './step-module.ts';

export const PhoneTrustCheckStepBodySchema = z.strictObject({}).openapi('PhoneTrustCheckStepBody');

export const PHONE_TRUST_CHECK_STEP = defineStep<z.infer<typeof PhoneTrustCheckStepBodySchema>>({
  code: 'PHONE_TRUST_CHECK',
  summary: "SIM swap and call forwarding on the session's phone (medium sensitivity): tripped fails the attempt",
  body: PhoneTrustCheckStepBodySchema,
  headless: false,
  requirements: () => ({ phone: 'the session applicant phone', sensitivity: 'medium' }),
  failures: failuresOfStep('PHONE_TRUST_CHECK'),
  run(context) {
    const check = sessionPhoneCheck(context, 'trust');
    if (!check.answered) return check.outcome;
    const { response, explanations } = check;
    const payload = { phone_trust: response };
    if (response.tripped) {
      return {
        kind: 'failed',
        failure: { code: 'PHONE_TRUST_TRIPPED', slot: 'PRIMARY', detail: `Tripped at ${response.sensitivity}: ${response.tripReasons.join(', ')}.` },
        payload,
        explanations,
      };
    }
    return { kind: 'passed', payload, explanations };
  },
});
