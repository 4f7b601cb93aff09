/**
 * The sessions area's verbs for the areas above it (age verification, credit checks, AML, iGaming, the
 * console): they create hosted sessions of their own types and read sessions through these, never through
 * sessions.store.ts. Billing and invitations stay the caller's.
 */
import type { World } from '../platform/namespaces/world.ts';
import { type UploadRecord, uploadsOwnedBy } from '../platform/uploads/uploads.ts';
import {
  type CreateSessionRecordInput,
  createSessionRecord,
  findSession,
  saveSession,
  sessions,
  sessionsWithExternalId,
  sessionUploadOwner,
  type StoredSession,
} from './sessions.store.ts';

/** Stores a new PENDING session of the request's type with its applicant and sender, and returns it. */
export function createSession(world: World, request: CreateSessionRecordInput): StoredSession {
  return createSessionRecord(world, request);
}

/**
 * Sets the analysis_data a session shows once the applicant finishes: for a session whose analysis is seeded
 * by its own id (a credit check's persona and report), known only once it exists.
 */
export function recordFinishAnalysis(world: World, session: StoredSession, analysis: Record<string, unknown>): StoredSession {
  return saveSession(world, { ...session, finishAnalysis: analysis });
}

/** The session (its uploads' flags brought up to date), or undefined. Any organization. */
export function sessionById(world: World, id: string): StoredSession | undefined {
  return findSession(world, id);
}

/** The organization's sessions with this external_id, oldest first. */
export function sessionsByExternalId(world: World, organizationId: string, externalId: string): StoredSession[] {
  return sessionsWithExternalId(world, organizationId, externalId);
}

/** Every session of the namespace, as stored (the console's lists). */
export function allSessions(world: World): StoredSession[] {
  return sessions(world).all();
}

/** The uploads of a session, whoever presigned them. */
export function sessionUploads(world: World, sessionId: string): UploadRecord[] {
  return uploadsOwnedBy(world, sessionUploadOwner(sessionId));
}
