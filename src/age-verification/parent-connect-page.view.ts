/**
 * The parent's hosted Parent Connect page ({verify_url}/parent-connect/<id>): plain HTML, no script. It
 * offers the moves the machine allows now; consenting shows one input per platform restriction
 * (checkbox, number or select), prefilled with its default.
 */
import { html } from 'hono/html';
import { hostedPage } from '../platform/hosted-pages/hosted-page-layout.ts';
import { PARENT_CONNECT_MACHINE, type ParentConnectStatus } from './age-verification.machine.ts';
import type { ParentConnectRequest, PlatformRestriction } from './age-verification.schemas.ts';

function restrictionInput(restriction: PlatformRestriction, current: unknown) {
  const name = `b_${restriction.key}`;
  const value = current ?? restriction.default;
  if (restriction.type === 'toggle') return html`<label><input type="checkbox" name="${name}" ${value === true ? 'checked' : ''}> ${restriction.label}</label>`;
  if (restriction.type === 'select') {
    return html`<label>${restriction.label} <select name="${name}">${(restriction.options ?? []).map((option) => html`<option ${option === value ? 'selected' : ''}>${option}</option>`)}</select></label>`;
  }
  return html`<label>${restriction.label} <input type="number" name="${name}" value="${value === undefined ? '' : String(value)}" ${restriction.min === undefined ? '' : html`min="${restriction.min}"`} ${restriction.max === undefined ? '' : html`max="${restriction.max}"`}></label>`;
}

export function parentConnectPage(model: { record: ParentConnectRequest; formAction: string; nowIso: string; error?: string }) {
  const { record } = model;
  const moves = PARENT_CONNECT_MACHINE.transitions.filter((move) =>
    (move.from as readonly ParentConnectStatus[]).includes(record.status as ParentConnectStatus),
  );
  const asksBoundaries = moves.some((move) => move.event === 'give_consent' || move.event === 'update_boundaries');
  return hostedPage(
    'Parent Connect',
    html`<h1>Parent Connect</h1>
<p>A child (age band ${record.age_band ?? 'not given'}) asks for a parent's consent.</p>
<p>Status: <strong id="status">${record.status}</strong> <small>(as of ${model.nowIso}, sandbox clock)</small></p>
${model.error === undefined ? '' : html`<p class="error" role="alert">${model.error}</p>`}
${
  moves.length === 0
    ? html`<p>Nothing more to do.</p>`
    : html`<form method="post" action="${model.formAction}">
${asksBoundaries ? record.platform_restrictions.map((restriction) => restrictionInput(restriction, record.boundaries?.[restriction.key])) : ''}
${record.eula_url !== null && moves.some((move) => move.event === 'give_consent') ? html`<label><input type="checkbox" name="accept_eula" checked> I accept the <a href="${record.eula_url}">EULA</a></label>` : ''}
${moves.map((move) => html`<button name="event" value="${move.event}">${move.label}</button>`)}
</form>`
}`,
    html`idv-sandbox hosted page · request <code>${record.id}</code>`,
  );
}

export function parentConnectNotFoundPage(id: string) {
  return hostedPage(
    'Not found',
    html`<h1>No such Parent Connect request</h1><p>There is no Parent Connect request ${id} in this namespace.</p>`,
    'idv-sandbox hosted page',
  );
}
