/** The console's rows of the error-code map (platform/errors/error-codes.ts): its forms' refusals. */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

/** What the person typed, shown back. */
interface TypedFacts {
  typed: string;
}

export const CONSOLE_ERROR_CODES = defineErrorCodes({
  CONSOLE_DURATION_MALFORMED: {
    status: 400,
    message: ({ typed }: TypedFacts) =>
      `"${typed.slice(0, 40)}" is not a duration: write a number of milliseconds or a number with s, m, h or d (90s, 15m, 2h, 1d).`,
  },
  CONSOLE_INSTANT_MALFORMED: {
    status: 400,
    message: ({ typed }: TypedFacts) => `"${typed.slice(0, 40)}" is not an instant: write an ISO 8601 date and time such as 2026-01-15T09:30:00Z.`,
  },
  CONSOLE_RESET_NOT_CONFIRMED: {
    status: 400,
    message: ({ namespace }: { namespace: string }) => `Nothing was reset: tick the box that confirms erasing namespace "${namespace}" and press Reset again.`,
  },
  CONSOLE_BALANCE_MALFORMED: {
    status: 400,
    message: ({ typed }: TypedFacts) => `Balance "${typed.slice(0, 20)}" is not a whole number of tokens: write 0 or more, digits only.`,
  },
  CONSOLE_OUTCOME_UNKNOWN: {
    status: 400,
    message: (facts: TypedFacts & { outcomes: readonly string[] }) =>
      `Unknown outcome "${facts.typed.slice(0, 40)}": choose one of ${facts.outcomes.join(', ')}.`,
  },
});
