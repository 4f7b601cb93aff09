/**
 * The bank-statement state machine, as data (spec: 'Bank statement status'; transitions "not shown", so
 * these are the sandbox's). A record is PENDING from creation until the applicant acts on the hosted page;
 * from then on it advances on the virtual clock, evaluated when read:
 *
 *   request: PENDING -> IN_PROGRESS (bank picked) -> FLINKS_IN_PROGRESS (linked + 2 s) -> COMPLETED (linked + 5 s)
 *   upload:  PENDING -> IN_PROGRESS (upload started) -> COMPLETED (uploaded + 5 s)
 *
 * LIMITATIONS:
 * - No failure path: the spec lists no failed status, so a linked bank always completes.
 * - An applicant who never acts leaves the record PENDING forever (no expiry is specified).
 */
import { defineMachine, type TimedMove } from '../platform/machines/define-machine.ts';

/** The spec's <BANKDATA>_IN_PROGRESS, named after the bank data provider whose layout the statement uses. */
export const BANK_DATA_PROVIDER_STATUS = 'FLINKS_IN_PROGRESS';

export const FINANCIAL_STATUSES = ['PENDING', 'IN_PROGRESS', BANK_DATA_PROVIDER_STATUS, 'COMPLETED'] as const;
type FinancialStatus = (typeof FINANCIAL_STATUSES)[number];

// A request is linked at a bank on the hosted page, an upload is a statement file: their timelines differ.
export const FINANCIAL_TYPES = ['request', 'upload'] as const;
type FinancialType = (typeof FINANCIAL_TYPES)[number];

/** Delays after the applicant finished linking (`linkedAt`). */
export const BANK_STATEMENT_TIMINGS = {
  providerFetchAfterMs: 2_000,
  completedAfterMs: 5_000,
} as const;

/** Which stored timestamp a transition counts from. */
export type FinancialAnchor = 'startedAt' | 'linkedAt';

/** A timed move: `afterMs` after the record's `anchor` timestamp, for the record types listed. */
export interface FinancialTransition extends TimedMove<FinancialStatus> {
  anchor: FinancialAnchor;
  afterMs: number;
  types: readonly FinancialType[];
  trigger: string;
}

export const BANK_STATEMENT_MACHINE = defineMachine({
  states: FINANCIAL_STATUSES,
  initial: 'PENDING',
  final: ['COMPLETED'],
  // No event moves a bank statement: the applicant's acts are timestamps, and the clock does the rest.
  transitions: [],
  timed: [
    {
      from: ['PENDING'],
      to: 'IN_PROGRESS',
      anchor: 'startedAt',
      afterMs: 0,
      types: ['request', 'upload'],
      trigger: 'the applicant picked a bank (or started an upload) on the hosted page',
    },
    {
      from: ['PENDING'],
      to: 'IN_PROGRESS',
      anchor: 'linkedAt',
      afterMs: 0,
      types: ['request', 'upload'],
      trigger: 'the applicant linked a bank (or uploaded) in one step',
    },
    {
      from: ['IN_PROGRESS'],
      to: BANK_DATA_PROVIDER_STATUS,
      anchor: 'linkedAt',
      afterMs: BANK_STATEMENT_TIMINGS.providerFetchAfterMs,
      types: ['request'],
      trigger: 'the bank data provider is fetching accounts and transactions',
    },
    {
      from: [BANK_DATA_PROVIDER_STATUS],
      to: 'COMPLETED',
      anchor: 'linkedAt',
      afterMs: BANK_STATEMENT_TIMINGS.completedAfterMs,
      types: ['request'],
      trigger: 'the statement is ready',
    },
    {
      from: ['IN_PROGRESS'],
      to: 'COMPLETED',
      anchor: 'linkedAt',
      afterMs: BANK_STATEMENT_TIMINGS.completedAfterMs,
      types: ['upload'],
      trigger: 'the uploaded statements were processed',
    },
  ] satisfies readonly FinancialTransition[],
});

/** The timestamps the machine reads (ISO 8601 strings, as stored). */
export interface FinancialTimelineInput {
  type: FinancialType;
  createdAt: string;
  startedAt?: string;
  linkedAt?: string;
}

export interface FinancialTimelineStep {
  status: FinancialStatus;
  /** Epoch ms at which the record entered this status. */
  at: number;
  trigger: string;
}

/** Every status the record will pass through given its timestamps, with when (regardless of now). */
export function financialTimeline(record: FinancialTimelineInput): FinancialTimelineStep[] {
  const anchors: Record<FinancialAnchor, number | undefined> = {
    startedAt: record.startedAt === undefined ? undefined : Date.parse(record.startedAt),
    linkedAt: record.linkedAt === undefined ? undefined : Date.parse(record.linkedAt),
  };
  const steps: FinancialTimelineStep[] = [{ status: BANK_STATEMENT_MACHINE.initial, at: Date.parse(record.createdAt), trigger: 'request created' }];
  for (;;) {
    const current = steps[steps.length - 1] as FinancialTimelineStep;
    let next: FinancialTimelineStep | undefined;
    for (const transition of BANK_STATEMENT_MACHINE.timedFrom(current.status)) {
      const anchor = anchors[transition.anchor];
      if (anchor === undefined) continue;
      if (!(transition.types as readonly FinancialType[]).includes(record.type)) continue;
      // A status is never entered before the previous one: timestamps out of order collapse onto it.
      const at = Math.max(anchor + transition.afterMs, current.at);
      if (next === undefined || at < next.at) next = { status: transition.to, at, trigger: transition.trigger };
    }
    if (next === undefined) return steps;
    steps.push(next);
  }
}

export interface FinancialStatusAt {
  status: FinancialStatus;
  /** When the current status was entered: the record's updatedAt. */
  since: number;
  explanation: string;
}

/** The record's status at `nowMs` on the virtual clock. */
export function statusAt(record: FinancialTimelineInput, nowMs: number): FinancialStatusAt {
  const steps = financialTimeline(record);
  let current = steps[0] as FinancialTimelineStep;
  for (const step of steps) if (step.at <= nowMs) current = step;
  const upcoming = steps.find((step) => step.at > nowMs);
  const explanation =
    `bank statement ${current.status} since ${new Date(current.at).toISOString()}: ${current.trigger}` +
    (upcoming ? `; ${upcoming.status} at ${new Date(upcoming.at).toISOString()}` : current.status === 'PENDING' ? '; waiting for the applicant' : '');
  return { status: current.status, since: current.at, explanation };
}

/** When the record completes (or undefined while the applicant has not linked/uploaded). */
export function completedAt(record: FinancialTimelineInput): number | undefined {
  return financialTimeline(record).find((step) => step.status === 'COMPLETED')?.at;
}
