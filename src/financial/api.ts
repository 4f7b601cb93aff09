/**
 * What other areas use of bank statements: a session's bank-statement request and its page, the workflow
 * steps' link and progress, the console's records, the fictional Canada credit reports share, and the port it declares for the applicant's user ids.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export type { ApplicantIds } from './applicant-port.ts';
export { analyzeBankStatement } from './bank-statement-analysis.ts';
export {
  CITIES,
  type City,
  civicAddress,
  daysAfter,
  daysBefore,
  EMPLOYERS,
  fictionalPhone,
  isoDate,
  monthsAfter,
  monthsBefore,
  monthsBetween,
  postalCode,
  PROVINCES,
  type Province,
  TELCOS,
} from './fictional-canada.ts';
export { financialTimeline } from './financial.machine.ts';
export { CreateFinancialBodySchema } from './financial.schemas.ts';
export {
  allBankStatements,
  bankStatementJson,
  bankStatementPageUrl,
  bankStatementProgress,
  type BankStatementProgress,
  createBankStatement,
  findBankStatement,
  linkBankStatementForStep,
} from './financial.service.ts';
export { SANDBOX_BANKS, type SandboxBankCode } from './sandbox-banks.ts';
