/**
 * Hosted verification sessions: the verbs behind POST/GET /v1/sessions, GET /v1/sessions/{id}, PATCH
 * update-status, POST uploads, the control plane's outcome endpoint and the applicant's hosted page.
 * Every verb takes the world (the namespace's state) first, never an HTTP context, and throws ApiError
 * for a 4xx; each returns the ASCII explanations the route puts in X-Sandbox-Explain.
 *
 * LIMITATIONS:
 * - Invitations go to the namespace's outbox (GET /__sandbox/outbox), and with --smtp to a mail server;
 *   no SMS leaves the sandbox.
 * - A session whose expires_at has passed keeps status PENDING on the API (the spec's status set has no
 *   expired value; 'expired' exists only in the redirect callback). The read path says so in
 *   X-Sandbox-Explain, the hosted page shows it, and the applicant's events are refused.
 * - Phone is required when the workflow has any step that needs the applicant's number
 *   (PHONE_VERIFICATION, PHONE_OWNERSHIP_MATCH, PHONE_TRUST_CHECK, CARRIER_AGE_GATE).
 */
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { SESSIONS_ERROR_CODES } from './sessions.errors.ts';
import { invitedIf, sendInvitation } from '../platform/outbox/invitations.ts';
import type { Explained } from '../platform/explained.ts';
import { AnswersWhileUnchanged, shareJson } from '../platform/http/fast-paths.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { UploadStore } from '../platform/uploads/uploads.ts';
import { enrolFinishedSessionFace } from './session-face.ts';
import { type AttemptScript, workflowById, workflowError, workflowHasStep, type WorkflowRecord } from '../workflows/api.ts';
import type { ApplicantOutcome, RedirectReason, RedirectStatus } from './redirect-callback.ts';
import { sandboxSessionFor, sandboxSessionList } from './sandbox-sessions.ts';
import { applyApplicantOutcome, applyControlOutcome, type OutcomeContext } from './session-outcomes.ts';
import { listQueryFilter, listQueryMode, listQueryScope, sessionPaging } from './session-paging.ts';
import {
  buildCreateSessionResponse,
  buildSignedUploads,
  listPageJson,
  LIST_PAGE_KEPT_ITEMS,
  senderUserIdFor,
  toSingleSessionResponse,
  type SessionUrls,
} from './session-record.ts';
import { transitionFacts } from './session-coverage.ts';
import type { SessionWorkflows } from './session-workflows.ts';
import { displayStatus, isExpired, transition, updateStatusEvent, uploadsRefusal, type SessionEvent, type TransitionResult } from './session.machine.ts';
import {
  createSessionRecord,
  findSession,
  recordedAnalysis,
  requireOwnSession,
  saveSession,
  sessionIndexKey,
  sessions,
  sessionUploadOwner,
  SESSION_INDEXES,
  type StoredSession,
  withArrivedUploads,
} from './sessions.store.ts';
import {
  dateRange,
  type CreateSessionInput,
  type CreateSessionResponse,
  type ListSessionsQuery,
  type SessionListResponse,
  type SessionOutcomeBody,
  type SessionOutcomeResponse,
  type SessionRecord,
  type SessionUploadsResponse,
  type SingleSessionResponse,
  type UploadFileRequest,
} from './sessions.schemas.ts';

/** Where links point (the namespace and the page token come from the world). */
export interface LinkContext {
  urls: SessionUrls;
}

/** Steps that cannot run without the applicant's phone number (a bank-statement request is sent by SMS too). */
export const PHONE_STEP_CODES = ['PHONE_VERIFICATION', 'PHONE_OWNERSHIP_MATCH', 'PHONE_TRUST_CHECK', 'CARRIER_AGE_GATE', 'BANK_STATEMENT_UPLOAD'] as const;

/** Every session costs one token. */
export const SESSION_PRICE_TOKENS = 1;

// ─── POST /v1/sessions ──────────────────────────────────────────────────────────────────────────────

