/**
 * Reads a bank statement the way an underwriter's first pass does (the AI_BANK_STATEMENT_ANALYSIS workflow
 * step): regular income, spending, the monthly cash flow and how low the balance went, then a risk level
 * with the flags that raised it. Pure and deterministic: the same statement always gives the same reading.
 *
 * Rules, on the accounts in the statement's main currency (the first account's):
 * - income: credits that are pay or business income (codes DEP payroll, WIR incoming wire); e-transfers
 *   from friends and savings interest are not income;
 * - spending: debits, except transfers between the applicant's own accounts (code TFR and their mirror);
 * - per month = total / the statement's period in months; amounts in dollars, rounded to cents;
 * - flags: NO_REGULAR_INCOME (no income at all), NEGATIVE_BALANCE (a balance below zero on any
 *   transaction), NEGATIVE_CASH_FLOW (spending above income), HIGH_SPENDING_RATIO (spending at least
 *   SPENDING_RATIO_LIMIT of income);
 * - risk: HIGH with NO_REGULAR_INCOME or NEGATIVE_BALANCE, MEDIUM with either cash-flow flag, else LOW.
 * The sandbox banks make each reachable: PrairieSky's chequing runs into its overdraft (HIGH); the
 * other banks' statements stay above zero.
 *
 * LIMITATIONS:
 * - No currency conversion: accounts in another currency than the first account's are counted only in
 *   `accounts` and left out of the figures.
 * - Income is recognised by transaction code, not by reading descriptions.
 */
import type { Explained } from '../platform/explained.ts';
import { round } from '../platform/numbers.ts';
import type { BankStatement, FinancialPeriod, StatementTransaction } from './financial.schemas.ts';

export const STATEMENT_RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type StatementRiskLevel = (typeof STATEMENT_RISK_LEVELS)[number];

export const STATEMENT_FLAGS = ['NO_REGULAR_INCOME', 'NEGATIVE_BALANCE', 'NEGATIVE_CASH_FLOW', 'HIGH_SPENDING_RATIO'] as const;
export type StatementFlag = (typeof STATEMENT_FLAGS)[number];

/** Spending at or above this share of income raises HIGH_SPENDING_RATIO. */
export const SPENDING_RATIO_LIMIT = 0.9;

const INCOME_CODES: ReadonlySet<string> = new Set(['DEP', 'WIR']);
const OWN_TRANSFER_CODE = 'TFR';

export interface BankStatementAnalysis {
  institution: string;
  currency: string;
  period_months: number;
  accounts: number;
  monthly_income: number;
  monthly_spending: number;
  net_monthly_cash_flow: number;
  lowest_balance: number;
  /** Distinct descriptions of the income credits (employers, wire payers). */
  income_sources: string[];
  risk_level: StatementRiskLevel;
  flags: StatementFlag[];
}

const isOwnTransfer = (transaction: StatementTransaction) => transaction.Code === OWN_TRANSFER_CODE || transaction.Description.startsWith('TRANSFER FROM ');

export function analyzeBankStatement(statement: BankStatement, period: FinancialPeriod): Explained<BankStatementAnalysis> {
  const currency = statement.Accounts[0]?.Currency ?? 'CAD';
  const counted = statement.Accounts.filter((account) => account.Currency === currency);
  const transactions = counted.flatMap((account) => account.Transactions);
  const income = transactions.filter((t) => t.Credit !== null && t.Code !== null && INCOME_CODES.has(t.Code));
  const incomeCents = income.reduce((sum, t) => sum + Math.round((t.Credit ?? 0) * 100), 0);
  const spendingCents = transactions.filter((t) => t.Debit !== null && !isOwnTransfer(t)).reduce((sum, t) => sum + Math.round((t.Debit ?? 0) * 100), 0);
  const lowest = Math.min(...counted.flatMap((account) => [account.Balance.Current, ...account.Transactions.map((t) => t.Balance)]));
  const months = Number(period);

  const flags: StatementFlag[] = [];
  if (incomeCents === 0) flags.push('NO_REGULAR_INCOME');
  if (lowest < 0) flags.push('NEGATIVE_BALANCE');
  if (spendingCents > incomeCents) flags.push('NEGATIVE_CASH_FLOW');
  if (incomeCents > 0 && spendingCents >= incomeCents * SPENDING_RATIO_LIMIT) flags.push('HIGH_SPENDING_RATIO');
  const risk_level: StatementRiskLevel = flags.some((flag) => flag === 'NO_REGULAR_INCOME' || flag === 'NEGATIVE_BALANCE')
    ? 'HIGH'
    : flags.length > 0
      ? 'MEDIUM'
      : 'LOW';

  const perMonth = (cents: number) => round(cents / 100 / months, 2);
  const analysis: BankStatementAnalysis = {
    institution: statement.InstitutionName,
    currency,
    period_months: months,
    accounts: statement.Accounts.length,
    monthly_income: perMonth(incomeCents),
    monthly_spending: perMonth(spendingCents),
    net_monthly_cash_flow: perMonth(incomeCents - spendingCents),
    lowest_balance: lowest,
    income_sources: [...new Set(income.map((t) => t.Description))],
    risk_level,
    flags,
  };
  const explanation =
    `bank statement analysis (${statement.Institution}, ${months} months, ${currency}): income ${analysis.monthly_income}/month, ` +
    `spending ${analysis.monthly_spending}/month, lowest balance ${lowest} -> risk ${risk_level}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`;
  return { value: analysis, explanations: [explanation] };
}
