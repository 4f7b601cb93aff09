/**
 * The drift page: the shadow mode's report (the same tables as GET /__sandbox/drift?format=html), or,
 * when the sandbox does not run in shadow mode, how to get one.
 */
import { html, raw } from 'hono/html';
import { type DriftReport, driftHtmlSection } from '../drift/drift-report.ts';
import type { Markup } from './console.layout.ts';

export function driftPage(report: DriftReport | undefined): Markup {
  if (!report)
    return html`<section class="card"><p>No drift report: the sandbox is not running in shadow mode. Start it with <code>--shadow-upstream &lt;URL of the service&gt;</code> (and <code>--record &lt;folder&gt;</code> to keep the exchanges): each /v1 request then goes to the service, is answered here too in namespace <code>shadow</code>, and where the answers differ shows on this page. Or record traffic and run <code>idv-sandbox check-recording</code> (docs/drift.md).</p></section>`;
  const link = (format: string) => `/__sandbox/drift?format=${format}`;
  return html`<section class="card"><p class="muted">Where this sandbox answered the requests forwarded to the upstream otherwise than the upstream did, since it started (shadow mode). Download: <a href="${link('json')}">JSON</a> · <a href="${link('markdown')}">Markdown</a> · <a href="${link('junit')}">JUnit XML</a> · <a href="${link('html')}">HTML</a>.</p>
${raw(driftHtmlSection(report))}</section>`;
}
