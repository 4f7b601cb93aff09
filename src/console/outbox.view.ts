/**
 * The outbox page: the messages the sandbox sent in the namespace (the same list as GET /__sandbox/outbox,
 * with its filters and pages), each with the page its link opens, its whole text and, with --smtp, how
 * the delivery went; and the button that empties the outbox.
 */
import { html } from 'hono/html';
import type { OutboxFilter } from '../platform/outbox/outbox.ts';
import { MESSAGE_CHANNELS, type OutboxMessage } from '../platform/outbox/outbox.schemas.ts';
import { badge, consoleHref, csrfField, type Markup } from './console.layout.ts';

export interface OutboxPageModel {
  namespace: string;
  filter: OutboxFilter;
  messages: OutboxMessage[];
  nextToken: string | null;
  csrf: string;
}

function messageRow(message: OutboxMessage): Markup {
  return html`<tr id="${message.id}"><td><code>${message.createdAt}</code></td><td><code>${message.kind}</code></td><td>${message.channel}</td><td>${message.to}</td>
<td><details><summary>${message.subject ?? message.text.slice(0, 60)}</summary><pre>${message.text}</pre></details></td>
<td>${message.link === undefined ? '—' : html`<a href="${message.link}">Open the page</a>`}</td>
<td>${message.delivery === undefined ? html`<span class="muted">—</span>` : html`${badge(message.delivery.status)}${message.delivery.error === undefined ? '' : html` <span class="muted">${message.delivery.error}</span>`}`}</td></tr>`;
}

export function outboxPage(model: OutboxPageModel): Markup {
  const { namespace, filter } = model;
  const older =
    model.nextToken === null
      ? ''
      : html`<a href="${consoleHref('/console/outbox', namespace, { recipient: filter.recipient, session: filter.sessionId, channel: filter.channel, nextToken: model.nextToken })}" rel="next">Older →</a>`;
  return html`<section class="card">
<form class="row" method="get" action="/console/outbox"><input type="hidden" name="namespace" value="${namespace}">
  <label>Recipient<input name="recipient" value="${filter.recipient ?? ''}" placeholder="jane.doe@example.com" size="22"></label>
  <label>Session or request id<input name="session" value="${filter.sessionId ?? ''}" size="30"></label>
  <label>Channel<select name="channel"><option value="">any</option>${MESSAGE_CHANNELS.map((channel) => html`<option${channel === filter.channel ? html` selected` : ''}>${channel}</option>`)}</select></label>
  <button type="submit" class="primary">Filter</button> <a href="${consoleHref('/console/outbox', namespace)}">Clear</a>
</form></section>
<section class="card"><p class="muted">Every e-mail and SMS the service would have sent in namespace <code>${namespace}</code>, newest first. Nothing reaches a person; with <code>--smtp</code> the e-mails also go to that mail server.</p>
${
  model.messages.length === 0
    ? html`<p class="muted">No messages.</p>`
    : html`<table><thead><tr><th>When</th><th>Kind</th><th>Channel</th><th>To</th><th>Message</th><th>Link</th><th>Delivery</th></tr></thead>
<tbody>${model.messages.map(messageRow)}</tbody></table>`
}
<nav class="pager" aria-label="Pages">${older}</nav>
<form class="inline" method="post" action="${consoleHref('/console/outbox/clear', namespace)}">${csrfField(model.csrf)}<button type="submit">Empty the outbox</button></form>
</section>`;
}
