/**
 * The sessions area's side of the ports the areas below it declare (screening, deepfake, financial):
 * what they need of a session, answered from this area's records. src/modules.ts provides them.
 */
import type { DeepfakeSessions } from '../deepfake/api.ts';
import type { ApplicantIds } from '../financial/api.ts';
import type { ScreeningSessions } from '../screening/api.ts';
import { stepCode, workflowById } from '../workflows/api.ts';
import { applicantUserIdFor, senderUserIdFor } from './session-record.ts';
import { findSession, patchAnalysisData, requireOwnSession } from './sessions.store.ts';

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
