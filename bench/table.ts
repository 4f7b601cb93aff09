/**
 * The bench's results as a table: what `npm run bench` prints, and the README's performance tables, which a
 * whole run (and a whole `--scale` run) writes between its markers together with its file (README_RUNS;
 * committed; bench-results.json, every run's own, is not), and test/docs/readme-bench-table.test.ts holds the
 * one to the other.
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
  /** The share of the machine's CPU time its host took (steal) during the run, where the machine reports it. */
  stealShare?: number;
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
  // A host that took more than a few percent of the CPU made this a slow hour for every absolute figure.
  const steal = results.stealShare === undefined ? undefined : `${(results.stealShare * 100).toFixed(0)} %`;
  const why = [spread === undefined ? undefined : `A/A spread of this run ${spread}`, steal === undefined ? undefined : `the host took ${steal} of the CPU`].filter(Boolean).join('; ');
  const lines = [
    `idv-sandbox bench, Node ${results.node}, ${results.seconds} s per case, ${results.connections} connections${results.pinning ? ', server on core 0, load generator on core 1' : ''}, ${results.totalSeconds.toFixed(0)} s in all${spread === undefined ? '' : `; A/A spread of this run (two sandboxes of one build, creates): ${spread}`}${steal === undefined ? '' : `; CPU time the host took from this machine during the run (steal): ${steal}`}`,
    '',
    '| case | sandbox | baseline | ratio | target | result |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of results.rows) {
    const result = row.met ? 'PASS' : `**FAIL**${why === '' ? '' : ` (${why})`}`;
    lines.push(
      `| ${row.name} | ${sandboxFigures(row)} | ${row.baseline ?? ''} | ${row.ratio === undefined ? '' : row.ratio.toFixed(2)} | ${row.target} | ${result} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The runs the README shows, each with the file of its figures (relative to the package root) and its
 * markers: a whole `npm run bench`, and a whole `npm run bench -- --scale` (a store of a million sessions).
 */
export const README_RUNS = {
  whole: { file: 'bench/last-run.json', marker: 'bench', command: '`npm run bench`', summary: 'The last whole run' },
  scale: { file: 'bench/last-scale-run.json', marker: 'bench-scale', command: '`npm run bench -- --scale`', summary: 'The last whole `--scale` run (1M sessions)' },
} as const;
export type ReadmeRun = keyof typeof README_RUNS;

export function readmeMarkers(run: ReadmeRun): { start: string; end: string } {
  const { marker, command, file } = README_RUNS[run];
  return { start: `<!-- ${marker}:start (written by a whole ${command} with ${file}; do not edit by hand) -->`, end: `<!-- ${marker}:end -->` };
}

/**
 * The README's block: the table folded under a one-line summary, so the page a newcomer reads stays short
 * and the figures are one click away.
 */
export function readmeBlock(results: BenchResults, run: ReadmeRun): string {
  const failing = results.rows.filter((row) => !row.met).length;
  const summary = `${README_RUNS[run].summary}: ${results.rows.length} rows, ${results.rows.length - failing} PASS, ${failing} FAIL (Node ${results.node.replace(/^v/, '')})`;
  return `<details>\n<summary>${summary}</summary>\n\n${renderBenchTable(results)}\n\n</details>`;
}

/** `readme` with the text between the run's markers replaced by the block of `results`. */
export function withBenchTable(readme: string, results: BenchResults, run: ReadmeRun): string {
  const markers = readmeMarkers(run);
  const start = readme.indexOf(markers.start);
  const end = readme.indexOf(markers.end);
  if (start === -1 || end < start) throw new Error(`README.md has no bench markers (${markers.start} … ${markers.end})`);
  return `${readme.slice(0, start + markers.start.length)}\n${readmeBlock(results, run)}\n${readme.slice(end)}`;
}

export function writeReadmeTable(readmePath: string, results: BenchResults, run: ReadmeRun): void {
  writeFileSync(readmePath, withBenchTable(readFileSync(readmePath, 'utf8'), results, run));
}
