import { describe, expect, it } from 'vitest';
import { buildStatement, formatPhone } from '../../src/financial/bank-statement.ts';
import { BankStatementSchema, StatementAccountSchema, type FinancialPeriod } from '../../src/financial/financial.schemas.ts';
import { SANDBOX_BANKS, findSandboxBank } from '../../src/financial/sandbox-banks.ts';
import { allKeys, statementArithmeticProblems, toCents } from './statement-arithmetic.ts';

const NOW_MS = Date.parse('2026-04-10T15:20:00.000Z');
const TODAY = '2026-04-10';
const PERIOD_START: Record<FinancialPeriod, string> = { '3': '2026-01-10', '6': '2025-10-10', '9': '2025-07-10' };
const HOLDER = { name: 'Priya Natarajan', email: 'priya@example.com', phone: '+16135550188' };

describe('buildStatement', () => {
  it.each(SANDBOX_BANKS.flatMap((bank) => (['3', '6', '9'] as const).map((period) => [bank.input, period] as const)))(
    '%s over %s months adds up to the cent on every line and in Balance.Current',
    (code, period) => {
      const statement = buildStatement(['bank-statement', `rec-${code}-${period}`], period, NOW_MS, findSandboxBank(code), HOLDER);
      expect(BankStatementSchema.parse(statement)).toEqual(statement);
      expect(statementArithmeticProblems(statement)).toEqual([]);
      for (const account of statement.Accounts) {
        expect(account.Transactions.length).toBeGreaterThan(0);
        expect(account.Balance.Current).toBe(account.Transactions.at(-1)!.Balance);
      }
    },
  );

  it('keeps every transaction date inside the period, oldest first, up to today', () => {
    for (const period of ['3', '6', '9'] as const) {
      const statement = buildStatement(['bank-statement', 'dates'], period, NOW_MS, SANDBOX_BANKS[0], HOLDER);
      for (const account of statement.Accounts) {
        const dates = account.Transactions.map((t) => t.Date);
        expect([...dates].sort()).toEqual(dates);
        expect(dates[0]! >= PERIOD_START[period]).toBe(true);
        expect(dates.at(-1)! <= TODAY).toBe(true);
      }
      // The chequing account is active from the first weeks of the period to its last.
      const chequing = statement.Accounts[0]!.Transactions;
      expect(chequing[0]!.Date <= addDays(PERIOD_START[period], 14)).toBe(true);
      expect(chequing.at(-1)!.Date >= addDays(TODAY, -10)).toBe(true);
      const months = new Set(chequing.map((t) => t.Date.slice(0, 7)));
      expect(months.size).toBe(Number(period) + 1);
    }
  });

  it('holds exactly the accounts of the chosen bank', () => {
    const trueNorth = buildStatement(['s'], '3', NOW_MS, findSandboxBank('TrueNorth'), HOLDER);
    expect(trueNorth).toMatchObject({ HttpStatusCode: 200, InstitutionName: 'True North Financial', InstitutionId: 904, Institution: 'TrueNorth' });
    expect(trueNorth.Accounts.map((a) => [a.Title, a.Type, a.Currency])).toEqual([
      ['Everyday Chequing', 'Chequing', 'CAD'],
      ['High Interest Savings', 'Savings', 'CAD'],
      ['US Dollar Chequing', 'Chequing', 'USD'],
    ]);
    expect(buildStatement(['s'], '3', NOW_MS, findSandboxBank('BorealisCU'), HOLDER).Accounts).toHaveLength(1);
  });

  it('books every transfer to savings on both accounts, same day, same amount', () => {
    const statement = buildStatement(['bank-statement', 'transfers'], '6', NOW_MS, SANDBOX_BANKS[0], HOLDER);
    const [chequing, savings] = statement.Accounts;
    const out = chequing!.Transactions.filter((t) => t.Description === 'TRANSFER TO SAVINGS').map((t) => `${t.Date} ${t.Debit}`);
    const into = savings!.Transactions.filter((t) => t.Description === 'TRANSFER FROM CHEQUING').map((t) => `${t.Date} ${t.Credit}`);
    expect(out.length).toBeGreaterThanOrEqual(5);
    expect(into).toEqual(out);
    expect(savings!.Transactions.filter((t) => t.Description === 'INTEREST').length).toBeGreaterThanOrEqual(5);
  });

  it('lets an overdraft account run negative but never past its limit; others never go negative', () => {
    let dippedBelowZero = false;
    for (let i = 0; i < 20; i++) {
      const prairie = buildStatement(['bank-statement', `od-${i}`], '9', NOW_MS, findSandboxBank('PrairieSky'), HOLDER);
      const chequing = prairie.Accounts[0]!;
      expect(chequing.OverdraftLimit).toBe(500);
      expect(chequing.Balance.Available).toBe((toCents(chequing.Balance.Current) + 50_000) / 100);
      for (const t of chequing.Transactions) {
        expect(t.Balance).toBeGreaterThanOrEqual(-500);
        if (t.Balance < 0) dippedBelowZero = true;
      }
      const plain = buildStatement(['bank-statement', `od-${i}`], '9', NOW_MS, findSandboxBank('MapleCrest'), HOLDER);
      for (const account of plain.Accounts) for (const t of account.Transactions) expect(t.Balance).toBeGreaterThanOrEqual(0);
    }
    expect(dippedBelowZero).toBe(true);
  });

  it('never contains transit or institution numbers', () => {
    const statement = buildStatement(['bank-statement', 'keys'], '9', NOW_MS, findSandboxBank('TrueNorth'), HOLDER);
    const keys = allKeys(statement);
    expect(keys.filter((key) => /transit|institutionnumber|routing/i.test(key))).toEqual([]);
    expect(JSON.stringify(statement)).not.toMatch(/"(TransitNumber|InstitutionNumber|Transit|RoutingNumber)":/);
    for (const account of statement.Accounts) {
      expect(Object.keys(account)).toEqual([
        'Id',
        'Title',
        'AccountNumber',
        'LastFourDigits',
        'Category',
        'Type',
        'AccountType',
        'Currency',
        'Balance',
        'Holder',
        'Transactions',
        'Statements',
        'OverdraftLimit',
      ]);
    }
  });

  it('refuses an account that carries a transit or institution number', () => {
    const account = buildStatement(['s'], '3', NOW_MS, SANDBOX_BANKS[0], HOLDER).Accounts[0]!;
    expect(StatementAccountSchema.safeParse({ ...account, TransitNumber: '12345' }).success).toBe(false);
    expect(StatementAccountSchema.safeParse({ ...account, InstitutionNumber: '003' }).success).toBe(false);
  });

  it('writes amounts with at most two decimals (no float drift)', () => {
    const json = JSON.stringify(buildStatement(['bank-statement', 'drift'], '9', NOW_MS, findSandboxBank('TrueNorth'), HOLDER));
    expect(json).not.toMatch(/\d\.\d{3,}/);
  });

  it('names the holder as the bank prints it, living where the phone area code is', () => {
    const holder = buildStatement(['s'], '3', NOW_MS, SANDBOX_BANKS[0], HOLDER).Accounts[0]!.Holder;
    expect(holder).toMatchObject({ Name: 'PRIYA NATARAJAN', Email: 'priya@example.com', PhoneNumber: '(613) 555-0188' });
    expect(holder.Address).toMatchObject({ City: 'Ottawa', Province: 'ON', POBox: null, Country: 'CA' });
    expect(holder.Address.PostalCode).toMatch(/^K\d[A-Z] \d[A-Z]\d$/);
  });

  it('formats North American numbers and leaves others as given', () => {
    expect(formatPhone('+14165550123')).toBe('(416) 555-0123');
    expect(formatPhone('+447700900123')).toBe('+447700900123');
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = JSON.stringify(buildStatement(['bank-statement', 'x'], '6', NOW_MS, SANDBOX_BANKS[1], HOLDER));
    expect(JSON.stringify(buildStatement(['bank-statement', 'x'], '6', NOW_MS, SANDBOX_BANKS[1], HOLDER))).toBe(a);
    expect(JSON.stringify(buildStatement(['bank-statement', 'y'], '6', NOW_MS, SANDBOX_BANKS[1], HOLDER))).not.toBe(a);
  });

  it('chooses a sandbox bank from the seed and synthesizes a holder when none is given', () => {
    const statement = buildStatement(['bank-statement', 'anonymous'], '3', NOW_MS);
    expect(SANDBOX_BANKS.map((b) => b.input)).toContain(statement.Institution);
    expect(statement.Accounts[0]!.Holder.Name).toMatch(/^[A-Z' .-]+$/);
    expect(statementArithmeticProblems(statement)).toEqual([]);
  });
});

function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
