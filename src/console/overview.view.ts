/**
 * The overview: the namespace's clock with its controls, organizations (balances, masked keys, rate-limit
 * and quota use), active scenarios, namespaces, the latest sessions and requests, and Reset.
 */
import { html } from 'hono/html';
import type { ClockState } from '../platform/clock/virtual-clock.ts';
import type { RequestLogEntry } from '../platform/request-log/request-log.ts';
import { badge, consoleHref, csrfField, type Markup } from './console.layout.ts';
import { requestsTable } from './requests.view.ts';
import { sessionsTable, type SessionRow } from './sessions.view.ts';

export interface KeyUsage {
  keyId: string;
  kind: string;
  masked: string;
  /** Absent when rate limiting is off (--no-rate-limit). */
  usage?: { usedToday: number; dailyQuota: number; tokensLeft: number; burst: number; perSecond: number };
}

export interface OverviewModel {
  namespace: string;
  clock: ClockState;
  organizations: { id: string; name: string; balance: number; keys: KeyUsage[] }[];
  activeScenarios: string[];
  namespaces: string[];
  sessions: SessionRow[];
  requests: RequestLogEntry[];
  csrf: string;
}

export function overviewPage(model: OverviewModel): Markup {
  const ns = model.namespace;
  return html`<div class="grid">
<section class="card" id="clock"><h2>Clock ${badge(model.clock.mode)}</h2>
<p><strong data-clock-now>${model.clock.now}</strong></p>
<form class="row" method="post" action="${consoleHref('/console/clock', ns)}">${csrfField(model.csrf)}
  <label>Advance by<input name="advance" placeholder="90s, 15m, 2h, 1d" size="10"></label><button type="submit" class="primary">Advance</button></form>
<form class="row" method="post" action="${consoleHref('/console/clock', ns)}">${csrfField(model.csrf)}
  <label>Set to (ISO 8601)<input name="set" value="${model.clock.now}" size="26"></label><button type="submit">Set</button></form>
<form class="row" method="post" action="${consoleHref('/console/clock', ns)}">${csrfField(model.csrf)}
  <input type="hidden" name="freeze" value="${model.clock.mode === 'frozen' ? 'false' : 'true'}"><button type="submit">${model.clock.mode === 'frozen' ? 'Run in real time' : 'Freeze'}</button></form>
</section>
<section class="card"><h2>Active scenarios</h2>
${model.activeScenarios.length === 0 ? html`<p class="muted">None: the sandbox answers as the real service would.</p>` : html`<p>${model.activeScenarios.map((name) => html`${badge('on')} <code>${name}</code> `)}</p>`}
<p><a href="${consoleHref('/console/scenarios', ns)}">Toggle scenarios</a></p>
<h2>Namespaces</h2>
<p class="muted">Every namespace that holds state; each has its own records, clock, journal and scenarios.</p>
<ul>${model.namespaces.map((name) => html`<li><a href="${consoleHref('/console', name)}">${name}</a>${name === ns ? ' (this one)' : ''}</li>`)}</ul>
</section>
</div>
<section class="card"><h2>Organizations</h2>
<table><thead><tr><th>Organization</th><th>Balance (tokens)</th><th>Keys: requests today / daily quota · rate bucket</th></tr></thead><tbody>
${model.organizations.map(
  (org) => html`<tr><td>${org.name}<br><code>${org.id}</code></td>
<td><form class="row" method="post" action="${consoleHref(`/console/organizations/${encodeURIComponent(org.id)}/balance`, ns)}">${csrfField(model.csrf)}<label>Balance of ${org.id}<input name="balance" type="number" min="0" step="1" value="${org.balance}" size="8"></label><button type="submit">Save</button></form></td>
<td>${org.keys.map(
    (key) =>
      html`<div><code>${key.masked}</code> ${badge(key.kind)} ${key.usage ? html`<span class="muted">${key.usage.usedToday} / ${key.usage.dailyQuota} today · ${key.usage.tokensLeft} of ${key.usage.burst} burst left (${key.usage.perSecond}/s)</span>` : html`<span class="muted">rate limiting off</span>`}</div>`,
  )}</td></tr>`,
)}
</tbody></table></section>
<section class="card"><h2>Latest sessions</h2>${sessionsTable({ namespace: ns, rows: model.sessions })}<p><a href="${consoleHref('/console/sessions', ns)}">All sessions</a></p></section>
<section class="card"><h2>Latest requests</h2>${requestsTable(ns, model.requests)}<p><a href="${consoleHref('/console/requests', ns)}">The whole journal</a></p></section>
<section class="card"><h2>Reset</h2>
<form class="row" method="post" action="${consoleHref('/console/reset', ns)}">${csrfField(model.csrf)}
  <label><span><input type="checkbox" name="confirm" value="${ns}" required> Yes, erase namespace <code>${ns}</code>: its sessions, records, uploads, journal, clock and scenarios go back to the fixtures</span></label>
  <button type="submit" class="danger">Reset ${ns}</button></form>
</section>`;
}
