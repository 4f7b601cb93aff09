/**
 * The applicant's hosted page ({verify_url}/<session id>), as small static HTML without JavaScript: the
 * applicant's name, the organization asking, and one button per outcome the redirect callback can carry
 * (APPLICANT_OUTCOME_TABLE). Every interpolation goes through hono/html, which escapes it.
 *
 * LIMITATIONS: a QA surface, not a capture flow: no camera, no document upload, no real liveness; the
 * buttons stand for what the applicant would do.
 */
import { html } from 'hono/html';
import { hostedPage } from '../platform/hosted-pages/hosted-page-layout.ts';
import { APPLICANT_OUTCOME_TABLE, type RedirectReason, type RedirectStatus } from './redirect-callback.ts';

const layout = (title: string, body: ReturnType<typeof html>) =>
  hostedPage(title, body, 'idv-sandbox hosted page: the buttons stand for what the applicant does.');

export interface SessionPageModel {
  sessionId: string;
  applicantName: string;
  organizationName: string;
  /** The status, or EXPIRED. */
  displayStatus: string;
  kind: 'verification' | 'credit check';
  /** Buttons are offered while the session is PENDING (expired ones included: they redirect as expired). */
  open: boolean;
  expired: boolean;
  expiresAt?: string;
  /** Where the buttons post (keeps oid and the namespace). */
  actionUrl: string;
  /** The callback address, when the session has one. */
  redirectUrl?: string;
}

export function sessionPage(model: SessionPageModel) {
  const intro = model.expired
    ? html`<p class="warn">This link expired at <strong>${model.expiresAt ?? ''}</strong>. Whatever you choose, you will be sent back with status <code>expired</code>, reason <code>session_expired</code>.</p>`
    : model.open
      ? html`<p>${model.organizationName} asks you to complete a ${model.kind}.${model.expiresAt === undefined ? '' : html` The link is valid until <strong>${model.expiresAt}</strong>.`}</p>`
      : html`<p>This ${model.kind} is finished: status <span class="status">${model.displayStatus}</span>. There is nothing left to do.</p>`;
  const buttons = model.open
    ? html`<ul>
${APPLICANT_OUTCOME_TABLE.map(
  (row) =>
    html`<li><form method="post" action="${model.actionUrl}"><input type="hidden" name="outcome" value="${row.outcome}"><button type="submit"${row.outcome === 'success' ? html` class="primary"` : ''}>${row.label}<small>status ${row.status}${row.reason === undefined ? '' : html`, reason ${row.reason}`}: ${row.description}</small></button></form></li>`,
)}
</ul>`
    : '';
  return layout(
    `Verify your identity - ${model.organizationName}`,
    html`<h1>Hello, ${model.applicantName}</h1>
<p class="org">${model.organizationName} · session <code>${model.sessionId}</code> · <span class="status">${model.displayStatus}</span></p>
${intro}
${buttons}
${model.redirectUrl === undefined ? '' : html`<p><small>When you finish you will be sent to ${model.redirectUrl}</small></p>`}`,
  );
}

export interface ResultPageModel {
  sessionId: string;
  applicantName: string;
  status: RedirectStatus;
  reason?: RedirectReason;
  sessionStatus: string;
}

const RESULT_TEXT: Record<RedirectStatus, string> = {
  success: 'Thank you: your verification was submitted.',
  failed: 'The verification could not be completed.',
  abandoned: 'You cancelled the verification. You can come back to this link while it is valid.',
  expired: 'This verification link has expired. Ask for a new one.',
};

/** Shown instead of a redirect when the session has no redirect_url. */
export function resultPage(model: ResultPageModel) {
  return layout(
    'Verification result',
    html`<h1>${RESULT_TEXT[model.status]}</h1>
<p class="org">${model.applicantName} · session <code>${model.sessionId}</code></p>
<p>Outcome: status <code>${model.status}</code>${model.reason === undefined ? '' : html`, reason <code>${model.reason}</code>`}. The session is now <span class="status">${model.sessionStatus}</span>.</p>
<p><small>This session has no redirect_url, so the sandbox shows this page instead of redirecting.</small></p>`,
  );
}

/** 404, 400 and 409 pages. */
export function problemPage(title: string, message: string) {
  return layout(title, html`<h1>${title}</h1><p>${message}</p>`);
}
