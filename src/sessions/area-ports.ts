/**
 * The sessions area's side of the ports the areas below it declare (screening, deepfake, financial, workflows):
 * what they need of a session, answered from this area's records. This area's entry in src/modules.ts
 * lists them (`provides`); the area loader loads this module when an area that needs one is first used.
 */
import type { DeepfakeSessions } from '../deepfake/api.ts';
import type { ApplicantIds } from '../financial/api.ts';
import type { ScreeningSessions } from '../screening/api.ts';
import { stepCode, workflowById, type WorkflowSessions } from '../workflows/api.ts';
import { isExpired, isTerminal } from './session.machine.ts';
import { applicantUserIdFor, senderUserIdFor } from './session-record.ts';
import { applyWorkflowSessionEvent, SESSION_PRICE_TOKENS } from './sessions.service.ts';
import { createSessionRecord, findSession, patchAnalysisData, recordStepResults, requireOwnSession, type StoredSession } from './sessions.store.ts';

export const sessionsForScreening: ScreeningSessions = {
  requireApplicant(world, organizationId, sessionId) {
    const { id, user } = requireOwnSession(world, organizationId, sessionId);
    return { id, phone: user.phone, firstName: user.first_name, lastName: user.last_name };
  },
  workflowStepCodes(world, organizationId, sessionId) {
    const { record } = requireOwnSession(world, organizationId, sessionId);
    const stepIds =
      record.workflow_steps ??
      (record.workflow_id !== undefined ? workflowById(world, organizationId, record.workflow_id)?.steps.map((step) => step.id) : undefined) ??
      [];
    return stepIds.map(stepCode);
  },
  attachAnalysis(world, sessionId, path, value, nowIso) {
    patchAnalysisData(world, sessionId, path, value, nowIso);
  },
};

export const sessionsForDeepfake: DeepfakeSessions = {
  organizationOf: (world, sessionId) => findSession(world, sessionId)?.record.organization_id,
};

export const applicantIdsForFinancial: ApplicantIds = { applicantUserIdFor, senderUserIdFor };

/** The step engine's sessions: a run's session is read, written and moved by this area's store and machine. */
export const sessionsForWorkflows: WorkflowSessions = {
  priceTokens: SESSION_PRICE_TOKENS,
  createHeadless: (world, organization, workflow, input, nowIso) =>
    createSessionRecord(world, {
      organization,
      type: 'session',
      input: { ...input, workflowId: workflow.id, sendEmailInvite: false, sendPhoneInvite: false },
      workflow,
      nowIso,
    }),
  find: findSession,
  requireOwn: requireOwnSession,
  recordStepResults,
  // Every session the engine moves came from this port: the stored session it read.
  move: (world, session: StoredSession, event) => applyWorkflowSessionEvent(world, session, event),
  isTerminal,
  isExpired,
};
