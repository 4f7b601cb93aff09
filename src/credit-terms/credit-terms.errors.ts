/** The credit-terms area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface CreditTermsFacts {
  id: string;
}

export const CREDIT_TERMS_ERROR_CODES = defineErrorCodes({
  /** A sandbox key asked for a record: it never reads what live keys created. */
  CREDIT_TERMS_HIDDEN_FROM_SANDBOX_KEYS: {
    status: 404,
    message: ({ id }: CreditTermsFacts) =>
      `Credit terms ${id} were not found: sandbox API keys never read the records live keys created. Read them with a live key of the organization.`,
  },
  CREDIT_TERMS_NOT_FOUND: {
    status: 404,
    message: ({ id }: CreditTermsFacts) =>
      `Credit terms ${id} were not found: use the creditTermsId returned by POST /v1/credit-terms (records live in the namespace that created them).`,
  },
  CREDIT_TERMS_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ id }: CreditTermsFacts) => `Credit terms ${id} belong to another organization: use an API key of the organization that created them.`,
  },
});
