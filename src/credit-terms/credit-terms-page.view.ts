/**
 * The business's hosted credit-terms page ({verify_url}/credit-terms/<id>): plain HTML, no script. It shows
 * the request and offers the moves the state machine allows now (start, submit, decline).
 */
import { html } from 'hono/html';
import { hostedPage } from '../platform/hosted-pages/hosted-page-layout.ts';
import { CREDIT_TERMS_MACHINE, type CreditTermsEvent } from './credit-terms.machine.ts';
import type { StoredCreditTerms } from './credit-terms.schemas.ts';

const LABELS: Record<CreditTermsEvent, string> = { open: 'Start the application', submit: 'Submit the application', decline: 'Decline to apply' };

export function creditTermsPage(model: { record: StoredCreditTerms; organizationName: string; formAction: string; nowIso: string; error?: string }) {
  const { record } = model;
  const moves = CREDIT_TERMS_MACHINE.transitions.filter((move) => (move.from as readonly string[]).includes(record.status));
  return hostedPage(
    'Credit application',
    html`<h1>Credit application</h1>
<p>Hello ${record.contact.firstName} ${record.contact.lastName}. <strong>${model.organizationName}</strong> invites
<strong>${record.Config.businessName}</strong> to apply for ${record.Config.requestedCreditAmount} of credit over ${record.Config.period} days.</p>
<p>Status: <strong id="status">${record.status}</strong> <small>(as of ${model.nowIso}, sandbox clock)</small></p>
${model.error === undefined ? '' : html`<p class="error" role="alert">${model.error}</p>`}
${
  moves.length === 0
    ? html`<p>This application is ${record.status}. Nothing more to do.</p>`
    : html`<form method="post" action="${model.formAction}">${moves.map((move) => html`<button name="action" value="${move.event}">${LABELS[move.event]}</button>`)}</form>`
}`,
    html`idv-sandbox hosted page · request <code>${record.id}</code>`,
  );
}

export function creditTermsNotFoundPage(id: string) {
  return hostedPage(
    'Not found',
    html`<h1>No such credit application</h1><p>There is no credit terms request ${id} in this namespace.</p>`,
    'idv-sandbox hosted page',
  );
}
