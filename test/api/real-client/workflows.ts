/**
 * The real client's workflows and workflowSessions modules (real-client-facts §6.8, §6.9), from that page
 * ONLY: the response schemas it validates and the wire bodies it sends, on top of RealClient's transport.
 * Nothing here is imported from src/. Semantics as in ./schemas.ts (strip objects; "opt" = optional
 * without null; "nullable" = key required), except the step-submit response, which the client parses as
 * a loose object and hands every extra key to the caller as `payload`.
 */
import { z } from 'zod';
import type { RealClient } from './client.ts';

const str = z.string();
const count = z.number().int().min(0);
const anyObject = z.record(z.string(), z.unknown());

/** The client's step-id enum (21 values). */
export const CLIENT_STEP_IDS = [
  'ID_VERIFICATION',
  'FACE_LIVENESS',
  'FACE_LIVENESS_CONSENT_SETTINGS',
  'AGE_ESTIMATION',
  'DEEPFAKE_DETECTION',
  'DEEP_AGE',
  'ADDRESS_VERIFICATION',
  'BACKGROUND_CHECK',
  'TITLE_SEARCH',
  'PEP_SANCTIONS',
  'ADVERSE_MEDIA',
  'CUSTOM_PROMPT',
  'CONSENT',
  'BANK_STATEMENT_UPLOAD',
  'AI_BANK_STATEMENT_ANALYSIS',
  'DOCUMENT_UPLOAD',
  'WHITE_LABEL',
  'PHONE_TRUST_CHECK',
  'CARRIER_AGE_GATE',
  'PHONE_OWNERSHIP_MATCH',
  'PHONE_VERIFICATION',
] as const;
export type ClientStepId = (typeof CLIENT_STEP_IDS)[number];

