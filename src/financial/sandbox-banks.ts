/**
 * The banks the applicant's hosted bank-statement page offers. They are fictional institutions (so a
 * sandbox statement is never mistaken for a real one); each fixes which accounts the statement holds, so QA
 * picks a bank to get a known account mix. The credit-report generator reuses the names for banking records.
 *
 * LIMITATIONS:
 * - No login, MFA or security-question step is simulated: picking a bank links it.
 * - InstitutionId values are the sandbox's own numbers (900-range), not a real provider's directory ids.
 */

export type SandboxAccountKind = 'chequing' | 'savings' | 'usd-chequing';

export interface SandboxBank {
  /** The `Institution` code as it appears in the statement, and the value the hosted page posts. */
  input: string;
  institutionId: number;
  name: string;
  /** The accounts a statement from this bank holds, in order. */
  accounts: readonly SandboxAccountKind[];
  /** Overdraft limit on the chequing account, in dollars (0: none; the balance never goes below zero). */
  overdraftLimit: number;
  outcome: string;
  description: string;
}

export const SANDBOX_BANKS = [
  {
    input: 'SandboxCapital',
    institutionId: 901,
    name: 'Sandbox Capital',
    accounts: ['chequing', 'savings'],
    overdraftLimit: 0,
    outcome: 'chequing + savings (CAD)',
    description: 'The default bank: payroll into chequing, a monthly transfer to savings.',
  },
  {
    input: 'MapleCrest',
    institutionId: 902,
    name: 'MapleCrest Bank',
    accounts: ['chequing', 'savings'],
    overdraftLimit: 0,
    outcome: 'chequing + savings (CAD)',
    description: 'A second full-service bank, for tests that need two different institutions.',
  },
  {
    input: 'BorealisCU',
    institutionId: 903,
    name: 'Borealis Credit Union',
    accounts: ['chequing'],
    overdraftLimit: 0,
    outcome: 'chequing only (CAD)',
    description: 'A single chequing account: the smallest statement.',
  },
  {
    input: 'TrueNorth',
    institutionId: 904,
    name: 'True North Financial',
    accounts: ['chequing', 'savings', 'usd-chequing'],
    overdraftLimit: 0,
    outcome: 'chequing + savings (CAD) + chequing (USD)',
    description: 'Three accounts, one in USD, for multi-currency handling.',
  },
  {
    input: 'PrairieSky',
    institutionId: 905,
    name: 'Prairie Sky Trust',
    accounts: ['chequing', 'savings'],
    overdraftLimit: 500,
    outcome: 'chequing with a $500 overdraft that can run negative + savings (CAD)',
    description: 'Negative balances within the overdraft limit, for handling of signed balances.',
  },
] as const satisfies readonly SandboxBank[];

export type SandboxBankCode = (typeof SANDBOX_BANKS)[number]['input'];

export function findSandboxBank(code: string): SandboxBank | undefined {
  return SANDBOX_BANKS.find((bank) => bank.input === code);
}
