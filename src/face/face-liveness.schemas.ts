/**
 * Wire shapes of the face liveness sessions of the real client (real-client-facts §6.3): creation is
 * snake_case in and out; the result is camelCase. Datetimes end in Z (the client checks).
 */
import { z } from '@hono/zod-openapi';
import { identifier } from '../platform/validation/request-fields.ts';

export const LIVENESS_CHALLENGE_TYPES = ['FaceMovementChallenge', 'FaceMovementAndLightChallenge'] as const;
export type LivenessChallengeType = (typeof LIVENESS_CHALLENGE_TYPES)[number];

export const LIVENESS_STATUSES = ['SUCCEEDED', 'IN_PROGRESS', 'FAILED'] as const;
export type LivenessStatus = (typeof LIVENESS_STATUSES)[number];

export const CreateLivenessSessionRequestSchema = z
  .object({
    session_id: identifier('session_id', 'the id of the verification session this check belongs to').optional().openapi({
      description: 'The verification session this liveness check belongs to. Magic values force results (GET /__sandbox/catalog).',
      example: 'test_liveness_spoof',
    }),
    challenge_type: z.enum(LIVENESS_CHALLENGE_TYPES).optional().openapi({ description: 'Default FaceMovementChallenge.' }),
  })
  .openapi('CreateLivenessSessionRequest');

const isoZ = (description: string) => z.iso.datetime().openapi({ description, example: '2026-01-15T09:45:00.000Z' });

export const LivenessSessionSchema = z
  .object({
    liveness_session_id: z.string().openapi({ example: '3f0b7c1e-5a7d-4d2b-9a51-0c8e2f4b6d19' }),
    region: z.string().openapi({ example: 'us-east-1' }),
    credentials: z.object({
      access_key_id: z.string().openapi({ description: 'Synthetic, temporary-credential shaped (ASIA...). Useless outside the sandbox.' }),
      secret_access_key: z.string(),
      session_token: z.string(),
      expiration: isoZ('When the credentials expire (with the session).'),
    }),
    expires_at: isoZ('15 minutes after creation, on the sandbox clock.'),
  })
  .openapi('LivenessSession');

export const LivenessSessionParamsSchema = z.object({
  lid: identifier('lid', 'the liveness_session_id from POST /v1/face/liveness/sessions').openapi({
    param: { name: 'lid', in: 'path' },
    description: 'liveness_session_id',
  }),
});

export const LivenessResultQuerySchema = z.object({
  session_id: identifier('session_id', 'the session_id the liveness session was created with')
    .optional()
    .openapi({ description: 'When given, must be the session_id the liveness session was created with.' }),
  confidence_threshold: z.coerce
    .number()
    .int('confidence_threshold must be an integer from 1 to 100')
    .min(1, 'confidence_threshold must be an integer from 1 to 100')
    .max(100, 'confidence_threshold must be an integer from 1 to 100')
    .optional()
    .openapi({ description: 'passed iff confidence >= this (default 70).', example: 70 }),
});

export const LivenessResultSchema = z
  .object({
    status: z.enum(LIVENESS_STATUSES),
    confidence: z.number().min(0).max(100).optional().openapi({ description: 'Present when status is SUCCEEDED.', example: 93.12 }),
    passed: z.boolean(),
  })
  .openapi('LivenessResult');

export const LivenessScriptStepSchema = z.object({
  kind: z.enum(['color', 'move-closer']),
  atMs: z.number().int().min(0),
  color: z
    .string()
    .regex(/^#[0-9A-F]{6}$/)
    .optional()
    .openapi({ example: '#FF0000', description: 'color steps only: the screen colour, #RRGGBB' }),
});
export type LivenessScriptStep = z.infer<typeof LivenessScriptStepSchema>;

/** The capture script a custom liveness client plays (camelCase inside, as the clients read it). */
export const LivenessScriptSchema = z
  .object({ challengeType: z.enum(LIVENESS_CHALLENGE_TYPES), durationMs: z.number().int().positive(), steps: z.array(LivenessScriptStepSchema) })
  .openapi('LivenessScript');
export type LivenessScript = z.infer<typeof LivenessScriptSchema>;

export type CreateLivenessSessionRequest = z.infer<typeof CreateLivenessSessionRequestSchema>;
export type LivenessSession = z.infer<typeof LivenessSessionSchema>;
export type LivenessResult = z.infer<typeof LivenessResultSchema>;
