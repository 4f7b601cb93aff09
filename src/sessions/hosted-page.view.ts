/**
 * The applicant's hosted page ({verify_url}/<session id>), as small static HTML without JavaScript: the
 * applicant's name, the organization asking, and one button per outcome the redirect callback can carry
 * (APPLICANT_OUTCOME_TABLE). Every interpolation goes through hono/html, which escapes it.
 *
 * LIMITATIONS: a QA surface, not a capture flow: no camera, no document upload, no real liveness; the
 * buttons stand for what the applicant would do.
 */
import { html } from 'hono/html';
import { APPLICANT_OUTCOME_TABLE, type RedirectReason, type RedirectStatus } from './redirect-callback.ts';

const STYLE = html`<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f8; color: #1d2330; }
  main { max-width: 34rem; margin: 3rem auto; background: #fff; padding: 2rem 2.25rem; border-radius: 10px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; } .org { color: #5a6275; margin: 0 0 1.5rem; }
  .status { display: inline-block; padding: .1rem .5rem; border-radius: 4px; background: #eef0f6; font-weight: 600; }
  .warn { background: #fff4e0; border: 1px solid #f0c36d; padding: .6rem .8rem; border-radius: 6px; }
  ul { list-style: none; padding: 0; } li { margin: .6rem 0; } form { margin: 0; }
  button { width: 100%; text-align: left; padding: .6rem .8rem; border: 1px solid #c9cedb; border-radius: 6px; background: #fafbfd; cursor: pointer; font: inherit; }
  button:hover { background: #eef2ff; } button.primary { background: #1f4fd1; color: #fff; border-color: #1f4fd1; }
  button.primary:hover { background: #1a42b0; } button.primary small { color: #fff; }
  button:focus-visible { outline: 3px solid #f5b700; outline-offset: 1px; }
  small { display: block; color: #5a6275; margin-top: .2rem; } code { background: #f3f4f8; padding: 0 .25rem; border-radius: 3px; }
  footer { color: #5a6275; font-size: .8rem; margin-top: 2rem; }
</style>`;

function layout(title: string, body: ReturnType<typeof html>) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${STYLE}</head>
<body><main>
${body}
<footer>idv-sandbox hosted page: the buttons stand for what the applicant does.</footer>
</main></body></html>`;
}

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
