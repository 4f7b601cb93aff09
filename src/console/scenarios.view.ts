/**
 * The scenarios page: every scenario of the namespace with its description, its rules, how often each
 * rule and behaviour fired since it was last activated, and its on/off toggle.
 */
import { html } from 'hono/html';
import type { scenarioView } from '../control/api.ts';
import { badge, consoleHref, csrfField, type Markup } from './console.layout.ts';

export function scenariosPage(namespace: string, scenarios: ReturnType<typeof scenarioView>[], csrf: string): Markup {
  return html`<section class="card"><p class="muted">Toggles act on namespace <code>${namespace}</code> only (switch namespace at the top right). A request can also name scenarios itself with the <code>X-Sandbox-Scenario</code> header. Activating a scenario restarts its counters.</p>
<table><thead><tr><th>Scenario</th><th>What it does</th><th>Rules and fires</th><th></th></tr></thead><tbody>
${scenarios.map(
  (
    s,
  ) => html`<tr id="scenario-${s.name}"><td><code>${s.name}</code><br>${badge(s.active ? 'on' : 'off')}${s.origin === 'runtime' ? html` <span class="muted">added at run time</span>` : ''}</td><td>${s.description}</td>
<td>${s.rules.map(
    (rule, index) =>
      html`<div>rule ${index}: ${rule.match.methods?.join('/') ?? 'any'} <code>${rule.match.path}</code>${rule.respond ? html` → ${rule.respond.status}` : ''}${rule.latencyMs > 0 ? html` +${rule.latencyMs} ms` : ''} · fired <strong data-fires="${s.name}:${index}">${rule.fired}</strong></div>`,
  )}${Object.entries(s.behaviourFires).map(([behaviour, fired]) => html`<div>behaviour <code>${behaviour}</code> · fired <strong data-fires="${s.name}:${behaviour}">${fired}</strong></div>`)}</td>
<td><form class="inline" method="post" action="${consoleHref(`/console/scenarios/${encodeURIComponent(s.name)}/${s.active ? 'deactivate' : 'activate'}`, namespace)}">${csrfField(csrf)}<button type="submit" class="${s.active ? '' : 'primary'}" aria-label="${s.active ? 'Deactivate' : 'Activate'} ${s.name}">${s.active ? 'Deactivate' : 'Activate'}</button></form></td></tr>`,
)}
</tbody></table></section>`;
}
