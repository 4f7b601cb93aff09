/**
 * One error-code → status map: an area declares its codes with `defineErrorCodes` (the status each is
 * answered with, and the sentence it says, written from the facts of the call, so a message states the
 * limits the sandbox runs with rather than the spec's defaults), and raises them with `codedError`.
 * The platform's own codes are below; the areas' tables extend the same shape.
 */
import { ApiError, type ErrorExtras, type ErrorStatus } from './api-error.ts';

export interface ErrorCode<Facts> {
  status: ErrorStatus;
  /** The sentence of the answer: what happened and what the caller can do, from the call's facts. */
  message: (facts: Facts) => string;
  /**
   * The body names the code (the row's key) for clients that read it: `member` adds it as `code`;
   * `error` answers it as `error` and `code`, the sentence as `message` (clients that read the code from `error`).
   */
  bodyCode?: 'member' | 'error';
  /** A `detail` member beside a terse `error` (the spec's wording), saying what the caller can do. */
  detail?: (facts: Facts) => string;
}

// biome-ignore lint/suspicious/noExplicitAny: each row takes its own facts; the table only fixes the shape.
export type ErrorCodeTable = Record<string, ErrorCode<any>>;

export function defineErrorCodes<T extends ErrorCodeTable>(table: T): T {
  return table;
}

type FactsOf<Row> = Row extends ErrorCode<infer Facts> ? Facts : never;

/** The ApiError of `code`: its status from the table, its sentence from the facts. */
export function codedError<T extends ErrorCodeTable, C extends keyof T & string>(
  table: T,
  code: C,
  facts: FactsOf<T[C]>,
  extras: ErrorExtras = {},
  headers: Record<string, string> = {},
): ApiError {
  const row = table[code] as ErrorCode<FactsOf<T[C]>>;
  const message = row.message(facts);
  if (row.bodyCode === 'error') return new ApiError(row.status, code, { message, code, ...extras }, headers);
  const named = row.bodyCode === 'member' ? { code, ...extras } : extras;
  return new ApiError(row.status, message, row.detail === undefined ? named : { ...named, detail: row.detail(facts) }, headers);
}

/** A count as the messages write it (10,000). */
const count = (value: number) => value.toLocaleString('en-US');

export interface RateFacts {
  perSecond: number;
  burst: number;
  dailyQuota: number;
  retryAfterSeconds: number;
}

/** The platform's codes (authentication, limits). */
export const PLATFORM_ERROR_CODES = defineErrorCodes({
  RATE_LIMITED: {
    status: 429,
    message: (facts: RateFacts) =>
      `Rate limit exceeded: ${count(facts.perSecond)} ${facts.perSecond === 1 ? 'request' : 'requests'} per second per key (burst ${count(facts.burst)}). Retry after ${facts.retryAfterSeconds} s.`,
  },
  DAILY_QUOTA_EXCEEDED: {
    status: 429,
    message: (facts: RateFacts) =>
      `Daily request quota exceeded (${count(facts.dailyQuota)} per key, reset at 00:00 UTC). Retry after ${facts.retryAfterSeconds} s.`,
  },
  SANDBOX_KEY_READ_ONLY: {
    status: 403,
    message: () => 'Sandbox API keys are read-only: a live API key is needed to create or modify resources.',
  },
});
