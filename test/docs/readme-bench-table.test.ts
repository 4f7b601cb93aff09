import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type BenchResults, README_RUNS, type ReadmeRun, renderBenchTable, withBenchTable } from '../../bench/table.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe.each(Object.keys(README_RUNS) as ReadmeRun[])('the README performance table of the %s run', (run) => {
  const results = JSON.parse(readFileSync(new URL(`../../${README_RUNS[run].file}`, import.meta.url), 'utf8')) as BenchResults;

  it(`is the table of the committed ${README_RUNS[run].file} (a whole ${README_RUNS[run].command} writes both)`, () => {
    expect(readme).toBe(withBenchTable(readme, results, run));
  });

  it('shows every row of that run with its result', () => {
    const table = renderBenchTable(results);
    for (const row of results.rows) expect(table).toContain(`| ${row.name} |`);
    expect(table.split('\n').filter((line) => line.endsWith('| PASS |') || line.includes('| **FAIL**')).length).toBe(results.rows.length);
  });
});
