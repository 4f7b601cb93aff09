/**
 * Zod schemas of re-verifications (real client: reVerifications.create, startLiveness,
 * createLivenessUploadUrl, completeLiveness; not in the API spec). snake_case on the wire except the
 * liveness script, which is camelCase inside (as the client reads it); ids are UUIDs.
 */
import { z } from '@hono/zod-openapi';
import { LivenessScriptSchema } from '../face/api.ts';
import { mustBe } from '../platform/validation/request-fields.ts';

export const CHALLENGE_TYPES = ['FaceMovementChallenge', 'FaceMovementAndLightChallenge'] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];
export const CLIP_MIME_TYPES = ['video/webm', 'video/mp4'] as const;
export const DECISIONS = ['verified', 'retry', 'failed', 'retry_liveness'] as const;
export type Decision = (typeof DECISIONS)[number];

export const CreateReVerificationBodySchema = z
  .object({
    workflow_id: z
      .string({ error: mustBe('workflow_id', 'a workflow id of 1-128 characters') })
      .min(1, { error: 'workflow_id must not be empty: send the id of a workflow with a face-liveness step' })
      .max(128, { error: mustBe('workflow_id', 'at most 128 characters long') }),
    device_fingerprint: z
      .string({ error: mustBe('device_fingerprint', 'a string of 1-256 characters') })
      .min(1, { error: 'device_fingerprint must not be empty: omit it or send the device fingerprint' })
      .max(256, { error: mustBe('device_fingerprint', 'at most 256 characters long') })
      .optional(),
  })
  .openapi('CreateReVerificationBody');
export type CreateReVerificationBody = z.infer<typeof CreateReVerificationBodySchema>;

export const CreateReVerificationResponseSchema = z
  .object({
    re_verification_id: z.uuid(),
    workflow_id: z.string(),
    status: z.literal('PENDING'),
    expires_at: z.iso.datetime(),
    liveness: z.object({ challenge_type: z.enum(CHALLENGE_TYPES) }),
  })
  .openapi('ReVerification');

export const ReVerificationParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(255)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'The re_verification_id (a UUID).' }),
});

/** The real client sends `{}` to start and complete; anything else is ignored. */
export const EmptyBodySchema = z.object({}).openapi('EmptyBody');

export const StartLivenessResponseSchema = z
  .object({
    liveness_session_id: z.string(),
    script: LivenessScriptSchema,
  })
  .openapi('ReVerificationLivenessStart');
export type StartLivenessResponse = z.infer<typeof StartLivenessResponseSchema>;

export const UploadUrlBodySchema = z
  .object({
    frame_count: z
      .number({ error: mustBe('frame_count', 'a whole number of frames, 3-8') })
      .int({ error: mustBe('frame_count', 'a whole number of frames, 3-8') })
      .min(3, { error: mustBe('frame_count', 'at least 3') })
      .max(8, { error: mustBe('frame_count', 'at most 8') }),
    clip_mime_type: z.enum(CLIP_MIME_TYPES, { error: mustBe('clip_mime_type', `one of ${CLIP_MIME_TYPES.join(', ')}`) }).optional(),
  })
  .openapi('ReVerificationUploadUrlBody');
export type UploadUrlBody = z.infer<typeof UploadUrlBodySchema>;

export const UploadUrlResponseSchema = z
  .object({
    frame_upload_urls: z.array(z.string()),
    frame_keys: z.array(z.string()),
    timeline_upload_url: z.string(),
    timeline_key: z.string(),
    clip_upload_url: z.string().optional(),
    clip_key: z.string().optional(),
  })
  .openapi('ReVerificationUploadUrls');
export type UploadUrlResponse = z.infer<typeof UploadUrlResponseSchema>;

export const CompleteLivenessResponseSchema = z
  .object({
    decision: z.enum(DECISIONS),
    failed_attempts: z.number().int().min(0),
    max_attempts: z.number().int().positive(),
    liveness: z.object({ status: z.enum(['SUCCEEDED', 'FAILED']), confidence: z.number().nullable() }),
    user_id: z.string().optional(),
  })
  .openapi('ReVerificationDecision');
export type CompleteLivenessResponse = z.infer<typeof CompleteLivenessResponseSchema>;

/** Every lifecycle error: the code in `error` (the iOS client reads it there) and in `code`, the sentence in `message`. */
export const ReVerificationErrorSchema = z
  .object({
    error: z.string().openapi({ example: 'liveness_not_started', description: 'The error code.' }),
    message: z.string().openapi({ description: 'What happened and what to do, for people.' }),
    code: z.string().openapi({ example: 'liveness_not_started' }),
  })
  .openapi('ReVerificationError');
