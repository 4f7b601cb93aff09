import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FinancialRecordSchema } from '../../src/financial/financial.schemas.ts';
import { FINANCIAL_TEST_IDENTIFIERS } from '../../src/financial/financial-record.ts';
import { findSandboxBank } from '../../src/financial/sandbox-banks.ts';
import { allKeys, statementArithmeticProblems } from './statement-arithmetic.ts';

const entry = FINANCIAL_TEST_IDENTIFIERS.find((e) => e.input === 'test_completed')!;
const raw = readFileSync(join(import.meta.dirname, '../..', entry.fixture), 'utf8');
const fixture: unknown = JSON.parse(raw);

describe('the test_completed fixture', () => {
  it('is a completed request record that parses with the wire schema', () => {
    const record = FinancialRecordSchema.parse(fixture);
    expect(record).toMatchObject({ id: 'test_completed', status: 'COMPLETED', type: 'request', Config: { period: '3' } });
    expect(record.updatedAt > record.createdAt).toBe(true);
    expect(record.statement).toBeDefined();
  });

  it('adds up to the cent on every transaction and in each account Current balance', () => {
    const record = FinancialRecordSchema.parse(fixture);
    expect(statementArithmeticProblems(record.statement!)).toEqual([]);
    const transactions = record.statement!.Accounts.flatMap((a) => a.Transactions);
    expect(transactions.length).toBeGreaterThan(50);
  });

  it('keeps transactions inside the 3 months before completion', () => {
    const record = FinancialRecordSchema.parse(fixture);
    const completed = record.updatedAt.slice(0, 10);
    const start = new Date(`${completed}T00:00:00Z`);
    start.setUTCMonth(start.getUTCMonth() - 3);
    for (const t of record.statement!.Accounts.flatMap((a) => a.Transactions)) {
      expect(t.Date >= start.toISOString().slice(0, 10)).toBe(true);
      expect(t.Date <= completed).toBe(true);
    }
  });

  it('comes from a listed sandbox bank and has no transit or institution numbers', () => {
    const record = FinancialRecordSchema.parse(fixture);
    const bank = findSandboxBank(record.statement!.Institution);
    expect(bank?.name).toBe(record.statement!.InstitutionName);
    expect(bank?.institutionId).toBe(record.statement!.InstitutionId);
    expect(allKeys(fixture).filter((key) => /transit|institutionnumber|routing/i.test(key))).toEqual([]);
  });

  it('is readable JSON: indented, one key per line', () => {
    expect(raw).toBe(`${JSON.stringify(fixture, null, 2)}\n`);
  });
});
