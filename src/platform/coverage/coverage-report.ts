/**
 * The coverage report: classes hit (counts, first and last request ids), classes never hit with how to
 * trigger them, a percentage per operation and overall; rendered as JSON, Markdown (a CI job summary),
 * JUnit XML (one test case per class, the missed ones failing) and HTML.
 */
import type { OutcomeClass, TriggerRequest } from './outcome-class.ts';
import type { RecordIds } from './record-ids.ts';

export interface ClassHits {
  count: number;
  /**
   * Ids in the request journal; null for a request answered before its namespace's last reset, whose id
   * the journal no longer holds (ids restart from the seed at a reset, so it may name another request).
   */
  firstRequestId: string | null;
  lastRequestId: string | null;
  /** Counts per key id (`-` for requests without a known key). */
  byKey: Record<string, number>;
}

export interface HitClass {
  id: string;
  kind: OutcomeClass['kind'];
  area: string;
  operation?: string;
  title: string;
  count: number;
  firstRequestId: string | null;
  lastRequestId: string | null;
  byKey: Record<string, number>;
}

export interface MissedClass {
  id: string;
  kind: OutcomeClass['kind'];
  area: string;
  operation?: string;
  title: string;
  how: string;
  curl?: string;
}

/** An area of the API (`/v1/<area>/…`), or a group of the classes of no single operation. */
export interface AreaCoverage {
  area: string;
  classes: number;
  hit: number;
  percent: number;
}

export interface OperationCoverage {
  operation: string;
  classes: number;
  hit: number;
  percent: number;
}

export interface CoverageReport {
  /** `default`, a namespace, or `*` for every namespace together. */
  namespace: string;
  /** The key id the report is limited to, if any. */
  keyId?: string;
  classes: number;
  hitCount: number;
  percent: number;
  /** Per area, in the order of `areaOrder`: what a reader looks at first. */
  areas: AreaCoverage[];
  operations: OperationCoverage[];
  hit: HitClass[];
  missed: MissedClass[];
}

export const COVERAGE_FORMATS = ['json', 'markdown', 'junit', 'html'] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];

/** The format a file name asks for (`.md` Markdown, `.xml` JUnit, `.html` HTML, anything else JSON). */
export function formatForFile(file: string): CoverageFormat {
  if (/\.(md|markdown)$/i.test(file)) return 'markdown';
  if (/\.xml$/i.test(file)) return 'junit';
  if (/\.html?$/i.test(file)) return 'html';
  return 'json';
}

const percentOf = (hit: number, total: number) => (total === 0 ? 100 : Math.round((hit / total) * 1000) / 10);

/** Classes of no single operation, by kind: the pipeline's (every operation), the session moves, images, error codes. */
const AREA_OF_KIND: Partial<Record<OutcomeClass['kind'], string>> = { transition: 'sessions', image: 'images', 'error-code': 'error codes' };
export const EVERY_OPERATION = 'every operation';

/** The area of a class: its operation's first path segment under /v1 (`screening`), or its kind's group. */
export function areaOf(outcome: Pick<OutcomeClass, 'kind' | 'operation'>): string {
  const segment = outcome.operation === undefined ? undefined : /^\S+ \/v1\/([^/]+)/.exec(outcome.operation)?.[1];
  return segment ?? AREA_OF_KIND[outcome.kind] ?? EVERY_OPERATION;
}

/** API areas by name, then the groups of classes of no single operation. */
const areaOrder = (a: string, b: string) => Number(a === EVERY_OPERATION) - Number(b === EVERY_OPERATION) || a.localeCompare(b);

export interface ReportScope {
  namespace: string;
  keyId?: string;
  baseUrl: string;
  /** The records of the namespace the curls call, which fill the ids of their paths. */
  recordIds: RecordIds;
}

export function buildReport(classes: readonly OutcomeClass[], hits: Map<string, ClassHits>, scope: ReportScope): CoverageReport {
  const hit: HitClass[] = [];
  const missed: MissedClass[] = [];
  const perOperation = new Map<string, { classes: number; hit: number }>();
  const perArea = new Map<string, { classes: number; hit: number }>();
  for (const outcome of classes) {
    const stat = hits.get(outcome.id);
    const area = areaOf(outcome);
    const inArea = perArea.get(area) ?? { classes: 0, hit: 0 };
    inArea.classes += 1;
    if (stat) inArea.hit += 1;
    perArea.set(area, inArea);
    if (outcome.operation !== undefined) {
      const entry = perOperation.get(outcome.operation) ?? { classes: 0, hit: 0 };
      entry.classes += 1;
      if (stat) entry.hit += 1;
      perOperation.set(outcome.operation, entry);
    }
    const common = {
      id: outcome.id,
      kind: outcome.kind,
      area,
      ...(outcome.operation === undefined ? {} : { operation: outcome.operation }),
      title: outcome.title,
    };
    if (stat) hit.push({ ...common, ...stat });
    else missed.push({ ...common, ...triggerOf(outcome.trigger, scope) });
  }
  return {
    namespace: scope.namespace,
    ...(scope.keyId === undefined ? {} : { keyId: scope.keyId }),
    classes: classes.length,
    hitCount: hit.length,
    percent: percentOf(hit.length, classes.length),
    areas: [...perArea]
      .sort(([a], [b]) => areaOrder(a, b))
      .map(([area, { classes, hit: hitCount }]) => ({ area, classes, hit: hitCount, percent: percentOf(hitCount, classes) })),
    operations: [...perOperation].map(([operation, { classes, hit: hitCount }]) => ({
      operation,
      classes,
      hit: hitCount,
      percent: percentOf(hitCount, classes),
    })),
    hit,
    missed,
  };
}

