/**
 * The stored state of hosted sessions, and the contract other areas import (credit checks create their
 * sessions here; screening writes phone checks into a session's analysis_data; workflow steps read it).
 *
 * One record per session in the namespace's 'sessions' collection: the session record as the API shows
 * it, the applicant's and the sender's profiles, and what the sandbox needs to finish it like a real run
 * (the workflow's failed-attempt limit and document count, analysis to record at the finish).
 *
 * Uploads: POST /v1/sessions/{id}/uploads presigns through the platform upload store with the purpose
 * `session:<id>:<slot>`. The record's `uploads` flags are brought up to date whenever the session is read
 * here (findSession): a named slot whose bytes arrived while the session was open turns true, and
 * updated_at moves to the arrival instant. No platform hook is needed.
 *
 * LIMITATIONS:
 * - The applicant's profile is stored with each session (one profile per session, even when the same
 *   e-mail address gets several sessions and so the same user_id).
 * - A PUT that lands after the session ended or expired is stored by the upload store but never flips a
 *   flag (the upload store cannot refuse it without a platform hook).
 */
import { codedError } from '../platform/errors/error-codes.ts';
import { SESSIONS_ERROR_CODES } from './sessions.errors.ts';
import type { World } from '../platform/namespaces/world.ts';
import { uploadsOwnedBy } from '../platform/uploads/uploads.ts';
import { documentsRequired, sessionUploadOwner, type WorkflowRecord } from '../workflows/api.ts';
import { isTerminal } from './session.machine.ts';
import { applicantUserIdFor, buildApplicantUser, buildSenderUser, buildSessionRecord, markUploaded, type SessionWorkflowInfo } from './session-record.ts';
import type { CreateSessionInput, SessionRecord, SessionType, StoredUserProfile } from './sessions.schemas.ts';

export interface StoredSession {
  /** The session id (= record.id). */
  id: string;
  record: SessionRecord;
  /** The applicant (GET's `user`). */
  user: StoredUserProfile;
  /** The organization's sender (GET's `sender_user`). */
  senderUser: StoredUserProfile;
  /** Which invitations went out at creation (sandbox bookkeeping, not on the wire). */
  invitations: { email: boolean; sms: boolean };
  /** When the applicant first opened the hosted page (meta_data.applicantViewTime of the submission). */
  openedAt?: string;
  /** The workflow's failed-attempt limit (the machine's default 3 when absent). */
  maxFailedAttempts?: number;
  /** How many ID documents the workflow asks for. */
  documents?: 1 | 2 | 3;
  /**
   * analysis_data members recorded when the applicant finishes (merged over the ID analysis of a
   * workflow session; the whole analysis_data of a credit-check session).
   */
  finishAnalysis?: Record<string, unknown>;
  /**
   * What other operations attached to analysis_data (patchAnalysisData, e.g. phone checks), path by
   * path: laid again over the run's own analysis when it is recorded at the finish.
   */
  attachedAnalysis?: AttachedAnalysis[];
}

export interface AttachedAnalysis {
  path: string[];
  value: unknown;
}

export const SESSION_INDEXES = {
  byOrganization: 'byOrganization',
  byOrganizationExternalId: 'byOrganizationExternalId',
  byOrganizationWorkflow: 'byOrganizationWorkflow',
  byOrganizationSender: 'byOrganizationSender',
} as const;

/** The key of the compound indexes: `sessionIndexKey(organizationId, value)`. */
export function sessionIndexKey(organizationId: string, value: string): string {
  return `${organizationId}\u0000${value}`;
}

const byCreation = { orderBy: (s: StoredSession) => Date.parse(s.record.created_at) };

/**
 * The namespace's sessions, indexed by organization and by organization + external_id / workflow_id /
 * sender, each bucket ordered by creation instant (the lists' keyset order).
 */
