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

describe('a bench table of a run whose host took CPU time (steal)', () => {
  const row = { name: 'stored read, 0 stored', value: '1 ms', target: '≤ 2 ms' };
  const results: BenchResults = { node: 'v20', seconds: 5, connections: 20, pinning: true, totalSeconds: 60, aaSpread: 0.03, stealShare: 0.214, rows: [] };

  it('says how much in its first line and beside each failed row, with the A/A spread', () => {
    const table = renderBenchTable({ ...results, rows: [{ ...row, met: false }, { ...row, name: 'start-up', met: true }] });
    expect(table.split('\n')[0]).toContain('; CPU time the host took from this machine during the run (steal): 21 %');
    expect(table).toContain('| **FAIL** (A/A spread of this run ±3 %; the host took 21 % of the CPU) |');
    expect(table).toContain('| start-up | 1 ms |');
  });

  it('says nothing of it where the run could not read it', () => {
    const table = renderBenchTable({ ...results, stealShare: undefined, rows: [{ ...row, met: false }] });
    expect(table).not.toContain('steal');
    expect(table).toContain('| **FAIL** (A/A spread of this run ±3 %) |');
  });
});
