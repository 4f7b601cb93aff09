/**
 * The drift report: per operation (method and route template) the exchanges that matched and each
 * difference with its JSON path, the recorded value or type and the sandbox's; the exchanges of
 * operations the sandbox does not serve. Rendered in the coverage report's formats: JSON, Markdown (a CI
 * job summary), JUnit XML (one test case per operation) and HTML. It holds no recorded value that is
 * not an enum token, a status or a type (mask.ts).
 */
import { type CoverageFormat, cell, html, htmlPage, type RenderContext, renderWith, xml } from '../platform/coverage/coverage-report.ts';
import type { DifferenceKind } from './compare.ts';
import { operationName } from './operations.ts';
import type { ReplayResult, UnservedExchange } from './replayer.ts';

export interface ReportedDifference {
  kind: DifferenceKind;
  /** JSON path with array positions as `[*]`: the same drift in every item of a list is one line. */
  path: string;
  recorded: string;
  sandbox: string;
  /** The exchanges (1-based positions in the recording) where it was seen. */
  exchanges: number[];
  /** The API reference's words when it falls on a part the reference does not show: the sandbox guessed there. */
  guess?: string;
}

export interface OperationDrift {
  operation: string;
  exchanges: number;
  matched: number;
  differences: ReportedDifference[];
}

export interface DriftReport {
  exchanges: number;
  replayed: number;
  matched: number;
  /** How many of the reported differences fall on documented guesses. */
  onGuesses: number;
  /** Whether anything differs: a difference, or an operation the sandbox does not serve. */
  drift: boolean;
  operations: OperationDrift[];
  unserved: UnservedExchange[];
}

const anyIndex = (path: string) => path.replace(/\[\d+\]/g, '[*]');

export function buildDriftReport(result: ReplayResult): DriftReport {
  const operations = new Map<string, OperationDrift & { byKey: Map<string, ReportedDifference> }>();
  for (const exchange of result.replayed) {
    const name = operationName(exchange.operation);
    let entry = operations.get(name);
    if (!entry) operations.set(name, (entry = { operation: name, exchanges: 0, matched: 0, differences: [], byKey: new Map() }));
    entry.exchanges += 1;
    if (exchange.differences.length === 0) entry.matched += 1;
    for (const difference of exchange.differences) {
      const path = anyIndex(difference.path);
      const key = JSON.stringify([difference.kind, path, difference.recorded, difference.sandbox]);
      const seen = entry.byKey.get(key);
      if (seen) {
        if (seen.exchanges.at(-1) !== exchange.number) seen.exchanges.push(exchange.number);
      } else {
        const reported = { ...difference, path, exchanges: [exchange.number] };
        entry.byKey.set(key, reported);
        entry.differences.push(reported);
      }
    }
  }
  const list = [...operations.values()].map(({ byKey: _, ...operation }) => operation).sort((a, b) => a.operation.localeCompare(b.operation));
  const matched = list.reduce((sum, o) => sum + o.matched, 0);
  return {
    exchanges: result.replayed.length + result.unserved.length,
    replayed: result.replayed.length,
    matched,
    onGuesses: list.reduce((sum, o) => sum + o.differences.filter((d) => d.guess !== undefined).length, 0),
    drift: matched < result.replayed.length || result.unserved.length > 0,
    operations: list,
    unserved: result.unserved,
  };
}

const summary = (report: DriftReport) =>
  `${report.matched} of ${report.replayed} replayed exchanges match the recording; ${report.unserved.length} of ${report.exchanges} are for operations the sandbox does not serve; ${report.onGuesses} of the differences fall on parts the API reference does not show (documented guesses).`;

/** A difference's guess column: the reference's words, or nothing. */
const guessCell = (d: ReportedDifference) => (d.guess === undefined ? '' : `guess: ${d.guess}`);

const exchangeList = (numbers: readonly number[]) =>
  numbers.length > 10 ? `${numbers.slice(0, 10).join(', ')} and ${numbers.length - 10} more` : numbers.join(', ');

// ─── Markdown ───────────────────────────────────────────────────────────────────────────────────────