const StepStatusSchema = z.enum(['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'SKIPPED']);

// ─── §6.8 Workflows ─────────────────────────────────────────────────────────────────────────────────

export const WorkflowSchema = z.object({
  id: str,
  name: str,
  status: str,
  organization_id: str,
  created_at: str,
  updated_at: str,
  steps: z.array(z.object({ id: str, config: anyObject })),
});

export const WorkflowResponseSchema = z.object({ workflow: WorkflowSchema });

export const WorkflowListResponseSchema = z.object({
  workflows: z.array(z.object({ id: str, name: str, status: str, steps: z.array(str), created_at: str })),
});

export const WorkflowSessionResponseSchema = z.object({
  session_id: str,
  expires_at: str.nullable(),
  steps: z.array(z.object({ step_id: str, status: StepStatusSchema, requirements: anyObject })),
  current_step: count,
});

// ─── §6.9 Workflow sessions ─────────────────────────────────────────────────────────────────────────

export const WorkflowStateSchema = z.object({
  session_id: str,
  status: str,
  session_progress: str,
  steps: z.array(
    z.object({
      step_id: str,
      status: StepStatusSchema,
      attempts: count,
      started_at: str.nullable(),
      completed_at: str.nullable(),
      failure_reason: str.nullable(),
      requirements: anyObject,
    }),
  ),
  current_step: count.nullable(),
  attempts_remaining: count.nullable(),
});

export const StepSubmitResponseSchema = z.looseObject({
  step_id: str,
  step_status: StepStatusSchema,
  failure_reason: str.nullable(),
  current_step: count.nullable(),
  attempts_remaining: count.nullable(),
  session_status: str,
  session_progress: str,
});

const ENVELOPE_KEYS = ['step_id', 'step_status', 'failure_reason', 'current_step', 'attempts_remaining', 'session_status', 'session_progress'];

// ─── Request shapes ─────────────────────────────────────────────────────────────────────────────────

export interface CreateWorkflowInput {
  name: string;
  steps: { id: ClientStepId; config?: Record<string, unknown> }[];
}

export interface CreateWorkflowSessionInput {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  externalId?: string;
  expiresInHours?: number;
}

export interface IdVerificationInput {
  documentType: string;
  secondaryDocumentType?: string;
  tertiaryDocumentType?: string;
  uploads: {
    idFront: string;
    idBack?: string;
    secondaryIdFront?: string;
    secondaryIdBack?: string;
    tertiaryIdFront?: string;
    tertiaryIdBack?: string;
    selfieFront: string;
  };
}

export type FaceLivenessInput =
  | { action: 'start' }
  | { action: 'complete' }
  | { action: 'upload-url'; frameCount: number; clipMimeType?: 'video/webm' | 'video/mp4' };

/** The snake_case wire body of a headless step (only the known keys: the client refuses others locally). */
function stepBody(stepId: 'ID_VERIFICATION' | 'FACE_LIVENESS', input: IdVerificationInput | FaceLivenessInput): Record<string, unknown> {
  if (stepId === 'FACE_LIVENESS') {
    const liveness = input as FaceLivenessInput;
    return liveness.action === 'upload-url'
      ? { action: 'upload-url', frame_count: liveness.frameCount, clip_mime_type: liveness.clipMimeType }
      : { action: liveness.action };
  }
  const id = input as IdVerificationInput;
  const u = id.uploads;
  return {
    document_type: id.documentType,
    secondary_document_type: id.secondaryDocumentType,
    tertiary_document_type: id.tertiaryDocumentType,
    uploads: {
      id_front: u.idFront,
      id_back: u.idBack,
      secondary_id_front: u.secondaryIdFront,
      secondary_id_back: u.secondaryIdBack,
      tertiary_id_front: u.tertiaryIdFront,
      tertiary_id_back: u.tertiaryIdBack,
      selfie_front: u.selfieFront,
    },
  };
}

/** `client.workflows` and `client.workflowSessions` of the real client, over a RealClient's transport. */
export function workflowsAndSessions(client: RealClient) {
  const enc = encodeURIComponent;
  return {
    workflows: {
      list: () => client.request({ operation: 'workflows.list', method: 'GET', path: '/v1/workflows', schema: WorkflowListResponseSchema }),
      create: (input: CreateWorkflowInput) =>
        client.request({
          operation: 'workflows.create',
          method: 'POST',
          path: '/v1/workflows',
          body: { name: input.name, steps: input.steps },
          schema: WorkflowResponseSchema,
        }),
      retrieve: (id: string) =>
        client.request({ operation: 'workflows.retrieve', method: 'GET', path: `/v1/workflows/${enc(id)}`, schema: WorkflowResponseSchema }),
      updateStepConfig: (workflowId: string, stepId: ClientStepId, config: Record<string, unknown>) =>
        client.request({
          operation: 'workflows.updateStepConfig',
          method: 'PATCH',
          path: `/v1/workflows/${enc(workflowId)}/steps/${enc(stepId)}/config`,
          body: { config },
          schema: WorkflowResponseSchema,
        }),
      createSession: (workflowId: string, input: CreateWorkflowSessionInput) =>
        client.request({
          operation: 'workflows.createSession',
          method: 'POST',
          path: `/v1/workflows/${enc(workflowId)}/sessions`,
          body: {
            email: input.email,
            first_name: input.firstName,
            last_name: input.lastName,
            phone: input.phone,
            external_id: input.externalId,
            expires_in_hours: input.expiresInHours,
          },
          schema: WorkflowSessionResponseSchema,
        }),
    },
    workflowSessions: {
      retrieve: (sessionId: string) =>
        client.request({ operation: 'workflowSessions.retrieve', method: 'GET', path: `/v1/sessions/${enc(sessionId)}/workflow`, schema: WorkflowStateSchema }),
      start: (sessionId: string) =>
        client.request({
          operation: 'workflowSessions.start',
          method: 'POST',
          path: `/v1/sessions/${enc(sessionId)}/workflow/start`,
          body: {},
          schema: WorkflowStateSchema,
        }),
      /** The seven envelope keys as `data`, every other top-level key as `payload` (the client's loose parse). */
      submitStep: async (sessionId: string, stepId: 'ID_VERIFICATION' | 'FACE_LIVENESS', input: IdVerificationInput | FaceLivenessInput) => {
        const answer = await client.request({
          operation: 'workflowSessions.submitStep',
          method: 'POST',
          path: `/v1/sessions/${enc(sessionId)}/steps/${enc(stepId)}`,
          body: stepBody(stepId, input),
          schema: StepSubmitResponseSchema,
        });
        const payload = Object.fromEntries(Object.entries(answer.data).filter(([key]) => !ENVELOPE_KEYS.includes(key)));
        return { ...answer, payload };
      },
    },
  };
}