/** `workflows` (sessionWorkflows()) is given when the input names a workflow. */
export function createSession(
  world: World,
  organization: OrganizationFixture,
  input: CreateSessionInput,
  links: LinkContext,
  funds: FundsPolicy,
  workflows?: SessionWorkflows,
): Explained<CreateSessionResponse> {
  const explanations: string[] = [];
  let workflow: WorkflowRecord | undefined;
  let script: AttemptScript | undefined;
  if (input.workflowId !== undefined) {
    if (workflows === undefined) throw new Error('createSession: a session that names a workflow needs the verbs of sessionWorkflows()');
    workflow = workflowById(world, organization.id, input.workflowId);
    if (workflow === undefined) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_WORKFLOW_NOT_FOUND', { workflowId: input.workflowId });
    workflows.requireActiveWorkflow(workflow);
    const phoneStep = PHONE_STEP_CODES.find((code) => workflowHasStep(workflow as WorkflowRecord, code));
    if (phoneStep !== undefined && input.phone === undefined) {
      throw codedError(SESSIONS_ERROR_CODES, 'SESSION_PHONE_REQUIRED', { workflowId: workflow.id, step: phoneStep });
    }
    script = workflows.requireScriptOf(input.externalId);
  }
  requireFunds(world, organization, funds, SESSION_PRICE_TOKENS);

  const nowIso = world.clock.iso();
  const bankStatement =
    workflow !== undefined && workflowHasStep(workflow, 'BANK_STATEMENT_UPLOAD') ? workflows?.requestBankStatementFor(world, organization, input) : undefined;
  const stored = createSessionRecord(world, {
    organization,
    type: 'session',
    input,
    ...(workflow === undefined ? {} : { workflow }),
    ...(bankStatement === undefined ? {} : { bankStatementRequestId: bankStatement.id }),
    nowIso,
  });
  if (bankStatement !== undefined) {
    explanations.push(`workflow has BANK_STATEMENT_UPLOAD: bank statement request ${bankStatement.id} created (bank_statement_request_id), no extra charge`);
  }
  const remaining = charge(world, organization, funds, SESSION_PRICE_TOKENS);

  if (workflow !== undefined && workflows !== undefined) {
    const limit = stored.maxFailedAttempts === undefined ? 'default 3' : String(stored.maxFailedAttempts);
    explanations.push(`workflow ${workflow.id} (${workflow.steps.map((s) => s.id).join(', ')}), failed-attempt limit ${limit}`);
    explanations.push(workflows.createHostedRun(world, { id: stored.id, organizationId: organization.id }, workflow, script));
  }
  if (stored.record.expires_at !== undefined) {
    const source =
      input.expiresInHours !== undefined ? `expires_in_hours ${input.expiresInHours}` : `workflow expiry ${workflow?.settings?.expires_in_hours ?? '?'} h`;
    explanations.push(`expires at ${stored.record.expires_at} (${source})`);
  } else {
    explanations.push('no expiry (none requested, none configured on the workflow)');
  }
  const response = buildCreateSessionResponse(stored.record, links.urls, { scope: world });
  const invitation = sendInvitation(world, {
    kind: 'session_invitation',
    sessionId: stored.id,
    link: response.session_url,
    sender: organization.name,
    firstName: input.firstName,
    ...(response.expires_at === undefined ? {} : { expiresAt: response.expires_at }),
    email: invitedIf(input.sendEmailInvite, input.email, 'send_email_invite'),
    sms: invitedIf(input.sendPhoneInvite, input.phone, 'send_phone_invite'),
  });
  explanations.push(invitation.explanation);
  explanations.push(`${SESSION_PRICE_TOKENS} token charged, balance ${remaining}`);
  return { value: response, explanations };
}

// ─── GET /v1/sessions ───────────────────────────────────────────────────────────────────────────────

/**
 * Pages answered lately, per namespace: the same query again while nothing in the namespace changed (a
 * client polling a list) gets the same answer. Pages of more than LIST_PAGE_KEPT_ITEMS are not kept.
 */
const listAnswers = new AnswersWhileUnchanged<Explained<string>>(32);

/** One page of the caller's sessions, as the JSON text of a SessionListResponse (list items rendered once per record version). */
export function listSessions(world: World, organizationId: string, query: ListSessionsQuery, signingSecret: string): Explained<string> {
  if (query.limit > LIST_PAGE_KEPT_ITEMS) return readSessionPage(world, organizationId, query, signingSecret);
  // Bringing a listed session's uploads up to date is a change the read makes: counted after it.
  return listAnswers.get(
    world.data,
    () => world.data.changes,
    JSON.stringify([organizationId, signingSecret, query]),
    () => readSessionPage(world, organizationId, query, signingSecret),
  );
}

