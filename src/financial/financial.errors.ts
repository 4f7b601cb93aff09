/** The financial area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface BankStatementFacts {
  id: string;
}

export const FINANCIAL_ERROR_CODES = defineErrorCodes({
  BANK_STATEMENT_NOT_FOUND: {
    status: 404,
    message: ({ id }: BankStatementFacts) => `Bank statement ${id} was not found in this namespace: use the bankStatementId returned by POST /v1/financial.`,
  },
  BANK_STATEMENT_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ id }: BankStatementFacts) => `Bank statement ${id} belongs to another organization: use an API key of the organization that created it.`,
  },
});
