/**
 * The applicant's hosted page under {verify_url} (mounted at /verify): GET renders it (no API key: the
 * link is the permission), POST /verify/<id>/outcome applies the button's outcome and answers 303 to the
 * session's redirect_url with session_id, status and reason, or a result page when it has none.
 *
 * A session created with a workflow walks its steps instead: POST /verify/<id>/steps/<STEP> turns the
 * step's form into the client's body and submits it to the workflows area's step engine (submitStep, the
 * verb behind POST /v1/sessions/{id}/steps/{step}), then shows the step's result and the next step's form.
 * Every refusal takes one way (`refuse`): its sentence above the workflow's form when the session walks
 * one, else on a problem page; a refusal the API gave (ApiError 4xx) also says it in X-Sandbox-Explain. When the run ends, the applicant is sent to
 * redirect_url with the callback workflowCallback gives. The outcome buttons stay as the QA shortcut.
 *
 * The link must carry the session's page token (hostedPageGuard), and the forms post only from the page's
 * own origin. The page trusts the stored session, not the link: the redirect target is the session's own
 * redirect_url (the link's redirect_url parameter is informational), and an `oid` that names another
 * organization answers 404. A non-default namespace rides along as `?namespace=` in every URL.
 */
import { Hono } from 'hono';
import { bankStatementPageUrl } from '../financial/api.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { behaviourOn, explain, publicUrlsOf, type AppContext, type AppEnv } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { hostedPageGuard } from '../platform/http/hosted-pages.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { hostedPageUrl, type PageScope } from '../platform/secrets/page-tokens.ts';
import { MAX_UPLOAD_BYTES } from '../platform/uploads/uploads.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { SESSIONS_ERROR_CODES } from './sessions.errors.ts';
import { type FormView, hostedPageRuns, type PageClient, type PageFile, type StepAnswer, type StepCode, type WorkflowState } from '../workflows/api.ts';
import { problemPage, resultPage, sessionPage, workflowPage, type StepResultModel } from './hosted-page.view.ts';
import { isApplicantOutcome, redirectUrlFor, workflowCallback } from './redirect-callback.ts';
import { displayStatus, isExpired } from './session.machine.ts';
import { type ApplicantOutcomeAnswer, findHostedSession, openHostedPage, submitApplicantOutcome } from './sessions.service.ts';
import { sessionUploadOwner, type StoredSession } from './sessions.store.ts';

// Every workflow page drives the step engine: loaded with this module, which the sessions API never evaluates.
/** The step engine the pages drive (the workflows area's), loaded with this area: see `loadHostedPagesModule`. */
let runs: Awaited<ReturnType<typeof hostedPageRuns>>;

/** Where the page's buttons post: {verify_url}/<id>/outcome?oid=<org>&token=<page token>[&namespace=<ns>]. */
export function hostedActionUrl(verifyUrl: string, stored: StoredSession, scope: PageScope, action = 'outcome'): string {
  const url = `${verifyUrl.replace(/\/+$/, '')}/${encodeURIComponent(stored.id)}/${action}?oid=${encodeURIComponent(stored.record.organization_id)}`;
  return hostedPageUrl(url, stored.id, scope);
}

type PageStatus = 200 | 400 | 403 | 404 | 409 | 413;

/** Why the page does not act: the status, the problem's heading and the sentence a person can act on. */
interface Refusal {
  status: PageStatus;
  title: string;
  message: string;
}

/** An API refusal (ApiError 4xx) as the page's refusal, said in X-Sandbox-Explain as the API says it; a fault is thrown on. */
function apiRefusal(c: AppContext, error: unknown, title: string): Refusal {
  if (!(error instanceof ApiError) || error.status >= 500) throw error;
  explain(c, error.message);
  return { status: error.status as PageStatus, title, message: error.message };
}

/** The one way the page refuses: above the form of the workflow `walking` walks, else on a problem page. */
function refuse(c: AppContext, refusal: Refusal, walking?: StoredSession) {
  if (walking !== undefined) return renderWorkflowPage(c, walking, { problem: refusal.message }, refusal.status);
  return c.html(problemPage(refusal.title, refusal.message), refusal.status);
}

