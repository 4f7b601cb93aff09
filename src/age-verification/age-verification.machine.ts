/**
 * The Parent Connect state machine, as data (the statuses are the real client's enum; the moves are the
 * sandbox's). The parent acts on the hosted page ({verify_url}/parent-connect/<id>); tests drive the same
 * events through POST /__sandbox/age-verification/parent-connect/{id}/events.
 *
 *   PENDING --invite--> PARENT_INVITED --verify_parent--> PARENT_VERIFIED --give_consent--> CONSENT_GIVEN
 *   PENDING | PARENT_INVITED | PARENT_VERIFIED --decline--> DECLINED
 *   PARENT_INVITED --(invite_expires_at passes on the virtual clock, or `expire`)--> EXPIRED
 *   CONSENT_GIVEN --update_boundaries--> CONSENT_GIVEN (boundaries_revision + 1)
 */
import { defineMachine } from '../platform/machines/define-machine.ts';

export const PARENT_CONNECT_STATUSES = ['PENDING', 'PARENT_INVITED', 'PARENT_VERIFIED', 'CONSENT_GIVEN', 'EXPIRED', 'DECLINED'] as const;
export type ParentConnectStatus = (typeof PARENT_CONNECT_STATUSES)[number];

export const PARENT_CONNECT_EVENTS = ['invite', 'verify_parent', 'give_consent', 'update_boundaries', 'decline', 'expire'] as const;
export type ParentConnectEvent = (typeof PARENT_CONNECT_EVENTS)[number];

export const PARENT_CONNECT_MACHINE = defineMachine({
  states: PARENT_CONNECT_STATUSES,
  initial: 'PENDING',
  final: ['EXPIRED', 'DECLINED'],
  transitions: [
    { from: ['PENDING'], event: 'invite', to: ['PARENT_INVITED'], label: 'Invite the parent (e-mail)' },
    { from: ['PARENT_INVITED'], event: 'verify_parent', to: ['PARENT_VERIFIED'], label: 'Parent: verify my identity' },
    { from: ['PARENT_VERIFIED'], event: 'give_consent', to: ['CONSENT_GIVEN'], label: 'Parent: give consent with these boundaries' },
    { from: ['CONSENT_GIVEN'], event: 'update_boundaries', to: ['CONSENT_GIVEN'], label: 'Parent: update the boundaries' },
    { from: ['PENDING', 'PARENT_INVITED', 'PARENT_VERIFIED'], event: 'decline', to: ['DECLINED'], label: 'Parent: decline' },
    { from: ['PARENT_INVITED'], event: 'expire', to: ['EXPIRED'], label: 'Let the invitation expire' },
  ] as const satisfies readonly { from: readonly ParentConnectStatus[]; event: ParentConnectEvent; to: readonly [ParentConnectStatus]; label: string }[],
  // The invitation's window: invite_expires_at passing on the virtual clock (statusAt).
  timed: [{ from: ['PARENT_INVITED'], to: 'EXPIRED' }],
});

/** How long an invitation, a consent and the re-consent notice last (virtual clock). */
export const PARENT_CONNECT_TIMINGS = {
  inviteTtlMs: 7 * 24 * 3_600_000,
  consentTtlMs: 365 * 24 * 3_600_000,
  reconsentNoticeMs: 30 * 24 * 3_600_000,
} as const;

/** The status `event` moves a request in `status` to, or undefined when it is not possible there. */
export function transitionFor(status: ParentConnectStatus, event: ParentConnectEvent): ParentConnectStatus | undefined {
  return PARENT_CONNECT_MACHINE.moveFrom(status, event)?.to[0];
}

/** The status at `nowMs`: an invitation past invite_expires_at is EXPIRED (derived on read). */
export function statusAt(stored: { status: ParentConnectStatus; invite_expires_at: string | null }, nowMs: number): ParentConnectStatus {
  const due = stored.invite_expires_at !== null && nowMs >= Date.parse(stored.invite_expires_at);
  return (due && PARENT_CONNECT_MACHINE.timedFrom(stored.status)[0]?.to) || stored.status;
}
