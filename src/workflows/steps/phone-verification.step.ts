/**
 * PHONE_VERIFICATION: `{action: "start"}` sends a 6-digit one-time code by SMS to the session's phone (the
 * message lands in the namespace's outbox, GET /__sandbox/outbox, kind phone_verification_code) and leaves
 * the step IN_PROGRESS; the step passes once the applicant enters the code.
 *
 * Entering the code: `{action: "complete", code: "123456"}`. The real client's body is `{action}` only, so
 * `code` is the sandbox's documented extension: the applicant's hosted page posts it, and a test reads the
 * code from the outbox (or from X-Sandbox-Explain) and sends it. `{action: "complete"}` without a code
 * answers 409 PHONE_CODE_NOT_ENTERED (the code was not entered yet); before any start 409
 * STEP_NOT_STARTED. A wrong code is a failed attempt PHONE_CODE_INCORRECT (the code stays
 * valid); a code entered after CODE_TTL_MS is PHONE_CODE_EXPIRED (start again for a new one). A new start
 * sends a new code and voids the previous one.
 *
 * The code is derived from the seed, the session and the number of codes sent, so runs repeat exactly;
 * it is not a secret in a sandbox. The verified phone is analysis_data.phone_verification.
 */
import { z } from '@hono/zod-openapi';
import { sendMessage } from '../../platform/outbox/outbox.ts';
import { hashParts } from '../../platform/random/random.ts';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { workflowSessions } from '../session-port.ts';
import { stepConflict, workflowError } from '../workflow-errors.ts';
import { startOrComplete } from './step-bodies.ts';
import { defineStep, type StepContext, type StepOutcome, type FailureRow } from './step-module.ts';
import { actionButton, postedAction, submitButton, textField, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

/** How long a code can be entered after it was sent (virtual clock). */
export const CODE_TTL_MS = 10 * 60_000;
const CODE_DIGITS = 6;

export const PhoneVerificationStepBodySchema = startOrComplete(
  {},
  {
    code: z
      .string({ error: mustBe('code', 'the 6-digit code sent by SMS, as a string') })
      .regex(/^\d{6}$/, { error: mustBe('code', 'the 6-digit code sent by SMS, e.g. "042917"') })
      .optional()
      .openapi({ description: 'Sandbox extension: the code the applicant entered (the hosted page sends it). The real client sends only action.' }),
  },
).openapi('PhoneVerificationStepBody');
export type PhoneVerificationStepBody = z.infer<typeof PhoneVerificationStepBodySchema>;

export interface PhoneVerificationState extends Record<string, unknown> {
  /** Absent once the code expired unused. */
  code?: string;
  phone: string;
  sent_at: string;
  expires_at: string;
  /** Codes sent so far (seeds the next one). */
  sends: number;
}

/** The `sends`-th code of a session: fixed by the seed, never Math.random. */
export function verificationCode(seed: number, sessionId: string, sends: number): string {
  const value = hashParts('phone-verification-code', seed, sessionId, sends).readUInt32BE(0) % 10 ** CODE_DIGITS;
  return String(value).padStart(CODE_DIGITS, '0');
}

const masked = (phone: string) => `${phone.slice(0, 4)}${'*'.repeat(Math.max(0, phone.length - 6))}${phone.slice(-2)}`;

function start(context: StepContext): StepOutcome {
  const { world, sessionId } = context;
  const phone = workflowSessions.get().find(world, sessionId)?.user.phone;
  if (phone === undefined) {
    throw workflowError(
      'VALIDATION_ERROR',
      `Session ${sessionId} has no phone to send a code to: create the session with the applicant's phone in E.164 form.`,
    );
  }
  const sends = ((context.state as PhoneVerificationState | undefined)?.sends ?? 0) + 1;
  const code = verificationCode(world.seed, sessionId, sends);
  const nowMs = world.clock.now();
  const expiresAt = world.clock.iso(nowMs + CODE_TTL_MS);
  const message = sendMessage(world, {
    channel: 'sms',
    to: phone,
    text: `Your verification code is ${code}. It expires in ${CODE_TTL_MS / 60_000} minutes. Do not share it.`,
    kind: 'phone_verification_code',
    sessionId,
  });
  const state: PhoneVerificationState = { code, phone, sent_at: world.clock.iso(nowMs), expires_at: expiresAt, sends };
  return {
    kind: 'progress',
    state,
    payload: { phone_verification: { status: 'CODE_SENT', phone: masked(phone), expires_at: expiresAt } },
    explanations: [`code ${code} sent by SMS to ${phone} (outbox message ${message.id}), valid until ${expiresAt}`],
  };
}

function complete(context: StepContext, entered: string | undefined): StepOutcome {
  const { world, sessionId, index } = context;
  const state = context.state as PhoneVerificationState | undefined;
  const where = { current_step: index, step_id: 'PHONE_VERIFICATION' };
  if (state?.code === undefined) {
    throw stepConflict(
      'STEP_NOT_STARTED',
      `No code is waiting on session ${sessionId}: submit {"action": "start"} to send one to the applicant's phone, then complete with it.`,
      where,
    );
  }
  if (entered === undefined) {
    throw stepConflict(
      'PHONE_CODE_NOT_ENTERED',
      `The applicant has not entered the code sent to ${masked(state.phone)} yet: they enter it on the hosted page; in the sandbox send {"action": "complete", "code": "<the code>"} (GET /__sandbox/outbox shows it).`,
      where,
    );
  }
  const payload = (status: string) => ({ phone_verification: { status, phone: masked(state.phone), expires_at: state.expires_at } });
  if (world.clock.now() > Date.parse(state.expires_at)) {
    const { code: _void, ...expired } = state;
    return {
      kind: 'failed',
      failure: {
        code: 'PHONE_CODE_EXPIRED',
        slot: 'STEP',
        detail: `The code sent at ${state.sent_at} expired at ${state.expires_at}; start again for a new one.`,
      },
      state: expired,
      payload: payload('CODE_EXPIRED'),
      explanations: [`code entered after ${state.expires_at}: expired`],
    };
  }
  if (entered !== state.code) {
    return {
      kind: 'failed',
      failure: { code: 'PHONE_CODE_INCORRECT', slot: 'STEP', detail: 'The code entered is not the one sent; the sent code stays valid until it expires.' },
      payload: payload('CODE_INCORRECT'),
      explanations: [`code ${entered} entered, ${state.code} was sent: incorrect`],
    };
  }
  const verified = { phone: state.phone, verified_at: world.clock.iso(), codes_sent: state.sends };
  return {
    kind: 'passed',
    analysis: { phone_verification: verified },
    payload: payload('VERIFIED'),
    explanations: [`code ${entered} matches the code sent to ${state.phone}: verified`],
  };
}

const phoneVerificationForm: StepForm = {
  title: 'Your phone number',
  fields: (view) =>
    view.step.status === 'IN_PROGRESS'
      ? html`<p>We sent a code to ${view.applicant.phone ?? 'your phone'}.</p>${textField('code', 'Code', '', 'text')}
<input type="hidden" name="action" value="complete">${submitButton('Verify the code')}`
      : html`<p>We will send a one-time code to ${view.applicant.phone ?? 'your phone'}.</p>${actionButton('start', 'Send me a code')}`,
  submit: (form, client, view) => {
    const action = postedAction(form, view);
    return client.submit(action === 'complete' ? { action, code: form.code ?? '' } : { action });
  },
};

const PHONE_VERIFICATION_FAILURES = {
  PHONE_CODE_INCORRECT: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'PHONE_CODE_INVALID',
    content: 'complete with a code other than the one sent by SMS (the outbox shows the right one)',
    magicLastName: null,
    message: 'The code entered is not the code sent.',
  },
  PHONE_CODE_EXPIRED: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'PHONE_CODE_INVALID',
    content: 'complete with the code more than 10 minutes (sandbox clock) after it was sent (start again for a new code)',
    magicLastName: null,
    message: 'The code expired before it was entered.',
  },
} satisfies Record<string, FailureRow>;

export const PHONE_VERIFICATION_STEP = defineStep<PhoneVerificationStepBody>({
  code: 'PHONE_VERIFICATION',
  summary: "A one-time code by SMS to the session's phone (outbox): start sends it, complete passes once the applicant entered it",
  body: PhoneVerificationStepBodySchema,
  headless: false,
  requirements: () => ({ actions: ['start', 'complete'], code_digits: CODE_DIGITS, code_ttl_seconds: CODE_TTL_MS / 1000 }),
  failures: PHONE_VERIFICATION_FAILURES,
  conflicts: {
    PHONE_CODE_NOT_ENTERED: 'PHONE_VERIFICATION complete without a code: the applicant has not entered the code yet',
  },
  hostedForm: phoneVerificationForm,
  run: (context, body) => (body.action === 'start' ? start(context) : complete(context, body.code)),
});