const notFound = (c: AppContext, id: string) =>
  refuse(c, {
    status: 404,
    title: 'Verification not found',
    message: `There is no verification session ${id} here. Check the link you were sent (a session of another sandbox namespace needs its namespace parameter).`,
  });

function applicantName(stored: StoredSession): string {
  return `${stored.user.first_name} ${stored.user.last_name}`;
}

/** What both kinds of session page say at the top: who, for whom, which session, in which state. */
function pageHeading(c: AppContext, stored: StoredSession, nowMs: number) {
  const organization = c.get('platform').keyRing.organizations.get(stored.record.organization_id);
  return {
    sessionId: stored.id,
    applicantName: applicantName(stored),
    organizationName: organization?.name ?? stored.record.organization_id,
    displayStatus: displayStatus(stored.record, nowMs),
  };
}

function isStepCode(value: string): value is StepCode {
  return (runs.STEP_CODES as readonly string[]).includes(value);
}

const stepTitle = (code: string) => (isStepCode(code) ? runs.STEP_MODULES[code].hostedForm.title : code);

function formViewOf(c: AppContext, stored: StoredSession, step: WorkflowState['steps'][number]): FormView {
  const { first_name, last_name, email, phone } = stored.user;
  const bankStatementId = stored.record.bank_statement_request_id;
  return {
    step,
    applicant: { firstName: first_name, lastName: last_name, ...(email ? { email } : {}), ...(phone ? { phone } : {}) },
    ...(bankStatementId === undefined ? {} : { bankStatementPage: bankStatementPageUrl(publicUrlsOf(c).verify, bankStatementId, c.get('world')) }),
  };
}

/** The page as the applicant's client: every submission goes to the step engine, every file through the upload store. */
function pageClient(c: AppContext, stored: StoredSession, code: StepCode): PageClient {
  const world = c.get('world');
  const uploads = c.get('platform').uploads;
  const organizationId = stored.record.organization_id;
  const deps = runs.stepDepsFor(c, organizationId);
  // What a browser's PUT to the upload URL does (the signed query is the permission).
  const deliver = async (uploadUrl: string, file: PageFile) => {
    const url = new URL(uploadUrl);
    const query = { expires: url.searchParams.get('expires') ?? '', signature: url.searchParams.get('signature') ?? '' };
    await uploads.receive(world, decodeURIComponent(url.pathname.split('/').pop() ?? ''), query, file.contentType, file.bytes);
  };
  return {
    submit: async (body) => {
      const answer = await runs.submitStep(world, organizationId, stored.id, code, body, deps);
      runs.noteStepAnswer(c, answer.value);
      return explained(c, answer) as StepAnswer;
    },
    store: async (slot, file) => {
      if (file.bytes.length > MAX_UPLOAD_BYTES)
        throw codedError(SESSIONS_ERROR_CODES, 'HOSTED_FILE_TOO_LARGE', { label: file.label, bytes: file.bytes.length, maxBytes: MAX_UPLOAD_BYTES });
      // A page slot flips no uploads flag of the record: the step records the slots it used once it accepts them.
      const request = { contentType: file.contentType, byteLength: file.bytes.length, owner: sessionUploadOwner(stored.id), slot: `page:${slot}` };
      const presigned = uploads.presign(world, organizationId, request, publicUrlsOf(c).base);
      await deliver(presigned.uploadUrl, file);
      return presigned.fileKey;
    },
    deliver,
  };
}

/** The envelope keys every step answer has; the others are the step's own result (shown as details). */
const ENVELOPE_KEYS = new Set([
  'step_id',
  'step_status',
  'failure_reason',
  'current_step',
  'attempts_remaining',
  'session_status',
  'session_progress',
  'failure',
  'session_failure',
]);

