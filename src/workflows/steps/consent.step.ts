/**
 * CONSENT and FACE_LIVENESS_CONSENT_SETTINGS: the applicant accepts (legal name typed, optionally a drawn
 * signature uploaded) or declines. Accepting completes the step and records who accepted, when and with
 * which signature file; declining ends the run: the step is FAILED and the session REJECTED with
 * meta_data.declinedData (reason CONSENT_DECLINED / BIOMETRIC_CONSENT_DECLINED), session_failure
 * STEP_BLOCKED, so the applicant's refusal is final as on the real page.
 *
 * FACE_LIVENESS_CONSENT_SETTINGS also takes `{}`: the biometric notice was shown and nothing was asked
 * (the step completes, consent recorded as not asked).
 */
import { z } from '@hono/zod-openapi';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { workflowError } from '../workflow-errors.ts';
import { readTypedFiles, unreadableReason } from './step-files.ts';
import { defineStep, type StepContext, type StepOutcome, type FailureRow } from './step-module.ts';
import { actionButton, fileField, postedFile, text, textField, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

const legalName = z
  .string({ error: mustBe('legal_name', "a string: the applicant's full legal name as typed") })
  .trim()
  .min(1, { error: "legal_name must not be empty: send the applicant's full legal name" })
  .max(200, { error: mustBe('legal_name', 'at most 200 characters long') });

const accepted = z.strictObject({
  accepted: z.literal(true),
  legal_name: legalName,
  signature_upload: z
    .string({ error: mustBe('signature_upload', 'a file key of the signature image (or omit it)') })
    .min(1)
    .optional(),
});
const declined = z.strictObject({ accepted: z.literal(false) });

const consentShape = (name: string) =>
  z
    .discriminatedUnion('accepted', [accepted, declined], {
      error: mustBe('accepted', 'true (with legal_name) or false', 'send {"accepted": true, "legal_name": "..."} or {"accepted": false}'),
    })
    .openapi(name);

export const ConsentStepBodySchema = consentShape('ConsentStepBody');
export type ConsentStepBody = z.infer<typeof ConsentStepBodySchema>;
export const FaceLivenessConsentSettingsStepBodySchema = z.union([ConsentStepBodySchema, z.strictObject({})]).openapi('FaceLivenessConsentSettingsStepBody');
export type FaceLivenessConsentSettingsStepBody = z.infer<typeof FaceLivenessConsentSettingsStepBodySchema>;

const badSignature = (reason: string) =>
  workflowError('INVALID_MEDIA', `Invalid request: signature_upload must be a readable image or PDF of the signature: ${reason}.`);

async function decide(context: StepContext, body: ConsentStepBody | Record<string, never>, step: string, declinedCode: string): Promise<StepOutcome> {
  const member = step === 'CONSENT' ? 'consent' : 'face_liveness_consent';
  if (!('accepted' in body)) {
    return {
      kind: 'passed',
      analysis: { [member]: { asked: false, recorded_at: context.nowIso } },
      explanations: [`${step}: {} - the notice was shown, no consent asked`],
    };
  }
  if (!body.accepted) {
    return {
      kind: 'failed',
      failure: { code: declinedCode, slot: 'STEP', detail: `the applicant answered accepted false on ${context.nowIso}` },
      endsRun: true,
      analysis: { [member]: { accepted: false, declined_at: context.nowIso } },
      explanations: [`${step}: declined`],
    };
  }
  const signature =
    body.signature_upload === undefined ? undefined : (await readTypedFiles({ signature_upload: body.signature_upload }, context.deps.readUpload))[0];
  const unreadable = signature === undefined ? undefined : unreadableReason(signature);
  if (unreadable !== undefined) throw badSignature(unreadable);
  const expected = `${context.applicant.first_name} ${context.applicant.last_name}`;
  const matches = body.legal_name.toLowerCase().replace(/\s+/g, ' ') === expected.toLowerCase();
  return {
    kind: 'passed',
    analysis: {
      [member]: {
        accepted: true,
        legal_name: body.legal_name,
        legal_name_matches_applicant: matches,
        accepted_at: context.nowIso,
        ...(signature === undefined ? {} : { signature_upload: signature.fileKey, signature_content_type: signature.contentType }),
      },
    },
    explanations: [
      `${step}: accepted by "${body.legal_name}" (${matches ? 'matches' : 'differs from'} the applicant ${expected})${signature === undefined ? '' : `, signature ${signature.contentType}`}`,
    ],
  };
}

const consentForm: StepForm = {
  title: 'Your consent',
  fields: (view) => html`<p>Type your legal name to agree that your identity is checked; the signature image is optional.</p>
${textField('legal_name', 'Legal name', `${view.applicant.firstName} ${view.applicant.lastName}`, 'text', false)}
${fileField('signature_upload', 'Signature image', 'upload', true)}
${actionButton('accept', 'I agree')}${actionButton('decline', 'I do not agree', false)}`,
  submit: async (form, client) => {
    if (text(form, 'action') === 'decline') return client.submit({ accepted: false });
    const signature = await postedFile(form, 'signature_upload');
    const body: Record<string, unknown> = { accepted: true, legal_name: form.legal_name ?? '' };
    if (signature !== undefined) body.signature_upload = await client.store('signature_upload', signature);
    return client.submit(body);
  },
};

const CONSENT_FAILURES = {
  CONSENT_DECLINED: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'CONSENT_DECLINED',
    content: '{"accepted": false}: the run ends, the session is REJECTED',
    magicLastName: null,
    message: 'The applicant declined the consent.',
  },
} satisfies Record<string, FailureRow>;

export const CONSENT_STEP = defineStep<ConsentStepBody>({
  code: 'CONSENT',
  summary: 'The applicant accepts (legal name, optional signature file) or declines; declining ends the run, session REJECTED',
  body: ConsentStepBodySchema,
  headless: false,
  requirements: () => ({ legal_name: true, signature_upload: 'optional' }),
  failures: CONSENT_FAILURES,
  hostedForm: consentForm,
  run: (context, body) => decide(context, body, 'CONSENT', 'CONSENT_DECLINED'),
});

const FACE_LIVENESS_CONSENT_SETTINGS_FAILURES = {
  BIOMETRIC_CONSENT_DECLINED: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'CONSENT_DECLINED',
    content: '{"accepted": false}: the run ends, the session is REJECTED',
    magicLastName: null,
    message: 'The applicant declined the biometric (face) consent.',
  },
} satisfies Record<string, FailureRow>;

export const FACE_LIVENESS_CONSENT_SETTINGS_STEP = defineStep<FaceLivenessConsentSettingsStepBody>({
  code: 'FACE_LIVENESS_CONSENT_SETTINGS',
  summary: 'Biometric consent before the face steps: a CONSENT body or {}; declining ends the run, session REJECTED',
  body: FaceLivenessConsentSettingsStepBodySchema,
  headless: false,
  requirements: () => ({ legal_name: 'when accepting', signature_upload: 'optional' }),
  failures: FACE_LIVENESS_CONSENT_SETTINGS_FAILURES,
  hostedForm: { ...consentForm, title: 'Consent to the face check' },
  run: (context, body) => decide(context, body as ConsentStepBody | Record<string, never>, 'FACE_LIVENESS_CONSENT_SETTINGS', 'BIOMETRIC_CONSENT_DECLINED'),
});
