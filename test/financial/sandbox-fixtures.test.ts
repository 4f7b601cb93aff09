import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINANCIAL_TEST_IDENTIFIERS } from '../../src/financial/financial-record.ts';
import {
  buildSandboxBankStatement,
  loadFinancialFixtures,
  SANDBOX_BANK_STATEMENT_RECIPES,
  sandboxBankStatementFor,
  syntheticRecipe,
} from '../../src/financial/sandbox-bank-statements.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/sandbox/financial');

describe('the sandbox bank statement fixtures', () => {
  it.each(FINANCIAL_TEST_IDENTIFIERS.map((entry) => entry.input))('%s.json is exactly what its recipe builds', (id) => {
    const file = readFileSync(join(FIXTURES, `${id}.json`), 'utf8');
    expect(file).toBe(`${JSON.stringify(buildSandboxBankStatement(id, SANDBOX_BANK_STATEMENT_RECIPES[id]), null, 2)}\n`);
  });

  it('serves what the file says, not the recipe: an edited file is answered as edited', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-financial-fixtures-'));
    for (const { input } of FINANCIAL_TEST_IDENTIFIERS) copyFileSync(join(FIXTURES, `${input}.json`), join(dir, `${input}.json`));
    const edited = JSON.parse(readFileSync(join(dir, 'test_pending.json'), 'utf8'));
    writeFileSync(join(dir, 'test_pending.json'), JSON.stringify({ ...edited, externalId: 'edited-by-qa' }));
    expect(sandboxBankStatementFor('test_pending', 'org_x', { fixturesDir: dir }).body).toMatchObject({ externalId: 'edited-by-qa', organizationId: 'org_x' });
  });

  it('refuses a fixture that is not a bank statement record, naming the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-financial-fixtures-'));
    for (const { input } of FINANCIAL_TEST_IDENTIFIERS) copyFileSync(join(FIXTURES, `${input}.json`), join(dir, `${input}.json`));
    const broken = JSON.parse(readFileSync(join(dir, 'test_completed.json'), 'utf8'));
    writeFileSync(join(dir, 'test_completed.json'), JSON.stringify({ ...broken, status: 'DONE' }));
    expect(() => loadFinancialFixtures(dir)).toThrow(/test_completed\.json is not a bank statement record: status/);
  });

  it('derives a synthetic record of any other id from the id alone', () => {
    expect(syntheticRecipe('abc-1')).toEqual(syntheticRecipe('abc-1'));
    expect(syntheticRecipe('abc-1')).not.toEqual(syntheticRecipe('abc-2'));
    const { body } = sandboxBankStatementFor('test_some_other_case', 'org_demo');
    expect(body).toMatchObject({ id: 'test_some_other_case', status: 'COMPLETED', type: 'request' });
    expect(Date.parse(body.createdAt)).toBeLessThan(Date.parse(body.updatedAt));
  });
});