function resultOf(answer: StepAnswer): StepResultModel {
  const failure = answer.failure as { code: string; message: string } | undefined;
  const own = Object.fromEntries(Object.entries(answer).filter(([key]) => !ENVELOPE_KEYS.has(key)));
  return {
    title: stepTitle(answer.step_id),
    stepStatus: answer.step_status,
    ...(failure === undefined ? {} : { failure: { code: failure.code, message: failure.message } }),
    attemptsRemaining: (answer.attempts_remaining as number | null | undefined) ?? null,
    ...(Object.keys(own).length === 0 ? {} : { details: JSON.stringify(own, null, 2) }),
  };
}

/** Where the applicant returns once the run ended: the callback URL (the session has a redirect_url), else undefined. */
function workflowReturn(stored: StoredSession, state: WorkflowState, nowMs: number) {
  const redirectUrl = stored.record.redirect_url;
  if (redirectUrl === undefined) return undefined;
  // The step that ended the run carries its failure; a run out of attempts names it in session_failure.
  const failure = state.steps.find((step) => step.status === 'FAILED')?.failure ?? state.session_failure?.failure;
  const callback = workflowCallback({
    sessionStatus: stored.record.status,
    expired: isExpired(stored.record, nowMs),
    ...(failure === undefined ? {} : { failure: { code: failure.code, category: failure.category } }),
  });
  return { callback, url: redirectUrlFor(redirectUrl, stored.id, callback.status, callback.reason) };
}

/** The workflow page: the steps, the last post's result or refusal, and the current step's form. */
function renderWorkflowPage(c: AppContext, stored: StoredSession, extras: { result?: StepResultModel; problem?: string }, status: PageStatus) {
  const world = c.get('world');
  const nowMs = world.clock.now();
  const state = runs.getWorkflowState(world, stored.record.organization_id, stored.id).value;
  const expired = isExpired(stored.record, nowMs);
  const current = state.current_step === null || expired ? undefined : state.steps[state.current_step];
  const verifyUrl = publicUrlsOf(c).verify;
  const ended = current === undefined ? workflowReturn(stored, state, nowMs) : undefined;
  return c.html(
    workflowPage({
      ...pageHeading(c, stored, nowMs),
      steps: state.steps.map((step) => ({ code: step.step_id, title: stepTitle(step.step_id), status: step.status })),
      ...(current === undefined || !isStepCode(current.step_id)
        ? {}
        : {
            current: {
              title: runs.STEP_MODULES[current.step_id].hostedForm.title,
              actionUrl: hostedActionUrl(verifyUrl, stored, world, `steps/${current.step_id}`),
              fields: runs.STEP_MODULES[current.step_id].hostedForm.fields(formViewOf(c, stored, current)),
            },
          }),
      ...extras,
      expired,
      ...(stored.record.expires_at === undefined ? {} : { expiresAt: stored.record.expires_at }),
      ...(stored.record.status === 'PENDING' ? { outcomeActionUrl: hostedActionUrl(verifyUrl, stored, world) } : {}),
      ...(ended === undefined ? {} : { returnUrl: ended.url }),
    }),
    status,
  );
}

