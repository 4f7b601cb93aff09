/**
 * What the workflows area's step engine needs of the session a run belongs to (the sessions area, above
 * this one): create a headless session, find one, record a step's results on it and move it through the
 * session machine. Declared here, provided by the sessions area (its entry in src/modules.ts), so workflows never
 * imports sessions and a session record is written by its own area only.
 */
import { declarePort } from '../platform/platform.ts';
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import type { Explained } from '../platform/explained.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { FailureReason, FailureSlot, SessionProgress, SessionStatus } from './session-results.ts';
import type { WorkflowRecord } from './workflows.store.ts';

/** The parts of a stored session a run reads. */
export interface RunSession {
  id: string;
  user: { first_name: string; last_name: string; email?: string; phone?: string };
  record: {
    id: string;
    organization_id: string;
    status: SessionStatus;
    session_progress: SessionProgress;
    expires_at?: string;
    workflow_id?: string;
    external_id?: string;
    bank_statement_request_id?: string;
    meta_data?: { failureData?: { failedAttempts: number } };
  };
}

/** The applicant of a headless session (POST /v1/workflows/{id}/sessions, validated). */
export interface HeadlessApplicant {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  externalId?: string;
  expiresInHours?: number;
}

/** The session machine's moves a run makes: open, finish (submit then verify), end the run, count a failed attempt. */
export type RunSessionEvent =
  | { type: 'open' }
  | { type: 'submit' }
  | { type: 'verify' }
  | {
      type: 'auto_decline';
      declinedData: { declined: boolean; score: number; declinedAt: string; reason: { code: string; detail: string; slot: string; severity: string } };
    }
  | { type: 'attempt_failed'; attempt: { reason: FailureReason; slot: FailureSlot }; maxFailedAttempts: number };

export interface WorkflowSessions {
  /** The tokens a session costs its organization. */
  readonly priceTokens: number;
  /** A headless session of the workflow (no invitation sent), stored. */
  createHeadless(world: World, organization: OrganizationFixture, workflow: WorkflowRecord, applicant: HeadlessApplicant, nowIso: string): RunSession;
  find(world: World, sessionId: string): RunSession | undefined;
  /** The organization's session: 404 for an unknown session, 403 for another organization's. */
  requireOwn(world: World, organizationId: string, sessionId: string): RunSession;
  /** Writes a step's analysis_data members and turns the upload flags of the slots it used (a repeat overwrites). */
  recordStepResults(world: World, sessionId: string, analysis: Record<string, unknown>, uploadedSlots: readonly string[], nowIso: string): RunSession;
  /** The session moved by the event (saved), what the move did, and its facts. */
  move(world: World, session: RunSession, event: RunSessionEvent): Explained<RunSession>;
  isTerminal(status: SessionStatus): boolean;
  /** A PENDING session past its expires_at. */
  isExpired(record: RunSession['record'], nowMs: number): boolean;
}

export const workflowSessions = declarePort<WorkflowSessions>('workflows → sessions');
