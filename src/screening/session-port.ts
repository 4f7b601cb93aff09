/**
 * What the screening area needs of a hosted session (the sessions area, above this one): a phone check
 * given a sessionId fills in the session's applicant, is free when the session's workflow has the check's
 * step, and attaches its result to the session. Provided by the sessions area (its entry in src/modules.ts).
 */
import { declarePort } from '../platform/platform.ts';
import type { World } from '../platform/namespaces/world.ts';

export interface SessionApplicant {
  id: string;
  phone: string | undefined;
  firstName: string;
  lastName: string;
}

export interface ScreeningSessions {
  /** The organization's session's applicant: 404 for an unknown session, 403 for another organization's. */
  requireApplicant(world: World, organizationId: string, sessionId: string): SessionApplicant;
  /** The session's workflow steps as step codes (PHONE_TRUST_CHECK), from the session record or its workflow. */
  workflowStepCodes(world: World, organizationId: string, sessionId: string): string[];
  /** Writes a check's result into the session's analysis_data at `path` (a repeat overwrites). */
  attachAnalysis(world: World, sessionId: string, path: readonly string[], value: unknown, nowIso: string): void;
}

export const screeningSessions = declarePort<ScreeningSessions>('screening → sessions');