export const hostedPageRouter = new Hono<AppEnv>()
  .get('/verify/:id', hostedPageGuard(), (c) => {
    const world = c.get('world');
    const id = c.req.param('id');
    const found = findHostedSession(world, id, c.req.query('oid'));
    if (found === undefined) return notFound(c, id);
    const stored = explained(c, openHostedPage(world, found));
    if (stored.record.workflow_id !== undefined) return renderWorkflowPage(c, stored, {}, 200);
    const nowMs = world.clock.now();
    const expired = isExpired(stored.record, nowMs);
    if (expired) explain(c, `session ${id} expired at ${stored.record.expires_at as string}: buttons redirect with status expired, reason session_expired`);
    return c.html(
      sessionPage({
        ...pageHeading(c, stored, nowMs),
        kind: stored.record.type === 'session' ? 'verification' : 'credit check',
        open: stored.record.status === 'PENDING',
        expired,
        ...(stored.record.expires_at === undefined ? {} : { expiresAt: stored.record.expires_at }),
        actionUrl: hostedActionUrl(publicUrlsOf(c).verify, stored, world),
        ...(stored.record.redirect_url === undefined ? {} : { redirectUrl: stored.record.redirect_url }),
      }),
      200,
    );
  })
  .post('/verify/:id/outcome', hostedPageGuard(), async (c) => {
    const world = c.get('world');
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const outcome = form.outcome;
    if (typeof outcome !== 'string' || !isApplicantOutcome(outcome)) {
      return refuse(c, {
        status: 400,
        title: 'Unknown choice',
        message: 'The form must send outcome = success, document_unreadable, face_mismatch, internal_error, user_cancelled or session_expired.',
      });
    }
    const stored = findHostedSession(world, id, c.req.query('oid'));
    if (stored === undefined) return notFound(c, id);
    let answer: ApplicantOutcomeAnswer;
    try {
      answer = explained(c, await submitApplicantOutcome(world, stored, outcome, behaviourOn(c, 'auto-decline'), c.get('platform').uploads));
    } catch (error) {
      return refuse(c, apiRefusal(c, error, 'This verification cannot change any more'));
    }
    const { status, reason } = answer.redirect;
    const redirectUrl = answer.stored.record.redirect_url;
    if (redirectUrl !== undefined) return c.redirect(redirectUrlFor(redirectUrl, id, status, reason), 303);
    return c.html(
      resultPage({
        sessionId: id,
        applicantName: applicantName(answer.stored),
        status,
        ...(reason === undefined ? {} : { reason }),
        sessionStatus: displayStatus(answer.stored.record, world.clock.now()),
      }),
      200,
    );
  })
  .post('/verify/:id/steps/:step', hostedPageGuard(), async (c) => {
    const world = c.get('world');
    const id = c.req.param('id');
    const code = c.req.param('step');
    const found = findHostedSession(world, id, c.req.query('oid'));
    if (found === undefined || found.record.workflow_id === undefined) return notFound(c, id);
    const step = runs.getWorkflowState(world, found.record.organization_id, id).value.steps.find((candidate) => candidate.step_id === code);
    if (step === undefined || !isStepCode(code)) {
      return refuse(c, { status: 404, title: 'Step not found', message: `Session ${id} has no step ${code}: open the page again and use the form it shows.` });
    }
    let answer: StepAnswer;
    try {
      answer = await runs.STEP_MODULES[code].hostedForm.submit(await c.req.parseBody(), pageClient(c, found, code), formViewOf(c, found, step));
    } catch (error) {
      return refuse(c, apiRefusal(c, error, 'The step was refused'), findHostedSession(world, id, undefined) ?? found);
    }
    const stored = findHostedSession(world, id, undefined) ?? found;
    const ended =
      answer.current_step === null
        ? workflowReturn(stored, runs.getWorkflowState(world, stored.record.organization_id, id).value, world.clock.now())
        : undefined;
    if (ended !== undefined) {
      explain(
        c,
        `${code}: the run ended ${stored.record.status}; callback status ${ended.callback.status}${ended.callback.reason === undefined ? '' : `, reason ${ended.callback.reason}`}`,
      );
      return c.redirect(ended.url, 303);
    }
    return renderWorkflowPage(c, stored, { result: resultOf(answer) }, 200);
  });

/**
 * The hosted pages, loaded as an area of their own (mounted right after the sessions area's routes): they
 * drive a session's workflow through the workflows area's step engine, which the sessions API never needs
 * to evaluate for a read. Nothing to set up: the sessions area's catalog rows and coverage cover them.
 */
const hostedPagesModule: SandboxModule = { name: 'hosted-pages', router: () => hostedPageRouter };

/** The area, once the step engine it drives is loaded (the engine loads on the pages' first use, never with the sessions API). */
export async function loadHostedPagesModule(): Promise<SandboxModule> {
  runs ??= await hostedPageRuns();
  return hostedPagesModule;
}