function readSessionPage(world: World, organizationId: string, query: ListSessionsQuery, signingSecret: string): Explained<string> {
  const caller = { organizationId, senderUserId: senderUserIdFor(organizationId) };
  const mode = listQueryMode(query);
  const [indexName, indexValue] =
    mode === 'external_id'
      ? [SESSION_INDEXES.byOrganizationExternalId, sessionIndexKey(organizationId, query.external_id as string)]
      : mode === 'workflow_id'
        ? [SESSION_INDEXES.byOrganizationWorkflow, sessionIndexKey(organizationId, query.workflow_id as string)]
        : mode === 'organization'
          ? [SESSION_INDEXES.byOrganization, organizationId]
          : [SESSION_INDEXES.byOrganizationSender, sessionIndexKey(organizationId, caller.senderUserId)];
  const { fromMs, toMs } = dateRange(query.start_date, query.end_date);
  const collection = sessions(world);
  // The ordered read keeps to the date window itself, on the same instants (the index orders by created_at):
  // the records are checked against the mode only, without parsing each one's created_at again.
  const { start_date: _start, end_date: _end, ...modeOnly } = query;
  const belongs = listQueryFilter(modeOnly, caller);
  const scope = listQueryScope(query, caller);
  const matching = collection.ordered(indexName, indexValue, { from: fromMs, to: toMs }).count;
  // Keyset seek on the ordered index: the page costs the same at any store size. A bad next_token throws PageTokenError (400).
  // The stored sessions of the page by id, so each is brought up to date without being looked up again.
  const listed = new Map<string, StoredSession>();
  const page = sessionPaging.seek(
    (after) =>
      listedRecords(collection.ordered(indexName, indexValue, { from: fromMs, to: toMs, ...(after === undefined ? {} : { after }) }).records, belongs, listed),
    {
      limit: query.limit,
      ...(query.next_token === undefined ? {} : { token: query.next_token }),
      secret: signingSecret,
      scope,
    },
  );
  // Bring each listed session's uploads up to date, as a single read would.
  const records = page.items.map((record) => withArrivedUploads(world, listed.get(record.id) as StoredSession).record);
  return {
    value: listPageJson(JSON.stringify([scope, query.limit, query.next_token ?? '']), records, page.nextToken),
    explanations: [`query mode ${mode}: ${matching} matching, ${records.length} on this page${page.nextToken === null ? ', last page' : ''}`],
  };
}

/** The records of an index read, lazily, checked against the query (the index already narrows to it); each one yielded is noted in `listed`. */
function* listedRecords(
  stored: Iterable<StoredSession>,
  belongs: (record: SessionRecord) => boolean,
  listed: Map<string, StoredSession>,
): Iterable<SessionRecord> {
  for (const session of stored) {
    if (!belongs(session.record)) continue;
    listed.set(session.id, session);
    yield session.record;
  }
}

export function listSandboxSessions(organizationId: string): Explained<SessionListResponse> {
  return {
    value: sandboxSessionList(organizationId),
    explanations: ['sandbox key: the five synthetic sessions (test_verified, test_rejected, test_pending, test_submitted, test_voided)'],
  };
}

// ─── GET /v1/sessions/{id} ──────────────────────────────────────────────────────────────────────────

export function getSession(world: World, organizationId: string, id: string, links: LinkContext): Explained<SingleSessionResponse> {
  const { stored, answer } = ownSessionRead(world, organizationId, id, links.urls);
  const explanations: string[] = [];
  // The clock moves while nothing changes: the expiry is asked on every read.
  const expiry = expiryExplanation(stored.record, world.clock.now());
  if (expiry !== undefined) explanations.push(expiry);
  return { value: answer, explanations };
}

interface SessionRead {
  id: string;
  organizationId: string;
  urls: SessionUrls;
  /** The namespace's change count when the session was read (its uploads and the answer depend on nothing else). */
  changes: number;
  stored: StoredSession;
  answer: SingleSessionResponse;
}

/**
 * The last read of one session per namespace: a client polls one session while nothing in its namespace
 * changes (an arrived upload, a retention purge and every other write count), and is answered from it
 * without the session, its uploads and the kept answer being looked up again.
 */
const lastReads = new WeakMap<object, SessionRead>();

