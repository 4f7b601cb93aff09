/**
 * The shapes a step module answers with and the engine reports: step statuses, the headless steps'
 * requirements and FACE_LIVENESS's action payloads. They sit below the step modules (which return them)
 * and below workflow-sessions.schemas.ts (which builds the envelope and the state from them and from the tables
 * the registry derives), so no module imports back up the registry.
 */
import { z } from '@hono/zod-openapi';
import { LIVENESS_CHALLENGE_TYPES, LivenessScriptSchema } from '../../face/api.ts';
import { CLIP_MIME_TYPES } from './step-bodies.ts';

export const STEP_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'SKIPPED'] as const;
export const StepStatusSchema = z.enum(STEP_STATUSES).openapi('WorkflowStepStatus');
export type StepStatus = z.infer<typeof StepStatusSchema>;

export const IdVerificationRequirementsSchema = z
  .object({
    document: z.object({
      require_front_only: z.boolean(),
      front_only_document_types: z.array(z.string()),
      require_secondary_id: z.boolean(),
      require_tertiary_id: z.boolean(),
      valid_id_types: z.array(z.string()),
      valid_states: z.array(z.string()),
    }),
    face: z.object({ face_front_photo_only: z.boolean() }),
  })
  .openapi('IdVerificationRequirements');
export type IdVerificationRequirements = z.infer<typeof IdVerificationRequirementsSchema>;

export const FaceLivenessRequirementsSchema = z
  .object({ challenge_type: z.string().openapi({ example: 'FaceMovementChallenge' }), confidence_threshold: z.number().min(0).max(100) })
  .openapi('FaceLivenessRequirements');
export type FaceLivenessRequirements = z.infer<typeof FaceLivenessRequirementsSchema>;

const isoZ = z.string().openapi({ format: 'date-time' });

/** FACE_LIVENESS `start`: the liveness session with the TypeScript client's streaming credentials and the iOS client's script. */
export const LivenessStartPayloadSchema = z
  .object({
    action: z.literal('start'),
    challenge_type: z.enum(LIVENESS_CHALLENGE_TYPES),
    liveness_session_id: z.string(),
    region: z.string(),
    credentials: z.object({ access_key_id: z.string(), secret_access_key: z.string(), session_token: z.string(), expiration: isoZ }),
    expires_at: isoZ,
    script: LivenessScriptSchema,
  })
  .openapi('WorkflowLivenessStart');

/** FACE_LIVENESS `upload-url`: frames (image/jpeg), the timeline (application/json) and, when asked, the clip. */
export const LivenessUploadUrlsPayloadSchema = z
  .object({
    action: z.literal('upload-url'),
    frame_upload_urls: z.array(z.string()),
    frame_keys: z.array(z.string()),
    frame_content_type: z.literal('image/jpeg'),
    timeline_upload_url: z.string(),
    timeline_key: z.string(),
    clip_upload_url: z.string().optional(),
    clip_key: z.string().optional(),
    clip_content_type: z.enum(CLIP_MIME_TYPES).optional(),
    expires_at: isoZ,
  })
  .openapi('WorkflowLivenessUploadUrls');

/** FACE_LIVENESS `complete`: the result; a not-live capture is a 200 with passed false. */
export const LivenessCompletePayloadSchema = z
  .object({
    action: z.literal('complete'),
    liveness_session_id: z.string(),
    status: z.enum(['SUCCEEDED', 'IN_PROGRESS', 'FAILED']),
    confidence: z.number().min(0).max(100).nullable().openapi({ description: '0-100 from the uploaded frames that carry a face; null when FAILED' }),
    passed: z.boolean().openapi({ description: 'SUCCEEDED, the same person as the ID selfie, and confidence >= confidence_threshold' }),
    confidence_threshold: z.number(),
  })
  .openapi('WorkflowLivenessResult');

/** The `liveness` member of a FACE_LIVENESS answer: the action's payload. */
export const LivenessPayloadSchema = z.union([LivenessStartPayloadSchema, LivenessUploadUrlsPayloadSchema, LivenessCompletePayloadSchema]);
export type LivenessPayload = z.infer<typeof LivenessPayloadSchema>;
