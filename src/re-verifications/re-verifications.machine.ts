/**
 * The re-verification state machine, as data. A re-verification is a returning user's face-liveness check
 * against a workflow: created PENDING, a liveness attempt is started (a timed script), its frames uploaded,
 * then completed with a decision. A failed attempt goes back to PENDING until the workflow's attempt limit.
 *
 *   PENDING --start--> LIVENESS_STARTED --upload-url--> LIVENESS_STARTED (uploads issued)
 *   LIVENESS_STARTED --start--> LIVENESS_STARTED (a new attempt: new script, previous upload keys dropped)
 *   LIVENESS_STARTED --complete--> COMPLETED (verified) | PENDING (retry, retry_liveness) | FAILED (attempts used up)
 *   COMPLETED | FAILED --complete--> the same (the stored decision replayed)
 *
 * retry_liveness (a capture problem) does not consume the attempt budget; retry and failed do.
 *   any non-final state, once expires_at passes on the virtual clock: EXPIRED
 *
 * Which error `code` (read by callers from the error body) each operation answers in each state:
 * REFUSALS, which refuses exactly the operations the machine has no move for.
 */
import { defineMachine } from '../platform/machines/define-machine.ts';

export const RE_VERIFICATION_STATES = ['PENDING', 'LIVENESS_STARTED', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type ReVerificationState = (typeof RE_VERIFICATION_STATES)[number];

export type LifecycleOperation = 'start' | 'upload-url' | 'complete';

/** The codes an operation is refused with by state (rows of re-verifications.errors.ts). */
export type LifecycleRefusal = 'already_completed' | 'expired' | 'liveness_not_started';

/** Refusals by state and operation (absent: allowed). */
export const REFUSALS: Record<ReVerificationState, Partial<Record<LifecycleOperation, LifecycleRefusal>>> = {
  PENDING: { 'upload-url': 'liveness_not_started', complete: 'liveness_not_started' },
  LIVENESS_STARTED: {},
  // complete on a decided re-verification replays the stored decision (the client may retry after a timeout).
  COMPLETED: { start: 'already_completed', 'upload-url': 'already_completed' },
  FAILED: { start: 'already_completed', 'upload-url': 'already_completed' },
  EXPIRED: { start: 'expired', 'upload-url': 'expired', complete: 'expired' },
};

export const FINAL_STATES: readonly ReVerificationState[] = ['COMPLETED', 'FAILED', 'EXPIRED'];

export const RE_VERIFICATION_MACHINE = defineMachine({
  states: RE_VERIFICATION_STATES,
  initial: 'PENDING',
  final: FINAL_STATES,
  transitions: [
    { event: 'start', from: ['PENDING', 'LIVENESS_STARTED'], to: ['LIVENESS_STARTED'] },
    { event: 'upload-url', from: ['LIVENESS_STARTED'], to: ['LIVENESS_STARTED'] },
    { event: 'complete', from: ['LIVENESS_STARTED'], to: ['COMPLETED', 'PENDING', 'FAILED'] },
    // A decided re-verification replays its stored decision.
    { event: 'complete', from: ['COMPLETED'], to: ['COMPLETED'] },
    { event: 'complete', from: ['FAILED'], to: ['FAILED'] },
  ] satisfies { event: LifecycleOperation; from: readonly ReVerificationState[]; to: readonly [ReVerificationState, ...ReVerificationState[]] }[],
  timed: [{ from: ['PENDING', 'LIVENESS_STARTED'], to: 'EXPIRED' }],
});

/** A re-verification is open this long after creation (virtual clock). */
export const RE_VERIFICATION_TTL_MS = 30 * 60_000;

/** The state at `nowMs`: a non-final record past its expiry is EXPIRED (derived on read, never stored). */
export function stateAt(stored: { state: ReVerificationState; expiresAtMs: number }, nowMs: number): ReVerificationState {
  const expiry = RE_VERIFICATION_MACHINE.timedFrom(stored.state)[0];
  return expiry !== undefined && nowMs >= stored.expiresAtMs ? expiry.to : stored.state;
}