function ownSessionRead(world: World, organizationId: string, id: string, urls: SessionUrls): SessionRead {
  const last = lastReads.get(world.data);
  if (last !== undefined && last.id === id && last.organizationId === organizationId && last.urls === urls && last.changes === world.data.changes) return last;
  const stored = requireOwnSession(world, organizationId, id);
  const read = { id, organizationId, urls, changes: world.data.changes, stored, answer: singleSessionAnswer(world, stored, urls) };
  lastReads.set(world.data, read);
  return read;
}

/**
 * A session's answer, kept while nothing in its namespace changed (the same mechanism as the lists): the
 * key names the session and the link origin, the scope its namespace, which are all the answer depends on.
 * A polled session is then sent as kept bytes (`shareJson`) instead of its links (an HMAC) and JSON being
 * built again on every read.
 */
const sessionAnswers = new AnswersWhileUnchanged<SingleSessionResponse>(1024);

function singleSessionAnswer(world: World, stored: StoredSession, urls: SessionUrls): SingleSessionResponse {
  return sessionAnswers.get(
    world.data,
    () => world.data.changes,
    `${stored.id}\0${urls.base}\0${urls.verify}\0${urls.console}`,
    () => shareJson(toSingleSessionResponse(stored.record, stored.user, stored.senderUser, urls, { scope: world })),
  );
}

export function getSandboxSession(id: string, organizationId: string, urls: SessionUrls): Explained<SingleSessionResponse> {
  const answer = sandboxSessionFor(id, organizationId, urls);
  return { value: answer.body, explanations: [answer.explanation] };
}

function expiryExplanation(record: SessionRecord, nowMs: number): string | undefined {
  if (!isExpired(record, nowMs)) return undefined;
  return `session ${record.id} expired at ${record.expires_at as string} (sandbox clock); status stays PENDING on the API, the hosted page redirects with status expired, reason session_expired`;
}

// ─── PATCH /v1/sessions/{id}/update-status ──────────────────────────────────────────────────────────

export function updateSessionStatus(world: World, organizationId: string, id: string, newStatus: 'VERIFIED' | 'REJECTED'): Explained<SessionRecord> {
  const stored = requireOwnSession(world, organizationId, id);
  const result = transition(stored.record, updateStatusEvent(newStatus), world.clock.iso());
  const saved = settle(world, stored, result);
  return { value: saved.record, explanations: [result.ok ? result.explanation : ''], facts: transitionFacts(result) };
}

// ─── POST /v1/sessions/{id}/uploads ─────────────────────────────────────────────────────────────────

export type SessionPresign = (owner: string, file: UploadFileRequest) => { fileKey: string; uploadUrl: string };

export function createSessionUploads(
  world: World,
  organizationId: string,
  id: string,
  files: readonly UploadFileRequest[],
  presign: SessionPresign,
): Explained<SessionUploadsResponse> {
  const stored = requireOwnSession(world, organizationId, id);
  const refusal = uploadsRefusal(stored.record, world.clock.iso());
  // The service's code for a session that takes nothing more (the iOS client reads `code` and `current_step`).
  if (refusal !== undefined) throw workflowError('SESSION_TERMINAL', `${refusal.message}.`, { current_step: null });
  const value = buildSignedUploads(files, (file) => presign(sessionUploadOwner(id), file));
  return {
    value,
    explanations: [
      `${files.length} upload URL(s) for slots ${files.map((f) => f.slot).join(', ')}; named slots flip the record's uploads flags once the bytes arrive`,
    ],
  };
}

// ─── Driving the state machine ──────────────────────────────────────────────────────────────────────

function outcomeContext(world: World, stored: StoredSession, autoDecline: boolean): OutcomeContext {
  const context: OutcomeContext = {
    nowIso: world.clock.iso(),
    user: stored.user,
    autoDecline,
    seedParts: [world.seed],
  };
  if (stored.maxFailedAttempts !== undefined) context.maxFailedAttempts = stored.maxFailedAttempts;
  if (stored.documents !== undefined) context.documents = stored.documents;
  if (stored.openedAt !== undefined) context.viewedAtIso = stored.openedAt;
  return context;
}

/**
 * Saves a successful move (or throws the machine's refusal as 409). When the move recorded the run's
 * analysis (the applicant finished, or the AI declined), analysis_data is that analysis with what other
 * operations attached (e.g. phone checks) and the analysis given at creation laid over it; a
 * credit-check session gets no ID analysis, only those.
 */