export function sessions(world: World) {
  return world.data
    .collection<StoredSession>('sessions')
    .index(SESSION_INDEXES.byOrganization, (s) => s.record.organization_id, byCreation)
    .index(
      SESSION_INDEXES.byOrganizationExternalId,
      (s) => (s.record.external_id === undefined ? undefined : sessionIndexKey(s.record.organization_id, s.record.external_id)),
      byCreation,
    )
    .index(
      SESSION_INDEXES.byOrganizationWorkflow,
      (s) => (s.record.workflow_id === undefined ? undefined : sessionIndexKey(s.record.organization_id, s.record.workflow_id)),
      byCreation,
    )
    .index(SESSION_INDEXES.byOrganizationSender, (s) => sessionIndexKey(s.record.organization_id, s.record.sender_user_id), byCreation);
}

// ─── Uploads of a session ───────────────────────────────────────────────────────────────────────────

export { sessionUploadOwner };

/** The session with the flags of slots whose bytes arrived while it was open turned true (and saved). */
export function withArrivedUploads(world: World, stored: StoredSession): StoredSession {
  if (isTerminal(stored.record.status)) return stored;
  let record = stored.record;
  const closesAtMs = record.expires_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(record.expires_at);
  for (const upload of uploadsOwnedBy(world, sessionUploadOwner(stored.id))) {
    if (upload.uploadedAtMs === undefined || upload.uploadedAtMs >= closesAtMs || upload.organizationId !== record.organization_id) continue;
    const slot = upload.slot ?? '';
    const arrivedIso = world.clock.iso(upload.uploadedAtMs);
    record = markUploaded(record, slot, arrivedIso > record.updated_at ? arrivedIso : record.updated_at);
  }
  return record === stored.record ? stored : saveSession(world, { ...stored, record });
}

// ─── Reads and writes ───────────────────────────────────────────────────────────────────────────────

/** The stored session (uploads flags brought up to date), or undefined. Any organization. */
export function findSession(world: World, id: string): StoredSession | undefined {
  const stored = sessions(world).get(id);
  return stored === undefined ? undefined : withArrivedUploads(world, stored);
}

/** The organization's sessions with this external_id, oldest first (AML: an external_id is a known subject). */
export function sessionsWithExternalId(world: World, organizationId: string, externalId: string): StoredSession[] {
  return sessions(world).where(SESSION_INDEXES.byOrganizationExternalId, sessionIndexKey(organizationId, externalId));
}

/** The organization's session, or ApiError 404 (unknown) / 403 (another organization's). */
export function requireOwnSession(world: World, organizationId: string, id: string): StoredSession {
  const stored = findSession(world, id);
  if (stored === undefined) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_NOT_FOUND', { id });
  if (stored.record.organization_id !== organizationId) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_OF_ANOTHER_ORGANIZATION', { id });
  return stored;
}

/** Writes the session (a new object: stored records are never mutated). */
export function saveSession(world: World, stored: StoredSession): StoredSession {
  if (stored.id !== stored.record.id) throw new Error(`stored session ${stored.id} holds record ${stored.record.id}`);
  return sessions(world).put(stored);
}

/**
 * Sets analysis_data at a nested path (e.g. ['phone_checks', 'ownership']) without touching the rest,
 * and moves updated_at to `nowIso`. ApiError 404 for an unknown session.
 */
export function patchAnalysisData(world: World, id: string, path: readonly string[], value: unknown, nowIso: string): StoredSession {
  if (path.length === 0) throw new Error('patchAnalysisData needs a non-empty path');
  const stored = findSession(world, id);
  if (stored === undefined) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_TO_RECORD_ON_NOT_FOUND', { id });
  const analysis = setIn((stored.record.analysis_data ?? {}) as Record<string, unknown>, path, value);
  return saveSession(world, {
    ...stored,
    record: { ...stored.record, analysis_data: analysis as SessionRecord['analysis_data'], updated_at: nowIso },
    attachedAnalysis: [...(stored.attachedAnalysis ?? []).filter((entry) => !samePath(entry.path, path)), { path: [...path], value: structuredClone(value) }],
  });
}

/**
 * What a headless workflow step found: analysis_data members set (each replaces the member of the same
 * name, and is kept when the run's analysis is recorded at the finish) and the uploads flags of the slots
 * it read turned true. ApiError 404 for an unknown session.
 */
