/**
 * The bench's results as a table: what `npm run bench` prints, and the README's performance table, which a
 * whole run writes between the markers below together with LAST_RUN_FILE (committed; bench-results.json,
 * every run's own, is not), and test/docs/readme-bench-table.test.ts holds the one to the other.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
  peakRssMb: number;
  /** The server's own CPU time (every thread) per answered request: steadier than rates on a shared machine. */
  cpuMsPerRequest: number;
}

export interface Row {
  name: string;
  figures?: Figures;
  /** A single figure (start-up ms, MB, walk seconds) instead of load figures. */
  value?: string;
  baseline?: string;
  ratio?: number;
  target: string;
  met: boolean;
}

/** What a run writes to bench-results.json. */
export interface BenchResults {
  node: string;
  seconds: number;
  connections: number;
  pinning: boolean;
  totalSeconds: number;
  /** How far apart two sandboxes of one build measured in this run (creates), when the run measured it. */
  aaSpread?: number;
  rows: Row[];
}

const percent = (share: number) => `±${(share * 100).toFixed(0)} %`;

/** A row's own figures, as the table and the run's progress lines show them. */
export function sandboxFigures(row: Row): string {
  if (!row.figures) return row.value ?? '';
  const { rps, p50, p99, max, cpuMsPerRequest, failures } = row.figures;
  return `${rps.toLocaleString('en-US')} req/s, p50 ${p50} ms, p99 ${p99} ms, max ${max} ms, CPU ${cpuMsPerRequest} ms/req${failures ? `, ${failures} failures` : ''}${row.value ? `; ${row.value}` : ''}`;
}

export function renderBenchTable(results: BenchResults): string {
  const spread = results.aaSpread === undefined ? undefined : percent(results.aaSpread);
  const lines = [
    `idv-sandbox bench, Node ${results.node}, ${results.seconds} s per case, ${results.connections} connections${results.pinning ? ', server on core 0, load generator on core 1' : ''}, ${results.totalSeconds.toFixed(0)} s in all${spread === undefined ? '' : `; A/A spread of this run (two sandboxes of one build, creates): ${spread}`}`,
    '',
    '| case | sandbox | baseline | ratio | target | result |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of results.rows) {
    const result = row.met ? 'PASS' : `**FAIL**${spread === undefined ? '' : ` (A/A spread of this run ${spread})`}`;
    lines.push(
      `| ${row.name} | ${sandboxFigures(row)} | ${row.baseline ?? ''} | ${row.ratio === undefined ? '' : row.ratio.toFixed(2)} | ${row.target} | ${result} |`,
    );
  }
  return lines.join('\n');
}

/** The figures of the last whole run, which the README's table shows (relative to the package root). */
export const LAST_RUN_FILE = 'bench/last-run.json';

export const README_TABLE_START = '<!-- bench:start (written by a whole `npm run bench` with bench/last-run.json; do not edit by hand) -->';
export const README_TABLE_END = '<!-- bench:end -->';

/**
 * The README's block: the table folded under a one-line summary, so the page a newcomer reads stays short
 * and the figures are one click away.
 */
export function readmeBlock(results: BenchResults): string {
  const failing = results.rows.filter((row) => !row.met).length;
  const summary = `The last whole run: ${results.rows.length} rows, ${results.rows.length - failing} PASS, ${failing} FAIL (Node ${results.node.replace(/^v/, '')})`;
  return `<details>\n<summary>${summary}</summary>\n\n${renderBenchTable(results)}\n\n</details>`;
}

/** `readme` with the text between the bench markers replaced by the block of `results`. */
export function withBenchTable(readme: string, results: BenchResults): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start === -1 || end < start) throw new Error(`README.md has no bench markers (${README_TABLE_START} … ${README_TABLE_END})`);
  return `${readme.slice(0, start + README_TABLE_START.length)}\n${readmeBlock(results)}\n${readme.slice(end)}`;
}

export function writeReadmeTable(readmePath: string, results: BenchResults): void {
  writeFileSync(readmePath, withBenchTable(readFileSync(readmePath, 'utf8'), results));
}
