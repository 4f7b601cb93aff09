/**
 * PHONE_OWNERSHIP_MATCH (`{}`): the session applicant's first and last name against the carrier's
 * subscriber of the session's phone, through the screening area's phone-ownership engine (medium
 * strictness, threshold 70). MATCH completes the step; NO_MATCH is a failed attempt
 * PHONE_OWNERSHIP_MISMATCH; NO_DATA (no subscriber data, or a number the carrier does not cover)
 * PHONE_OWNERSHIP_NO_DATA. The result is analysis_data.phone_checks.ownership and the response's
 * `phone_ownership`.
 *
 * LIMITATIONS:
 * - The strictness is the engine's default (medium); the step's config does not change it.
 */
import { z } from '@hono/zod-openapi';
import { failuresOfStep } from '../workflow-failures.ts';
import { sessionPhoneCheck } from './session-phone.ts';
import { defineStep } from './step-module.ts';

export const PhoneOwnershipMatchStepBodySchema = z.strictObject({}).openapi('PhoneOwnershipMatchStepBody');

export const PHONE_OWNERSHIP_MATCH_STEP = defineStep<z.infer<typeof PhoneOwnershipMatchStepBodySchema>>({
  code: 'PHONE_OWNERSHIP_MATCH',
  summary: "The applicant's name against the carrier's subscriber of the session's phone (medium strictness): MATCH completes it",
  body: PhoneOwnershipMatchStepBodySchema,
  headless: false,
  requirements: () => ({ phone: 'the session applicant phone', strictness: 'medium' }),
  failures: failuresOfStep('PHONE_OWNERSHIP_MATCH'),
  run(context) {
    const check = sessionPhoneCheck(context, 'ownership');
    if (!check.answered) return check.outcome;
    const { response, explanations } = check;
    const payload = { phone_ownership: response };
    if (response.outcome === 'MATCH') return { kind: 'passed', payload, explanations };
    return {
      kind: 'failed',
      failure: {
        code: response.outcome === 'NO_MATCH' ? 'PHONE_OWNERSHIP_MISMATCH' : 'PHONE_OWNERSHIP_NO_DATA',
        slot: 'PRIMARY',
        detail: `Name score ${response.nameScore} against threshold ${response.threshold} (${response.strictness}): ${response.statusMessage}.`,
      },
      payload,
      explanations,
    };
  },
});
