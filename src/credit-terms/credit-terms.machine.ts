/**
 * The credit-terms state machine, as data. The real client only reads the status (the example value is
 * lowercase `pending`); the transitions are the sandbox's, driven by the applicant's hosted page:
 *
 *   pending --open--> in_progress --submit--> completed
 *   pending|in_progress --submit--> completed        (one-step finish)
 *   pending|in_progress --decline--> declined
 *
 * LIMITATIONS:
 * - No expiry and no reviewer decision: completed means the business submitted its application.
 */
import { defineMachine } from '../platform/machines/define-machine.ts';

export const CREDIT_TERMS_STATUSES = ['pending', 'in_progress', 'completed', 'declined'] as const;
export type CreditTermsStatus = (typeof CREDIT_TERMS_STATUSES)[number];

export const CREDIT_TERMS_EVENTS = ['open', 'submit', 'decline'] as const;
export type CreditTermsEvent = (typeof CREDIT_TERMS_EVENTS)[number];

export const CREDIT_TERMS_MACHINE = defineMachine({
  states: CREDIT_TERMS_STATUSES,
  initial: 'pending',
  final: ['completed', 'declined'],
  transitions: [
    { from: ['pending'], event: 'open', to: ['in_progress'], trigger: 'the business started the application on the hosted page' },
    { from: ['pending', 'in_progress'], event: 'submit', to: ['completed'], trigger: 'the business submitted its credit application' },
    { from: ['pending', 'in_progress'], event: 'decline', to: ['declined'], trigger: 'the business declined to apply' },
  ] as const satisfies readonly { from: readonly CreditTermsStatus[]; event: CreditTermsEvent; to: readonly [CreditTermsStatus]; trigger: string }[],
});

/** The next status, or a sentence saying why the event is refused in this status. */
export function transition(status: CreditTermsStatus, event: CreditTermsEvent): { to: CreditTermsStatus; trigger: string } | { refused: string } {
  const found = CREDIT_TERMS_MACHINE.moveFrom(status, event);
  if (found) return { to: found.to[0], trigger: found.trigger };
  return { refused: `the credit terms are ${status}${CREDIT_TERMS_MACHINE.isFinal(status) ? ' (final)' : ''}: "${event}" is not possible now` };
}
