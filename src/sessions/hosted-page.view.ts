/**
 * The applicant's hosted page ({verify_url}/<session id>), as small static HTML without JavaScript. A
 * session without a workflow shows the applicant's name, the organization asking, and one button per
 * outcome the redirect callback can carry (APPLICANT_OUTCOME_TABLE). A workflow session shows its steps,
 * the result of the last step posted and the current step's form (its step module's hostedForm), with those
 * outcome buttons folded beneath as the QA shortcut. Every interpolation goes through hono/html, which
 * escapes it.
 *
 * LIMITATIONS: no camera: files and sample images stand for what the applicant captures.
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

/** One button per outcome of the redirect callback, each a form posting to `actionUrl`. */
function outcomeButtons(actionUrl: string, primary = true) {
  return html`<ul>
${APPLICANT_OUTCOME_TABLE.map(
  (row) =>
    html`<li><form method="post" action="${actionUrl}"><input type="hidden" name="outcome" value="${row.outcome}"><button type="submit"${primary && row.outcome === 'success' ? html` class="primary"` : ''}>${row.label}<small>status ${row.status}${row.reason === undefined ? '' : html`, reason ${row.reason}`}: ${row.description}</small></button></form></li>`,
)}
</ul>`;
}

export function sessionPage(model: SessionPageModel) {
  const intro = model.expired
    ? html`<p class="warn">This link expired at <strong>${model.expiresAt ?? ''}</strong>. Whatever you choose, you will be sent back with status <code>expired</code>, reason <code>session_expired</code>.</p>`
    : model.open
      ? html`<p>${model.organizationName} asks you to complete a ${model.kind}.${model.expiresAt === undefined ? '' : html` The link is valid until <strong>${model.expiresAt}</strong>.`}</p>`
      : html`<p>This ${model.kind} is finished: status <span class="status">${model.displayStatus}</span>. There is nothing left to do.</p>`;
  const buttons = model.open ? outcomeButtons(model.actionUrl) : '';
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

type Html = ReturnType<typeof html>;

export interface WorkflowPageStep {
  code: string;
  title: string;
  status: string;
}

/** What the last post did: the step's answer as the applicant reads it. */
export interface StepResultModel {
  title: string;
  stepStatus: string;
  /** The failed attempt's message, when the step failed a check. */
  failure?: { code: string; message: string };
  attemptsRemaining: number | null;
  /** The per-step result keys of the answer (liveness, screening…), as JSON. */
  details?: string;
}

export interface WorkflowPageModel {
  sessionId: string;
  applicantName: string;
  organizationName: string;
  displayStatus: string;
  steps: WorkflowPageStep[];
  /** The step to do now, with the form that posts to it; absent once no step is left. */
  current?: { title: string; actionUrl: string; fields: Html };
  result?: StepResultModel;
  /** The refusal of the last post (the 400 or 409 sentence). */
  problem?: string;
  expired: boolean;
  expiresAt?: string;
  /** Where the QA shortcut's buttons post; absent when the session is no longer PENDING. */
  outcomeActionUrl?: string;
  /** The callback URL the applicant returns to once the run ended (the session has a redirect_url). */
  returnUrl?: string;
}

function stepResult(result: StepResultModel) {
  return html`<section class="${result.failure === undefined ? 'result' : 'error'}" aria-live="polite"><h2>${result.title}: ${result.stepStatus}</h2>
${result.failure === undefined ? '' : html`<p><code>${result.failure.code}</code> ${result.failure.message}</p>`}
${result.attemptsRemaining === null ? '' : html`<p>Attempts remaining: ${result.attemptsRemaining}</p>`}
${result.details === undefined ? '' : html`<details><summary>What the check answered</summary><pre>${result.details}</pre></details>`}</section>`;
}

/** The applicant's page of a workflow session: the steps, the result of the last post and the current step's form. */
export function workflowPage(model: WorkflowPageModel) {
  const done = model.current === undefined;
  return hostedPage(
    `Verify your identity - ${model.organizationName}`,
    html`<h1>Hello, ${model.applicantName}</h1>
<p class="org">${model.organizationName} · session <code>${model.sessionId}</code> · <span class="status">${model.displayStatus}</span></p>
${model.expired ? html`<p class="warn">This link expired at <strong>${model.expiresAt ?? ''}</strong>: the steps can no longer be submitted.</p>` : ''}
<h2>Steps</h2>
<ol class="steps">${model.steps.map((step) => html`<li>${step.title} <span class="status">${step.status}</span></li>`)}</ol>
${model.problem === undefined ? '' : html`<p class="error" role="alert">${model.problem}</p>`}
${model.result === undefined ? '' : stepResult(model.result)}
${
  model.current === undefined
    ? html`<p>There is no step left to do: the session is <span class="status">${model.displayStatus}</span>.</p>`
    : html`<form method="post" action="${model.current.actionUrl}" enctype="multipart/form-data" aria-labelledby="current-step"><h2 id="current-step">${model.current.title}</h2>
${model.current.fields}
</form>`
}
${done && model.returnUrl !== undefined ? html`<p><a href="${model.returnUrl}">Return to ${model.organizationName}</a></p>` : ''}
${
  model.outcomeActionUrl === undefined
    ? ''
    : html`<details class="qa"><summary>QA shortcut: end the session with an outcome in one click</summary>${outcomeButtons(model.outcomeActionUrl, false)}</details>`
}`,
    'idv-sandbox hosted page: each step posts to the same step engine as POST /v1/sessions/{id}/steps/{step}; the QA shortcut stands for what the applicant does.',
  );
}
