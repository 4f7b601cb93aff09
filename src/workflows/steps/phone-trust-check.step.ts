/**
 * PHONE_TRUST_CHECK (`{}`): the session's phone through the screening area's phone-trust engine at
 * medium sensitivity. Not tripped (NO_DATA included: a missing signal never trips) completes the step;
 * tripped (a SIM swap within 30 days, or active call forwarding) is a failed attempt PHONE_TRUST_TRIPPED.
 * The result is analysis_data.phone_checks.trust and the response's `phone_trust`.
 *
 * LIMITATIONS:
 * - The sensitivity is the engine's default (medium); the step's config does not change it.
 */
import { carrierStep } from './session-phone.ts';

export const PHONE_TRUST_CHECK_STEP = carrierStep({
  code: 'PHONE_TRUST_CHECK',
  kind: 'trust',
  summary: "SIM swap and call forwarding on the session's phone (medium sensitivity): tripped fails the attempt",
  bodyName: 'PhoneTrustCheckStepBody',
  requirements: { phone: 'the session applicant phone', sensitivity: 'medium' },
  failures: {
    PHONE_TRUST_TRIPPED: {
      category: 'OTHER',
      user_action: 'NONE',
      reason: 'PHONE_CHECK_FAILED',
      content: 'a session phone with a recent SIM swap or call forwarding: +447700900003, +447700900004, +447700900005, +447700900006',
      magicLastName: null,
      message: 'The phone shows a recent SIM swap or active call forwarding.',
    },
  },
  payloadKey: 'phone_trust',
  failureOf: (response) =>
    response.tripped ? { code: 'PHONE_TRUST_TRIPPED', detail: `Tripped at ${response.sensitivity}: ${response.tripReasons.join(', ')}.` } : undefined,
  hostedPage: { title: 'Phone check', what: 'Your phone number is checked' },
});