export function recordStepResults(world: World, id: string, analysis: Record<string, unknown>, slots: readonly string[], nowIso: string): StoredSession {
  let stored = findSession(world, id);
  if (stored === undefined) throw codedError(SESSIONS_ERROR_CODES, 'SESSION_TO_RECORD_ON_NOT_FOUND', { id });
  for (const [member, value] of Object.entries(analysis)) stored = patchAnalysisData(world, id, [member], value, nowIso);
  const record = slots.reduce((current, slot) => markUploaded(current, slot, nowIso), stored.record);
  return record === stored.record ? stored : saveSession(world, { ...stored, record });
}

const samePath = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * The analysis_data a run records: `runAnalysis` (the run's own), then what other operations attached,
 * path by path, then the analysis given at creation (member by member). Undefined when empty.
 */
export function recordedAnalysis(stored: StoredSession, runAnalysis: Record<string, unknown>): Record<string, unknown> | undefined {
  let analysis = structuredClone(runAnalysis);
  for (const entry of stored.attachedAnalysis ?? []) analysis = setIn(analysis, entry.path, entry.value);
  analysis = { ...analysis, ...structuredClone(stored.finishAnalysis ?? {}) };
  return Object.keys(analysis).length > 0 ? analysis : undefined;
}

function setIn(target: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...target, [head]: structuredClone(value) };
  const child = target[head];
  const base = typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as Record<string, unknown>) : {};
  return { ...target, [head]: setIn(base, rest, value) };
}

// ─── Creation ───────────────────────────────────────────────────────────────────────────────────────

export interface CreateSessionRecordInput {
  organization: { id: string; name?: string };
  type: SessionType;
  /** The applicant and the options of the create request (normalized camelCase). */
  input: Pick<CreateSessionInput, 'firstName' | 'lastName' | 'email' | 'phone' | 'externalId' | 'redirectUrl' | 'expiresInHours' | 'workflowId'> & {
    sendEmailInvite?: boolean;
    sendPhoneInvite?: boolean;
  };
  /** The session's workflow (already looked up for the organization). */
  workflow?: WorkflowRecord;
  nowIso: string;
  bankStatementRequestId?: string;
  /** analysis_data members to record when the applicant finishes (see StoredSession.finishAnalysis). */
  analysis?: Record<string, unknown>;
}

/**
 * Stores a new PENDING session of any type (POST /v1/sessions, the credit checks) with its applicant and
 * sender profiles, and returns it. Billing is the caller's (requireFunds before, charge after).
 */
export function createSessionRecord(world: World, request: CreateSessionRecordInput): StoredSession {
  const { organization, input, workflow, nowIso } = request;
  const id = world.uuid();
  const userId = applicantUserIdFor(organization.id, input.email, world.seed);
  const senderUser = buildSenderUser(organization.id, organization.name);
  const workflowInfo: SessionWorkflowInfo | undefined =
    workflow === undefined
      ? undefined
      : {
          id: workflow.id,
          stepIds: workflow.steps.map((step) => step.id),
          ...(workflow.settings?.expires_in_hours === undefined ? {} : { expiresInHours: workflow.settings.expires_in_hours }),
        };
  const record = buildSessionRecord({
    id,
    organizationId: organization.id,
    userId,
    senderUserId: senderUser.id,
    type: request.type,
    body: input,
    ...(workflowInfo === undefined ? {} : { workflow: workflowInfo }),
    ...(request.bankStatementRequestId === undefined ? {} : { bankStatementRequestId: request.bankStatementRequestId }),
    nowIso,
  });
  const stored: StoredSession = {
    id,
    record,
    user: buildApplicantUser({ id: userId, person: input, nowIso }),
    senderUser,
    invitations: {
      email: input.sendEmailInvite ?? true,
      sms: (input.sendPhoneInvite ?? true) && input.phone !== undefined,
    },
  };
  if (workflow?.settings?.max_failed_attempts !== undefined) stored.maxFailedAttempts = workflow.settings.max_failed_attempts;
  if (workflow !== undefined) stored.documents = documentsRequired(workflow);
  if (request.analysis !== undefined) stored.finishAnalysis = structuredClone(request.analysis);
  return saveSession(world, stored);
}
