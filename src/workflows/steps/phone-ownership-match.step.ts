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
import { carrierStep } from './session-phone.ts';

export const PHONE_OWNERSHIP_MATCH_STEP = carrierStep({
  code: 'PHONE_OWNERSHIP_MATCH',
  kind: 'ownership',
  summary: "The applicant's name against the carrier's subscriber of the session's phone (medium strictness): MATCH completes it",
  bodyName: 'PhoneOwnershipMatchStepBody',
  requirements: { phone: 'the session applicant phone', strictness: 'medium' },
  failures: {
    PHONE_OWNERSHIP_MISMATCH: {
      category: 'OTHER',
      user_action: 'NONE',
      reason: 'PHONE_CHECK_FAILED',
      content: "a session phone whose subscriber's name differs from the applicant's: +447700900002 (score 0), +447700900169 (score 69)",
      magicLastName: null,
      message: "The carrier's subscriber is not the applicant.",
    },
    PHONE_OWNERSHIP_NO_DATA: {
      category: 'OTHER',
      user_action: 'NONE',
      reason: 'PHONE_CHECK_FAILED',
      content: 'a session phone the carrier holds no data for: +447700900008, or any number outside UK mobiles (e.g. +12015550123)',
      magicLastName: null,
      message: 'The carrier holds no subscriber data for the phone.',
    },
  },
  payloadKey: 'phone_ownership',
  failureOf: (response) =>
    response.outcome === 'MATCH'
      ? undefined
      : {
          code: response.outcome === 'NO_MATCH' ? 'PHONE_OWNERSHIP_MISMATCH' : 'PHONE_OWNERSHIP_NO_DATA',
          detail: `Name score ${response.nameScore} against threshold ${response.threshold} (${response.strictness}): ${response.statusMessage}.`,
        },
  hostedPage: { title: 'Phone ownership', what: 'Your phone number is matched to your name' },
});
