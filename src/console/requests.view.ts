/**
 * The request journal: a filtered table that refreshes itself (a small inline script polls the rows every
 * two seconds; without JavaScript the page still works, it just does not move), and one request's detail
 * with its bodies, the explain text and the scenario rules that fired.
 */
import { html, raw } from 'hono/html';
import type { RequestLogEntry } from '../platform/request-log/request-log.ts';
import { badge, consoleHref, jsonBlock, type Markup } from './console.layout.ts';

export interface RequestFilter {
  method?: string | undefined;
  path?: string | undefined;
  status?: string | undefined;
  key?: string | undefined;
  scenario?: string | undefined;
}

const statusClass = (status: number) => (status >= 500 ? 'FAILED' : status >= 400 ? 'PENDING' : 'VERIFIED');

export function requestRows(namespace: string, entries: RequestLogEntry[]): Markup {
  return html`${entries.map(
    (entry) =>
      html`<tr><td><code>${entry.startedAt}</code></td><td><a href="${consoleHref(`/console/requests/${encodeURIComponent(entry.requestId)}`, namespace)}"><code>${entry.method} ${entry.path}</code></a></td><td><span class="badge ${statusClass(entry.status)}">${entry.status}</span></td><td>${entry.keyId ?? '—'}</td><td>${entry.firedRules.map((rule) => html`<code>${rule.scenario}</code> `)}</td><td>${entry.durationMs}</td></tr>`,
  )}`;
}

export function requestsTable(namespace: string, entries: RequestLogEntry[], bodyId?: string): Markup {
  if (entries.length === 0 && bodyId === undefined) return html`<p class="muted">No requests yet.</p>`;
  return html`<table><thead><tr><th>When</th><th>Request</th><th>Status</th><th>Key</th><th>Scenarios fired</th><th>ms</th></tr></thead>
<tbody${bodyId ? html` id="${bodyId}"` : ''}>${requestRows(namespace, entries)}</tbody></table>`;
}

/** Polls the same address with `rows=1` and swaps the table body: live without a framework. */
const LIVE_SCRIPT = raw(`<script>
(() => {
  const body = document.getElementById('journal-rows');
  const live = document.getElementById('live');
  const rows = new URL(location.href); rows.searchParams.set('rows', '1');
  setInterval(async () => {
    if (!live.checked) return;
    const answer = await fetch(rows, { credentials: 'same-origin' });
    if (answer.ok) body.innerHTML = await answer.text();
  }, 2000);
})();
</script>`);

export function requestsPage(namespace: string, filter: RequestFilter, entries: RequestLogEntry[], scenarios: string[]): Markup {
  return html`<section class="card">
<form class="row" method="get" action="/console/requests"><input type="hidden" name="namespace" value="${namespace}">
  <label>Method<select name="method"><option value="">any</option>${['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => html`<option${m === filter.method ? html` selected` : ''}>${m}</option>`)}</select></label>
  <label>Path (exact, or ending in *)<input name="path" value="${filter.path ?? ''}" placeholder="/v1/sessions*" size="18"></label>
  <label>Status<input name="status" value="${filter.status ?? ''}" placeholder="429" size="5" inputmode="numeric"></label>
  <label>Key (id or key)<input name="key" value="${filter.key ?? ''}" placeholder="key_live_demo" size="14"></label>
  <label>Scenario fired<select name="scenario"><option value="">any</option>${scenarios.map((name) => html`<option${name === filter.scenario ? html` selected` : ''}>${name}</option>`)}</select></label>
  <button type="submit" class="primary">Filter</button> <a href="${consoleHref('/console/requests', namespace)}">Clear</a>
  <label><span><input type="checkbox" id="live" checked> live</span></label>
</form></section>
<section class="card"><p class="muted">Newest first; the journal keeps the latest entries of the namespace.</p>
${requestsTable(namespace, entries, 'journal-rows')}</section>
${LIVE_SCRIPT}`;
}

export function requestDetail(namespace: string, entry: RequestLogEntry): Markup {
  return html`<div class="grid">
<section class="card"><h2><code>${entry.method} ${entry.path}</code> ${badge(String(entry.status))}</h2>
<dl class="facts"><dt>Request id</dt><dd><code>${entry.requestId}</code></dd><dt>Started</dt><dd>${entry.startedAt}</dd><dt>Finished</dt><dd>${entry.finishedAt} (${entry.durationMs} ms)</dd>
<dt>Key</dt><dd>${entry.keyId ?? '—'}</dd><dt>Active scenarios</dt><dd>${entry.scenarios.join(', ') || '—'}</dd></dl></section>
<section class="card"><h2>Explain</h2><p>${entry.explain ?? html`<span class="muted">nothing simulated to explain</span>`}</p>
<h2>Scenario rules that fired</h2>${entry.firedRules.length === 0 ? html`<p class="muted">None.</p>` : html`<ul>${entry.firedRules.map((rule) => html`<li><code>${rule.scenario}</code>${rule.rule === undefined ? '' : ` rule ${rule.rule}`}: ${rule.effect}</li>`)}</ul>`}</section>
</div>
<div class="grid">
<section class="card"><h2>Request</h2><p class="muted">Query</p>${jsonBlock(entry.query)}<p class="muted">Headers (secrets left out)</p>${jsonBlock(entry.headers)}<p class="muted">Body</p>${entry.requestBody === undefined ? html`<p class="muted">none</p>` : jsonBlock(entry.requestBody)}</section>
<section class="card"><h2>Response</h2>${entry.responseBody === undefined ? html`<p class="muted">none</p>` : jsonBlock(entry.responseBody)}</section>
</div>
<p><a href="${consoleHref('/console/requests', namespace)}">← the journal</a></p>`;
}
