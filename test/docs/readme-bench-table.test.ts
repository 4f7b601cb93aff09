import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type BenchResults, LAST_RUN_FILE, renderBenchTable, withBenchTable } from '../../bench/table.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const results = JSON.parse(readFileSync(new URL(`../../${LAST_RUN_FILE}`, import.meta.url), 'utf8')) as BenchResults;

describe('the README performance table', () => {
  it('is the table of the committed bench/last-run.json (a whole npm run bench writes both)', () => {
    expect(readme).toBe(withBenchTable(readme, results));
  });

  it('shows every row of that run with its result', () => {
    const table = renderBenchTable(results);
    for (const row of results.rows) expect(table).toContain(`| ${row.name} |`);
    expect(table.split('\n').filter((line) => line.endsWith('| PASS |') || line.includes('| **FAIL**')).length).toBe(results.rows.length);
  });
});
