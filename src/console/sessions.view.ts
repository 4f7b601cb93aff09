/**
 * The sessions pages: a filterable, paged table and one session's detail with exactly the outcomes its
 * state machine allows now.
 */
import { html } from 'hono/html';
import { badge, consoleHref, csrfField, jsonBlock, type Markup } from './console.layout.ts';

export interface SessionRow {
  id: string;
  organizationId: string;
  type: string;
  status: string;
  externalId: string | undefined;
  createdAt: string;
  updatedAt: string;
}

export interface SessionFilter {
  organization?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  external_id?: string | undefined;
  created_from?: string | undefined;
  created_to?: string | undefined;
}

export interface SessionsPageModel {
  namespace: string;
  filter: SessionFilter;
  rows: SessionRow[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
  organizations: string[];
  statuses: readonly string[];
  types: readonly string[];
}

const options = (values: readonly string[], chosen: string | undefined) =>
  html`<option value="">any</option>${values.map((value) => html`<option${value === chosen ? html` selected` : ''}>${value}</option>`)}`;

export function sessionsTable(model: { namespace: string; rows: SessionRow[] }): Markup {
  if (model.rows.length === 0) return html`<p class="muted">No sessions match.</p>`;
  return html`<table><thead><tr><th>Session</th><th>Organization</th><th>Type</th><th>Status</th><th>External id</th><th>Created</th><th>Updated</th></tr></thead><tbody>
${model.rows.map(
  (row) =>
    html`<tr><td><a href="${consoleHref(`/console/sessions/${encodeURIComponent(row.id)}`, model.namespace)}"><code>${row.id}</code></a></td><td>${row.organizationId}</td><td>${row.type}</td><td>${badge(row.status)}</td><td>${row.externalId ?? ''}</td><td>${row.createdAt}</td><td>${row.updatedAt}</td></tr>`,
)}
</tbody></table>`;
}

export function sessionsPage(model: SessionsPageModel): Markup {
  const f = model.filter;
  const pageLink = (page: number) => consoleHref('/console/sessions', model.namespace, { ...f, page });
  return html`<section class="card">
<form class="row" method="get" action="/console/sessions"><input type="hidden" name="namespace" value="${model.namespace}">
  <label>Organization<select name="organization">${options(model.organizations, f.organization)}</select></label>
  <label>Status<select name="status">${options(model.statuses, f.status)}</select></label>
  <label>Type<select name="type">${options(model.types, f.type)}</select></label>
  <label>External id<input name="external_id" value="${f.external_id ?? ''}" size="14"></label>
  <label>Created from<input name="created_from" type="date" value="${f.created_from ?? ''}"></label>
  <label>Created to<input name="created_to" type="date" value="${f.created_to ?? ''}"></label>
  <button class="primary" type="submit">Filter</button> <a href="${consoleHref('/console/sessions', model.namespace)}">Clear</a>
</form></section>
<section class="card">
<p class="muted">${model.total} session${model.total === 1 ? '' : 's'}, newest first · page ${model.page} of ${model.pages}</p>
${sessionsTable(model)}
<nav class="pager" aria-label="Pages">${model.page > 1 ? html`<a href="${pageLink(model.page - 1)}" rel="prev">← Newer</a>` : ''}${model.page < model.pages ? html`<a href="${pageLink(model.page + 1)}" rel="next">Older →</a>` : ''}</nav>
</section>`;
}

export interface TimelineEntry {
  at: string;
  what: string;
  /** The journal entry behind it, when there is one. */
  requestId?: string;
}

export interface UploadThumb {
  slot: string;
  fileKey: string;
  contentType: string;
  /** Undefined while the bytes have not arrived. */
  src: string | undefined;
}

export interface SessionDetailModel {
  namespace: string;
  id: string;
  status: string;
  organizationId: string;
  type: string;
  facts: [string, string][];
  hostedPageUrl: string;
  apiUrl: string;
  /** The outcomes the state machine allows now: one button each. */
  legalOutcomes: string[];
  analysis: unknown;
  metaData: unknown;
  record: unknown;
  timeline: TimelineEntry[];
  uploads: UploadThumb[];
  /** The attempt script of a workflow session (null: none); absent for a session without a workflow. */
  attemptScript?: string | null;
  csrf: string;
}

export function sessionDetail(model: SessionDetailModel): Markup {
  const action = consoleHref(`/console/sessions/${encodeURIComponent(model.id)}/outcome`, model.namespace);
  return html`<div class="grid">
<section class="card"><h2>Session ${badge(model.status)}</h2>
<dl class="facts">${model.facts.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
<p><a href="${model.hostedPageUrl}">Open the applicant's hosted page</a> · <a href="${model.apiUrl}">API record (needs the key)</a></p></section>
<section class="card"><h2>Drive it</h2>
${
  model.legalOutcomes.length === 0
    ? html`<p class="muted">${model.status} is terminal: the state machine allows no further move.</p>`
    : html`<p class="muted">The moves the state machine allows from ${model.status}, as the control plane's <code>POST /__sandbox/sessions/{id}/outcome</code> makes them.</p>
<div class="actions">${model.legalOutcomes.map(
        (outcome) =>
          html`<form class="inline" method="post" action="${action}">${csrfField(model.csrf)}<input type="hidden" name="outcome" value="${outcome}"><button type="submit" class="${outcome === 'VERIFIED' ? 'primary' : ''}" data-outcome="${outcome}">${outcome}</button></form>`,
      )}</div>`
}
</section>
</div>
${model.attemptScript === undefined ? '' : attemptScriptCard(model)}
<section class="card"><h2>Timeline</h2>
<ol class="timeline">${model.timeline.map(
    (entry) =>
      html`<li><code>${entry.at}</code> ${entry.what}${entry.requestId ? html` · <a href="${consoleHref(`/console/requests/${encodeURIComponent(entry.requestId)}`, model.namespace)}">request</a>` : ''}</li>`,
  )}</ol></section>
<section class="card"><h2>Uploads</h2>
${
  model.uploads.length === 0
    ? html`<p class="muted">No uploads.</p>`
    : html`<div class="thumbs">${model.uploads.map(
        (upload) =>
          html`<figure>${upload.src ? html`<a href="${upload.src}"><img src="${upload.src}" alt="${upload.slot} upload"></a>` : html`<p class="muted">not uploaded yet</p>`}<figcaption>${upload.slot} · ${upload.contentType}</figcaption></figure>`,
      )}</div>`
}
</section>
<div class="grid">
<section class="card"><h2>Analysis</h2>${model.analysis === undefined ? html`<p class="muted">No analysis yet.</p>` : jsonBlock(model.analysis)}</section>
<section class="card"><h2>meta_data</h2>${model.metaData === undefined ? html`<p class="muted">No meta_data yet.</p>` : jsonBlock(model.metaData)}</section>
</div>
<section class="card"><h2>Record</h2>${jsonBlock(model.record)}</section>`;
}

/** The attempt-script form of a workflow session: the same one-line script as external_id and the control plane take. */
function attemptScriptCard(model: SessionDetailModel): Markup {
  const action = consoleHref(`/console/sessions/${encodeURIComponent(model.id)}/attempt-script`, model.namespace);
  return html`<section class="card"><h2>Attempt script</h2>
<p class="muted">Decides the next submissions of each step whatever the uploads show, as <code>PUT /__sandbox/sessions/{id}/attempt-script</code> does: e.g. <code>ID_VERIFICATION=ID_TEXT_NOT_READABLE@PRIMARY,SELFIE_ID_FACE_MISMATCH,pass</code>, or <code>exhaust</code>. Empty removes it: the content decides again.</p>
<form method="post" action="${action}">${csrfField(model.csrf)}<label for="attempt-script">Script</label> <input id="attempt-script" name="script" size="70" value="${model.attemptScript ?? ''}"> <button type="submit">Set script</button></form>
</section>`;
}