/** How to trigger a class: its sentence, and a curl when its request names no record the namespace lacks. */
function triggerOf(trigger: OutcomeClass['trigger'], scope: ReportScope): { how: string; curl?: string } {
  const { request } = trigger;
  if (request === undefined) return { how: trigger.how };
  const filled = scope.recordIds.fill(request.path);
  if ('missing' in filled) return { how: `${trigger.how}; its path names a record this namespace has not made yet: ${filled.missing}` };
  return { how: trigger.how, curl: curlFor({ ...request, path: filled.path }, scope.baseUrl, scope.namespace) };
}

/** A request of the journal, or what became of one answered before a reset (the journal holds it no more). */
const requestLabel = (id: string | null) => id ?? 'before a reset';

/** The classes of one operation of an area (or of no single operation: `operation` undefined). */
export interface OperationGroup {
  operation?: string;
  hit: HitClass[];
  missed: MissedClass[];
}

/** The report's classes by area (in `report.areas` order), then by operation: how the readable formats lay them out. */
export function classesByArea(report: CoverageReport): { area: AreaCoverage; operations: OperationGroup[] }[] {
  const groups = new Map(report.areas.map((area) => [area.area, new Map<string | undefined, OperationGroup>()]));
  const groupOf = ({ area, operation }: { area: string; operation?: string }) => {
    const operations = groups.get(area) as Map<string | undefined, OperationGroup>;
    let group = operations.get(operation);
    if (!group) operations.set(operation, (group = { ...(operation === undefined ? {} : { operation }), hit: [], missed: [] }));
    return group;
  };
  for (const h of report.hit) groupOf(h).hit.push(h);
  for (const m of report.missed) groupOf(m).missed.push(m);
  return report.areas.map((area) => ({ area, operations: [...(groups.get(area.area)?.values() ?? [])] }));
}

/** `hit of classes hit`, the line every summary row and group says. */
const hitOf = ({ hit, classes }: { hit: number; classes: number }) => `${hit} of ${classes} hit`;

/** Counts of a group of classes, for its heading. */
const countsOf = (group: OperationGroup) => ({ hit: group.hit.length, classes: group.hit.length + group.missed.length });

/** POSIX shell single quotes. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The request as a curl command against the sandbox, in the report's namespace. */
export function curlFor(request: TriggerRequest, baseUrl: string, namespace: string): string {
  const parts = ['curl', '-sS'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(quote(`${baseUrl.replace(/\/+$/, '')}${request.path}`));
  if (request.key !== null) parts.push('-H', quote(`x-api-key: ${request.key}`));
  if (namespace !== 'default' && namespace !== '*') parts.push('-H', quote(`X-Sandbox-Namespace: ${namespace}`));
  for (const [name, value] of Object.entries(request.headers ?? {})) parts.push('-H', quote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('-H', quote('content-type: application/json'), '-d', quote(JSON.stringify(request.body)));
  return parts.join(' ');
}

// ─── Markdown ───────────────────────────────────────────────────────────────────────────────────────

/** Longer commands (image bodies) are left to the JSON report: a CI summary has a size limit. */
const MARKDOWN_CURL_LIMIT = 1500;
/** Text in a Markdown table cell (the drift report's tables too). */
export const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A bar of 20 cells, for a plain-text summary. */
export function textBar(percent: number): string {
  const full = Math.round(percent / 5);
  return `${'█'.repeat(full)}${'░'.repeat(20 - full)}`;
}

export function reportMarkdown(report: CoverageReport): string {
  const markdownCurl = (m: MissedClass) => (m.curl !== undefined && m.curl.length <= MARKDOWN_CURL_LIMIT ? `<br>\`${cell(m.curl)}\`` : '');
  const groupLines = (group: OperationGroup) => [
    '',
    `**${group.operation === undefined ? 'of no single operation' : `\`${group.operation}\``}**: ${hitOf(countsOf(group))}`,
    '',
    '| class | hit | first request, last request, or how to trigger |',
    '| --- | ---: | --- |',
    ...group.hit.map((h) => `| \`${cell(h.id)}\` | ${h.count} | ${requestLabel(h.firstRequestId)}, ${requestLabel(h.lastRequestId)} |`),
    ...group.missed.map((m) => `| \`${cell(m.id)}\` | 0 | ${cell(m.how)}${markdownCurl(m)} |`),
  ];
  const lines = [
    `# Integration coverage (${report.namespace === '*' ? 'all namespaces' : `namespace ${report.namespace}`}${report.keyId ? `, key ${report.keyId}` : ''})`,
    '',
    `**${report.percent}%** of outcome classes hit: ${report.hitCount} of ${report.classes}.`,
    '',
    '| area | hit | classes | % | |',
    '| --- | ---: | ---: | ---: | --- |',
    ...report.areas.map((a) => `| ${a.area} | ${a.hit} | ${a.classes} | ${a.percent} | \`${textBar(a.percent)}\` |`),
    '',
    'Every class, by area and operation (open an area):',
    ...classesByArea(report).flatMap(({ area, operations }) => [
      '',
      `<details><summary><b>${area.area}</b>: ${hitOf(area)}</summary>`,
      ...operations.flatMap(groupLines),
      '',
      '</details>',
    ]),
    '',
  ];
  return lines.join('\n');
}

