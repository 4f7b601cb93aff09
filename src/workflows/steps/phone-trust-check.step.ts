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
  payloadKey: 'phone_trust',
  failureOf: (response) =>
    response.tripped ? { code: 'PHONE_TRUST_TRIPPED', detail: `Tripped at ${response.sensitivity}: ${response.tripReasons.join(', ')}.` } : undefined,
});