function settle(world: World, stored: StoredSession, result: TransitionResult): StoredSession {
  if (!result.ok) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_MOVE_NOT_POSSIBLE', { reason: result.message });
  if (!result.changed) return stored;
  let record = result.record;
  const analysed = record.analysis_data !== undefined && JSON.stringify(record.analysis_data) !== JSON.stringify(stored.record.analysis_data);
  if (analysed) {
    const run = stored.record.type === 'session' ? (record.analysis_data as Record<string, unknown>) : {};
    const analysis = recordedAnalysis(stored, run);
    const { analysis_data: _replaced, ...rest } = record;
    record = analysis === undefined ? rest : { ...rest, analysis_data: analysis as SessionRecord['analysis_data'] };
  }
  return saveSession(world, { ...stored, record });
}

/** A headless workflow session's move (open, failed attempt, submit, verify): the machine's refusal is a 409. */
export function applyWorkflowSessionEvent(world: World, stored: StoredSession, event: SessionEvent): Explained<StoredSession> {
  const result = transition(stored.record, event, world.clock.iso());
  const saved = settle(world, stored, result);
  return { value: saved, explanations: [result.ok ? result.explanation : ''], facts: transitionFacts(result) };
}

/**
 * POST /__sandbox/sessions/{id}/outcome: any organization's session of the namespace. A finish offers
 * the uploaded selfie to the face registry (session-face.ts).
 */
export async function driveSessionOutcome(
  world: World,
  id: string,
  body: SessionOutcomeBody,
  autoDecline: boolean,
  uploads: UploadStore,
): Promise<Explained<SessionOutcomeResponse>> {
  const stored = findSession(world, id);
  if (stored === undefined) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_TO_DRIVE_NOT_FOUND', { id, namespace: world.namespace });
  const result = applyControlOutcome(stored.record, body, outcomeContext(world, stored, autoDecline));
  const saved = settle(world, stored, result);
  const explanation = result.ok ? result.explanation : '';
  const face = await enrolFinishedSessionFace(world, uploads, saved);
  return {
    value: {
      session_record: saved.record,
      from: stored.record.status,
      to: saved.record.status,
      display_status: displayStatus(saved.record, world.clock.now()),
      explanation,
    },
    explanations: face === undefined ? [explanation] : [explanation, face],
    facts: transitionFacts(result),
  };
}

// ─── The applicant's hosted page ────────────────────────────────────────────────────────────────────

/** The session behind a hosted page, or undefined (unknown, or the oid names another organization). */
export function findHostedSession(world: World, id: string, oid: string | undefined): StoredSession | undefined {
  const stored = findSession(world, id);
  if (stored === undefined || (oid !== undefined && oid !== stored.record.organization_id)) return undefined;
  return stored;
}

/** The applicant opens the page: session_progress PENDING → STARTED (nothing for a finished or expired one). */
export function openHostedPage(world: World, stored: StoredSession): Explained<StoredSession> {
  const result = transition(stored.record, { type: 'open' }, world.clock.iso());
  if (!result.ok || !result.changed) return { value: stored, explanations: [] };
  return { value: saveSession(world, { ...stored, record: result.record, openedAt: world.clock.iso() }), explanations: [], facts: transitionFacts(result) };
}

export interface ApplicantOutcomeAnswer {
  stored: StoredSession;
  redirect: { status: RedirectStatus; reason?: RedirectReason };
}

/**
 * The applicant picks an outcome on the page; ApiError 409 when the session no longer allows it. A finish
 * offers the uploaded selfie to the face registry (session-face.ts).
 */
export async function submitApplicantOutcome(
  world: World,
  stored: StoredSession,
  outcome: ApplicantOutcome,
  autoDecline: boolean,
  uploads: UploadStore,
): Promise<Explained<ApplicantOutcomeAnswer>> {
  const { result, redirect } = applyApplicantOutcome(stored.record, outcome, outcomeContext(world, stored, autoDecline));
  const saved = settle(world, stored, result);
  const scenario = autoDecline && outcome === 'success' && saved.record.status === 'REJECTED' ? 'scenario auto-decline: ' : '';
  const face = stored.record.status === saved.record.status ? undefined : await enrolFinishedSessionFace(world, uploads, saved);
  return {
    value: { stored: saved, redirect },
    explanations: [`${scenario}${result.ok ? result.explanation : ''}${face === undefined ? '' : `; ${face}`}`],
    facts: transitionFacts(result),
  };
}