// ─── JUnit XML ──────────────────────────────────────────────────────────────────────────────────────

/** Text in XML content or an attribute (the drift report's JUnit too). */
export const xml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
    // XML 1.0 has no place for other control characters.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** Where and when a report was rendered: JUnit's schemas require both of each test suite. */
export interface RenderContext {
  /** An ISO timestamp of the namespace's clock. */
  at: string;
  /** The host the sandbox answers on. */
  hostname: string;
}

/** The context of a report rendered by the sandbox at `baseUrl`, now on `clock`. */
export function renderContext(baseUrl: string, clock: { iso(): string }): RenderContext {
  return { at: clock.iso(), hostname: new URL(baseUrl).hostname };
}

/**
 * One testsuite per kind of class, one testcase per class; a missed class fails with how to trigger it.
 * Valid against both schemas CI readers follow: Jenkins' junit-4.xsd and Apache Ant's JUnit.xsd. Ant's is
 * the stricter: no attribute on testsuites, each testsuite with id, package, hostname and a zone-less
 * timestamp, properties first and system-out and system-err last, and nothing but a failure in a testcase,
 * so the hit counts go to the suite's system-out.
 */
export function reportJunit(report: CoverageReport, context: RenderContext): string {
  const suites = new Map<string, { cases: string[]; failures: number; hits: string[] }>();
  const suiteOf = (kind: string) => {
    let suite = suites.get(kind);
    if (!suite) suites.set(kind, (suite = { cases: [], failures: 0, hits: [] }));
    return suite;
  };
  for (const h of report.hit) {
    const suite = suiteOf(h.kind);
    suite.cases.push(`    <testcase classname="${xml(`coverage.${h.kind}`)}" name="${xml(h.id)}" time="0"/>`);
    suite.hits.push(`${h.id}: hit ${h.count} time(s), first ${requestLabel(h.firstRequestId)}, last ${requestLabel(h.lastRequestId)}`);
  }
  for (const m of report.missed) {
    const suite = suiteOf(m.kind);
    suite.failures += 1;
    const text = m.curl === undefined ? m.how : `${m.how}\n${m.curl}`;
    suite.cases.push(
      `    <testcase classname="${xml(`coverage.${m.kind}`)}" name="${xml(m.id)}" time="0">\n      <failure message="${xml(`never hit: ${m.title}`)}" type="NotCovered">${xml(text)}</failure>\n    </testcase>`,
    );
  }
  const properties = [
    `      <property name="namespace" value="${xml(report.namespace)}"/>`,
    ...(report.keyId === undefined ? [] : [`      <property name="key" value="${xml(report.keyId)}"/>`]),
  ];
  // Ant's timestamp is an ISO date-time without fraction or zone: the sandbox clock's, in UTC.
  const timestamp = context.at.slice(0, 19);
  const rendered = [...suites].map(([kind, { cases, failures, hits }], id) => {
    const name = xml(`coverage.${kind}`);
    return [
      `  <testsuite name="${name}" package="${name}" id="${id}" timestamp="${timestamp}" hostname="${xml(context.hostname)}" tests="${cases.length}" failures="${failures}" errors="0" time="0">`,
      '    <properties>',
      ...properties,
      '    </properties>',
      ...cases,
      `    <system-out>${xml(hits.join('\n'))}</system-out>`,
      '    <system-err></system-err>',
      '  </testsuite>',
    ].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...rendered, '</testsuites>', ''].join('\n');
}

// ─── HTML ───────────────────────────────────────────────────────────────────────────────────────────

/** Text in HTML content or an attribute (the drift report's page too). */
export const html = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A bar of the share hit: a meter, which the browser draws and reads out without style or script. */
const meter = (label: string, { hit, classes }: { hit: number; classes: number }) =>
  `<meter min="0" max="${classes}" value="${hit}" aria-label="${html(`${label}: ${hit} of ${classes} hit`)}"></meter>`;

function operationHtml(group: OperationGroup): string {
  const tables = [
    ...(group.hit.length === 0
      ? []
      : [
          '<table class="coverage-hit"><thead><tr><th>class hit</th><th>count</th><th>first request</th><th>last request</th></tr></thead><tbody>',
          ...group.hit.map(
            (h) =>
              `<tr><td><code>${html(h.id)}</code></td><td>${h.count}</td><td>${html(requestLabel(h.firstRequestId))}</td><td>${html(requestLabel(h.lastRequestId))}</td></tr>`,
          ),
          '</tbody></table>',
        ]),
    ...(group.missed.length === 0
      ? []
      : [
          '<table class="coverage-missed"><thead><tr><th>class never hit</th><th>how to trigger</th></tr></thead><tbody>',
          ...group.missed.map(
            (m) =>
              `<tr><td><code>${html(m.id)}</code></td><td>${html(m.how)}${
                m.curl === undefined ? '' : `<br><textarea class="curl" readonly rows="2" aria-label="curl for ${html(m.id)}">${html(m.curl)}</textarea>`
              }</td></tr>`,
          ),
          '</tbody></table>',
        ]),
  ];
  if (group.operation === undefined) return tables.join('\n');
  return [
    `<details class="coverage-operation"><summary><code>${html(group.operation)}</code>: ${hitOf(countsOf(group))}</summary>`,
    ...tables,
    '</details>',
  ].join('\n');
}

/** The report's body, shared by the standalone page and the console: a summary per area with bars, then every class by area and operation, folded. */
export function reportHtmlSection(report: CoverageReport): string {
  return [
    `<p class="coverage-summary"><strong>${report.percent}%</strong> of outcome classes hit: ${report.hitCount} of ${report.classes}.</p>`,
    '<table class="coverage-areas"><thead><tr><th>area</th><th>hit</th><th>classes</th><th>%</th><th>share hit</th></tr></thead><tbody>',
    ...report.areas.map((a) => `<tr><td>${html(a.area)}</td><td>${a.hit}</td><td>${a.classes}</td><td>${a.percent}</td><td>${meter(a.area, a)}</td></tr>`),
    '</tbody></table>',
    '<h2>By area and operation</h2>',
    ...classesByArea(report).map(({ area, operations }) =>
      [
        `<details class="coverage-area"><summary><strong>${html(area.area)}</strong>: ${hitOf(area)}</summary>`,
        ...operations.map(operationHtml),
        '</details>',
      ].join('\n'),
    ),
  ].join('\n');
}

/** A standalone page (no script, no asset from elsewhere) around a report's section; the drift report's too. */
export function htmlPage(title: string, section: string, style = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${html(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
details { margin: 0.25rem 0 0.25rem 1rem; }
summary { cursor: pointer; }
meter { width: 12rem; }
td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
${style}</style>
</head>
<body>
<h1>${html(title)}</h1>
${section}
</body>
</html>
`;
}

export function reportHtml(report: CoverageReport): string {
  const title = `idv-sandbox coverage: ${report.namespace === '*' ? 'all namespaces' : `namespace ${report.namespace}`}`;
  return htmlPage(title, reportHtmlSection(report), 'textarea.curl { width: 60rem; max-width: 100%; font: 12px monospace; }\n');
}

/** How a kind of report is written in each format but JSON (the coverage report's, the drift report's). */
export interface ReportWriters<R> {
  markdown(report: R): string;
  junit(report: R, context: RenderContext): string;
  html(report: R): string;
}

export function renderWith<R>(writers: ReportWriters<R>, report: R, format: CoverageFormat, context: RenderContext): string {
  switch (format) {
    case 'markdown':
      return writers.markdown(report);
    case 'junit':
      return writers.junit(report, context);
    case 'html':
      return writers.html(report);
    default:
      return `${JSON.stringify(report, null, 2)}\n`;
  }
}

export const renderReport = (report: CoverageReport, format: CoverageFormat, context: RenderContext) =>
  renderWith({ markdown: reportMarkdown, junit: reportJunit, html: reportHtml }, report, format, context);