export function driftMarkdown(report: DriftReport): string {
  const drifted = report.operations.filter((o) => o.differences.length > 0);
  return [
    `# Drift check: ${report.drift ? 'the sandbox differs from the recording' : 'no drift'}`,
    '',
    summary(report),
    '',
    '## Per operation',
    '',
    '| operation | exchanges | matched | differences |',
    '| --- | ---: | ---: | ---: |',
    ...report.operations.map((o) => `| \`${cell(o.operation)}\` | ${o.exchanges} | ${o.matched} | ${o.differences.length} |`),
    '',
    ...drifted.flatMap((o) => [
      `## \`${o.operation}\``,
      '',
      '| kind | where | recorded | sandbox | exchanges | documented guess |',
      '| --- | --- | --- | --- | --- | --- |',
      ...o.differences.map(
        (d) => `| ${d.kind} | \`${cell(d.path)}\` | ${cell(d.recorded)} | ${cell(d.sandbox)} | ${exchangeList(d.exchanges)} | ${cell(guessCell(d))} |`,
      ),
      '',
    ]),
    ...(report.unserved.length === 0
      ? []
      : [
          '## Not served by the sandbox',
          '',
          '| exchange | request |',
          '| ---: | --- |',
          ...report.unserved.map((u) => `| ${u.number} | \`${cell(`${u.method} ${u.path}`)}\` |`),
          '',
        ]),
  ].join('\n');
}

// ─── JUnit XML ──────────────────────────────────────────────────────────────────────────────────────

const differenceLine = (d: ReportedDifference) =>
  `${d.kind} at ${d.path}: recorded ${d.recorded}, sandbox ${d.sandbox} (exchanges ${exchangeList(d.exchanges)})${d.guess === undefined ? '' : `; documented ${guessCell(d)}`}`;

/** One test case per operation, failing with its differences, and one per request the sandbox does not serve; the same schema rules as the coverage report's. */
export function driftJunit(report: DriftReport, context: RenderContext): string {
  const cases = [
    ...report.operations.map((o) =>
      o.differences.length === 0
        ? `    <testcase classname="drift.operation" name="${xml(o.operation)}" time="0"/>`
        : `    <testcase classname="drift.operation" name="${xml(o.operation)}" time="0">\n      <failure message="${xml(`${o.differences.length} difference(s) from the recording`)}" type="Drift">${xml(o.differences.map(differenceLine).join('\n'))}</failure>\n    </testcase>`,
    ),
    ...report.unserved.map(
      (u) =>
        `    <testcase classname="drift.unserved" name="${xml(`exchange ${u.number}: ${u.method} ${u.path}`)}" time="0">\n      <failure message="not served by the sandbox" type="Unserved">${xml(`${u.method} ${u.path}`)}</failure>\n    </testcase>`,
    ),
  ];
  const failures = report.operations.filter((o) => o.differences.length > 0).length + report.unserved.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    `  <testsuite name="drift" package="drift" id="0" timestamp="${context.at.slice(0, 19)}" hostname="${xml(context.hostname)}" tests="${cases.length}" failures="${failures}" errors="0" time="0">`,
    '    <properties>',
    `      <property name="exchanges" value="${report.exchanges}"/>`,
    '    </properties>',
    ...cases,
    `    <system-out>${xml(summary(report))}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// ─── HTML ───────────────────────────────────────────────────────────────────────────────────────────

/** The report's body, for a standalone page (and the console, when it shows drift). */
export function driftHtmlSection(report: DriftReport): string {
  return [
    `<p class="drift-summary">${html(summary(report))}</p>`,
    '<h2>Per operation</h2>',
    '<table class="drift-operations"><thead><tr><th>operation</th><th>exchanges</th><th>matched</th><th>differences</th></tr></thead><tbody>',
    ...report.operations.map(
      (o) => `<tr><td><code>${html(o.operation)}</code></td><td>${o.exchanges}</td><td>${o.matched}</td><td>${o.differences.length}</td></tr>`,
    ),
    '</tbody></table>',
    '<h2>Differences</h2>',
    '<table class="drift-differences"><thead><tr><th>operation</th><th>kind</th><th>where</th><th>recorded</th><th>sandbox</th><th>exchanges</th><th>documented guess</th></tr></thead><tbody>',
    ...report.operations.flatMap((o) =>
      o.differences.map(
        (d) =>
          `<tr><td><code>${html(o.operation)}</code></td><td>${d.kind}</td><td><code>${html(d.path)}</code></td><td>${html(d.recorded)}</td><td>${html(d.sandbox)}</td><td>${exchangeList(d.exchanges)}</td><td>${html(guessCell(d))}</td></tr>`,
      ),
    ),
    '</tbody></table>',
    '<h2>Not served by the sandbox</h2>',
    '<table class="drift-unserved"><thead><tr><th>exchange</th><th>request</th></tr></thead><tbody>',
    ...report.unserved.map((u) => `<tr><td>${u.number}</td><td><code>${html(`${u.method} ${u.path}`)}</code></td></tr>`),
    '</tbody></table>',
  ].join('\n');
}

export const driftHtml = (report: DriftReport) => htmlPage('idv-sandbox drift check', driftHtmlSection(report));

export const renderDriftReport = (report: DriftReport, format: CoverageFormat, context: RenderContext) =>
  renderWith({ markdown: driftMarkdown, junit: driftJunit, html: driftHtml }, report, format, context);
