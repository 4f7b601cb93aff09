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
import { carrierStep } from './session-phone.ts';

export const CARRIER_AGE_GATE_STEP = carrierStep({
  code: 'CARRIER_AGE_GATE',
  kind: 'carrierAgeGate',
  summary: "The carrier's date of birth for the session's phone against age 18: PASS completes it",
  bodyName: 'CarrierAgeGateStepBody',
  requirements: { phone: 'the session applicant phone', required_age: 18 },
  failures: {
    CARRIER_AGE_NOT_VERIFIED: {
      category: 'OTHER',
      user_action: 'NONE',
      reason: 'PHONE_CHECK_FAILED',
      content: 'a session phone whose subscriber is under 18: +447700900010 (16), +447700900017 (turns 18 tomorrow)',
      magicLastName: null,
      message: "The carrier's subscriber is younger than the required age.",
    },
    CARRIER_AGE_NO_DATA: {
      category: 'OTHER',
      user_action: 'NONE',
      reason: 'PHONE_CHECK_FAILED',
      content: 'a session phone the carrier holds no date of birth for: +447700900008, or any number outside UK mobiles',
      magicLastName: null,
      message: "The carrier holds no date of birth for the phone's subscriber.",
    },
  },
  payloadKey: 'carrier_age_gate',
  failureOf: (response) =>
    response.outcome === 'PASS'
      ? undefined
      : {
          code: response.outcome === 'FAIL' ? 'CARRIER_AGE_NOT_VERIFIED' : 'CARRIER_AGE_NO_DATA',
          detail: `${response.outcome} against required age ${response.requiredAge}: ${response.statusMessage}.`,
        },
  hostedPage: { title: 'Phone carrier age check', what: 'Your phone carrier confirms your age' },
});
