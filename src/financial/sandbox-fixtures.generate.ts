/**
 * Writes fixtures/sandbox/financial/<id>.json from SANDBOX_BANK_STATEMENT_RECIPES. The JSON files are the
 * source the sandbox serves (edit them freely); run this only to regenerate them from the builders:
 *
 *   npx tsx src/financial/sandbox-fixtures.generate.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FINANCIAL_TEST_IDENTIFIERS } from './financial-record.ts';
import { buildSandboxBankStatement, DEFAULT_FINANCIAL_FIXTURES_DIR, SANDBOX_BANK_STATEMENT_RECIPES } from './sandbox-bank-statements.ts';

export function writeFinancialFixtures(dir: URL = DEFAULT_FINANCIAL_FIXTURES_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  return FINANCIAL_TEST_IDENTIFIERS.map(({ input: id }) => {
    const file = new URL(`${id}.json`, dir);
    writeFileSync(file, `${JSON.stringify(buildSandboxBankStatement(id, SANDBOX_BANK_STATEMENT_RECIPES[id]), null, 2)}\n`);
    return fileURLToPath(file);
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of writeFinancialFixtures()) console.log(`wrote ${file}`);
}
