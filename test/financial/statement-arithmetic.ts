/**
 * Checks a bank statement the way an integrator's reconciliation would: every amount in whole cents, each
 * Balance = previous Balance + Credit - Debit, dates in order, Balance.Current = last Balance,
 * Available = Current + OverdraftLimit, never below the overdraft. Returns the problems found (none: []).
 */
import type { BankStatement } from '../../src/financial/financial.schemas.ts';

export function toCents(amount: number): number {
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6) throw new Error(`${amount} is not a whole number of cents`);
  return cents;
}

export function statementArithmeticProblems(statement: BankStatement): string[] {
  const problems: string[] = [];
  for (const account of statement.Accounts) {
    const where = (i: number) => `${account.Title} #${i}`;
    const overdraft = toCents(account.OverdraftLimit);
    account.Transactions.forEach((t, i) => {
      const debit = t.Debit === null ? 0 : toCents(t.Debit);
      const credit = t.Credit === null ? 0 : toCents(t.Credit);
      if ((t.Debit === null) === (t.Credit === null)) problems.push(`${where(i)}: exactly one of Debit and Credit must be set`);
      if (debit < 0 || credit < 0 || debit + credit === 0) problems.push(`${where(i)}: amount must be positive`);
      if (toCents(t.Balance) < -overdraft) problems.push(`${where(i)}: balance ${t.Balance} below overdraft -${account.OverdraftLimit}`);
      if (i === 0) return;
      const previous = account.Transactions[i - 1]!;
      if (toCents(previous.Balance) + credit - debit !== toCents(t.Balance)) {
        problems.push(`${where(i)}: ${previous.Balance} + ${t.Credit ?? 0} - ${t.Debit ?? 0} != ${t.Balance}`);
      }
      if (t.Date < previous.Date) problems.push(`${where(i)}: ${t.Date} before ${previous.Date}`);
    });
    const last = account.Transactions.at(-1);
    if (last && toCents(last.Balance) !== toCents(account.Balance.Current)) {
      problems.push(`${account.Title}: Current ${account.Balance.Current} != last Balance ${last.Balance}`);
    }
    if (toCents(account.Balance.Available) !== toCents(account.Balance.Current) + overdraft) {
      problems.push(`${account.Title}: Available ${account.Balance.Available} != Current + OverdraftLimit`);
    }
  }
  return problems;
}

/** Every object key anywhere in a JSON value. */
export function allKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => allKeys(item, out));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      out.push(key);
      allKeys(child, out);
    }
  }
  return out;
}
