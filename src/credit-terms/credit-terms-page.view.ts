/**
 * The business's hosted credit-terms page ({verify_url}/credit-terms/<id>): plain HTML, no script. It shows
 * the request and offers the moves the state machine allows now (start, submit, decline).
 */
import { html } from 'hono/html';
import { CREDIT_TERMS_MACHINE, type CreditTermsEvent } from './credit-terms.machine.ts';
import type { StoredCreditTerms } from './credit-terms.schemas.ts';

const LABELS: Record<CreditTermsEvent, string> = { open: 'Start the application', submit: 'Submit the application', decline: 'Decline to apply' };

export function creditTermsPage(model: { record: StoredCreditTerms; organizationName: string; formAction: string; nowIso: string; error?: string }) {
  const { record } = model;
  const moves = CREDIT_TERMS_MACHINE.transitions.filter((move) => (move.from as readonly string[]).includes(record.status));
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Credit application</title>
<style>body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; padding: 0 1rem; } .error { background: #fdecec; padding: .5rem; } button { margin: .4rem .4rem 0 0; padding: .4rem .9rem; }</style>
</head><body>
<h1>Credit application</h1>
<p>Hello ${record.contact.firstName} ${record.contact.lastName}. <strong>${model.organizationName}</strong> invites
<strong>${record.Config.businessName}</strong> to apply for ${record.Config.requestedCreditAmount} of credit over ${record.Config.period} days.</p>
<p>Status: <strong id="status">${record.status}</strong> <small>(as of ${model.nowIso}, sandbox clock)</small></p>
${model.error === undefined ? '' : html`<p class="error" role="alert">${model.error}</p>`}
${
  moves.length === 0
    ? html`<p>This application is ${record.status}. Nothing more to do.</p>`
    : html`<form method="post" action="${model.formAction}">${moves.map((move) => html`<button name="action" value="${move.event}">${LABELS[move.event]}</button>`)}</form>`
}
</body></html>`;
}

export function creditTermsNotFoundPage(id: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>No such credit application</h1><p>There is no credit terms request ${id} in this namespace.</p></body></html>`;
}
