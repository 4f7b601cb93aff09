import { html } from 'hono/html';
import type { ClockState } from '../platform/clock/virtual-clock.ts';
import type { PublicUrls } from '../platform/http/context.ts';
import { CSRF_FIELD } from '../platform/admin/admin-guard.ts';
import type { RequestLogEntry } from '../platform/request-log/request-log.ts';

/** The hidden field that carries the session's CSRF token in every console form. */
const csrfField = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

const STYLE = html`<style>
  body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1d2330; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; border-bottom: 1px solid #dde; }
  table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eef; vertical-align: top; }
  .on { color: #0a7a32; font-weight: 600; } .off { color: #777; }
  form.inline { display: inline; } button { cursor: pointer; }
  code { background: #f3f4f8; padding: 0 .25rem; border-radius: 3px; }
</style>`;

export interface ConsoleModel {
  namespace: string;
  namespaces: string[];
  clock: ClockState;
  scenarios: { name: string; description: string; active: boolean }[];
  organizations: { id: string; name: string; balance: number; keys: { keyId: string; kind: string }[] }[];
  requests: RequestLogEntry[];
  sessions: { id: string; organizationId: string; type: string; status: string; createdAt: string }[];
  urls: PublicUrls;
  /** The session's CSRF token, posted by every form. */
  csrf: string;
}

export function consolePage(model: ConsoleModel) {
  const ns = encodeURIComponent(model.namespace);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>idv-sandbox console</title>${STYLE}</head>
<body>
<h1>idv-sandbox console — namespace <code>${model.namespace}</code></h1>
<p>Namespaces: ${model.namespaces.map((name) => html`<a href="/console?namespace=${encodeURIComponent(name)}">${name}</a> `)}
 · <a href="${model.urls.docs}">API reference</a> · <a href="/__sandbox/catalog">catalog (JSON)</a></p>

<h2>Clock</h2>
<p><strong>${model.clock.now}</strong> (${model.clock.mode})</p>
<form method="post" action="/console/clock?namespace=${ns}">${csrfField(model.csrf)}
  <label>Advance by <input name="advance" placeholder="90s, 15m, 2h, 1d" size="10"></label>
  <select name="freeze"><option value="">keep mode</option><option value="true">freeze</option><option value="false">run in real time</option></select>
  <button>Apply</button>
</form>

<h2>Scenarios</h2>
<table><tr><th>Scenario</th><th>What it does</th><th></th></tr>
${model.scenarios.map(
  (s) => html`<tr><td><code>${s.name}</code> <span class="${s.active ? 'on' : 'off'}">${s.active ? 'active' : 'off'}</span></td><td>${s.description}</td>
  <td><form class="inline" method="post" action="/console/scenarios/${s.name}/${s.active ? 'deactivate' : 'activate'}?namespace=${ns}">${csrfField(model.csrf)}<button>${s.active ? 'Deactivate' : 'Activate'}</button></form></td></tr>`,
)}
</table>

<h2>Sessions (latest 50)</h2>
<table><tr><th>Session</th><th>Organization</th><th>Type</th><th>Status</th><th>Created</th></tr>
${model.sessions.map((s) => html`<tr><td><a href="/console/sessions/${s.id}?namespace=${ns}"><code>${s.id}</code></a></td><td>${s.organizationId}</td><td>${s.type}</td><td>${s.status}</td><td>${s.createdAt}</td></tr>`)}
</table>

<h2>Organizations</h2>
<table><tr><th>Organization</th><th>Balance</th><th>Keys</th></tr>
${model.organizations.map((o) => html`<tr><td>${o.name} <code>${o.id}</code></td><td>${o.balance}</td><td>${o.keys.map((k) => html`<code>${k.keyId}</code> (${k.kind}) `)}</td></tr>`)}
</table>

<h2>Recent requests</h2>
<table><tr><th>When</th><th>Request</th><th>Status</th><th>Key</th><th>ms</th></tr>
${model.requests.map((r) => html`<tr><td>${r.startedAt}</td><td><code>${r.method} ${r.path}</code></td><td>${r.status}</td><td>${r.keyId ?? '—'}</td><td>${r.durationMs}</td></tr>`)}
</table>

<h2>Reset</h2>
<form method="post" action="/console/reset?namespace=${ns}">${csrfField(model.csrf)}<button>Reset namespace ${model.namespace} to the fixtures</button></form>
</body></html>`;
}

export function loginPage(problem: string | undefined) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>idv-sandbox console — sign in</title>${STYLE}</head>
<body><h1>idv-sandbox console</h1>
${problem ? html`<p style="color:#b00020">${problem}</p>` : ''}
<form method="post" action="/console/login"><label>Admin token <input type="password" name="token" autofocus></label> <button>Sign in</button></form>
</body></html>`;
}

export interface RecordPageModel {
  kind: string;
  id: string;
  namespace: string;
  status: string;
  record: unknown;
  /** Outcomes the page offers as buttons (sessions). */
  actions: string[];
  problem?: string | undefined;
  /** The session's CSRF token, posted by every form. */
  csrf: string;
}

export function recordPage(model: RecordPageModel) {
  const ns = encodeURIComponent(model.namespace);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${model.kind} ${model.id} — idv-sandbox console</title>${STYLE}</head>
<body>
<p><a href="/console?namespace=${ns}">← console</a></p>
<h1>${model.kind} <code>${model.id}</code></h1>
<p>Status: <strong>${model.status}</strong> · namespace <code>${model.namespace}</code></p>
${model.problem ? html`<p style="color:#b00020">${model.problem}</p>` : ''}
${model.actions.length > 0
  ? html`<h2>Drive it</h2><p>${model.actions.map(
      (action) => html`<form class="inline" method="post" action="/console/sessions/${encodeURIComponent(model.id)}/outcome?namespace=${ns}">${csrfField(model.csrf)}<input type="hidden" name="outcome" value="${action}"><button>${action}</button></form> `,
    )}</p>`
  : ''}
<h2>Record</h2>
<pre>${JSON.stringify(model.record, null, 2)}</pre>
</body></html>`;
}

export function notFoundPage(kind: string, id: string, namespace: string) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found — idv-sandbox console</title>${STYLE}</head>
<body><h1>No ${kind} <code>${id}</code> in namespace <code>${namespace}</code></h1>
<p>Records live in the namespace that created them: add <code>?namespace=&lt;name&gt;</code> to the address. <a href="/console?namespace=${encodeURIComponent(namespace)}">Back to the console</a>.</p>
</body></html>`;
}
