/**
 * docs/mobile-flow.md: its curl examples run as written (status of each command, excerpt of each block's
 * last answer), and its two tables are exactly the ones rendered from the code's tables.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { errorCodeTable, failureCodeTable, section } from './mobile-flow-tables.ts';
import { readmeExamples, runCurlExamples } from './readme-curl.ts';

const ROOT = new URL('../../', import.meta.url);
const PAGE = readFileSync(new URL('docs/mobile-flow.md', ROOT), 'utf8');

describe('docs/mobile-flow.md', () => {
  it('holds the error-code table and the failure-code table of the code, unedited', () => {
    expect(section(PAGE, 'error-codes')).toBe(errorCodeTable());
    expect(section(PAGE, 'failure-codes')).toBe(failureCodeTable());
  });

  it('answers every curl example as documented', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const examples = readmeExamples(PAGE);
    expect(examples.length).toBeGreaterThanOrEqual(8);
    expect(await runCurlExamples(examples, sandbox, 'docs/mobile-flow.md', ROOT)).toBe(19);
    await sandbox.close();
  }, 60_000);
});
