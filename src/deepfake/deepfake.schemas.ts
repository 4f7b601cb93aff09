/**
 * Zod schemas of the deepfake area (real client: deepfake.getChallenge, createUploadUrls, analyze), with the
 * shapes, casing and formats of the client's own schemas: camelCase everywhere, `sessionId` and
 * `verificationId` UUIDs, `timestamp` an ISO instant ending in Z.
 */
import { z } from '@hono/zod-openapi';
import { flag, identifier, mustBe } from '../platform/validation/request-fields.ts';

export const FRAME_SLOTS = ['frame_0', 'frame_1', 'frame_2', 'frame_3', 'frame_4', 'frame_5'] as const;
export type FrameSlot = (typeof FRAME_SLOTS)[number];
export const AUDIO_SLOT = 'audio_clip';

export const DEEPFAKE_ACTIONS = ['hold-still', 'blink', 'turn-left', 'turn-right', 'speak-prompt'] as const;
export const DEEPFAKE_VERDICTS = ['LIVE', 'DEEPFAKE', 'INCONCLUSIVE'] as const;
export type DeepfakeVerdict = (typeof DEEPFAKE_VERDICTS)[number];
export const TRUST_VERDICTS = ['PASS', 'REVIEW', 'REJECT'] as const;
export type TrustVerdict = (typeof TRUST_VERDICTS)[number];

export const ChallengeParamsSchema = z.object({
  sessionId: z
    .uuid({ error: mustBe('sessionId', 'a UUID (the verification session id)') })
    .openapi({ param: { name: 'sessionId', in: 'path' }, example: '0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e' }),
});

export const ChallengeResponseSchema = z
  .object({
    sessionId: z.uuid(),
    challengeWord: z.string().openapi({ example: 'blue river stone', description: 'Three words the applicant says during the scan (speak-prompt).' }),
  })
  .openapi('DeepfakeChallenge');
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

/** The audio clip types accepted; the first is the default (the real client's documented type). */
export const AUDIO_CONTENT_TYPES = ['audio/mp4', 'audio/webm'] as const;

export const UploadUrlsBodySchema = z
  .object({
    sessionId: identifier('sessionId', 'the verification session id the frames belong to'),
    includeAudio: flag('includeAudio'),
    audioContentType: z
      .enum(AUDIO_CONTENT_TYPES, { error: mustBe('audioContentType', `one of ${AUDIO_CONTENT_TYPES.join(', ')} (or omit it for audio/mp4)`) })
      .optional()
      .openapi({ description: 'The type the audio clip will be PUT with: audio/mp4 (the client’s documented type, the default) or audio/webm.' }),
  })
  .openapi('DeepfakeUploadUrlsBody');
export type UploadUrlsBody = z.infer<typeof UploadUrlsBodySchema>;

export const UploadUrlsResponseSchema = z
  .object({
    uploadUrls: z
      .record(z.string(), z.string())
      .openapi({ description: 'frame_0 ... frame_5 (PUT as image/jpeg), plus audio_clip (PUT as audioContentType, default audio/mp4) when includeAudio.' }),
    uploadKeys: z.record(z.string(), z.string()).openapi({ description: 'The storage key of each URL, by the same names: send them back as s3Keys.' }),
    sessionId: z.string(),
  })
  .openapi('DeepfakeUploadUrls');
export type UploadUrlsResponse = z.infer<typeof UploadUrlsResponseSchema>;

const finite = (field: string) => z.number({ error: mustBe(field, 'a number') });

export const FrameMetaSchema = z.object({
  actionId: z.string({ error: mustBe('actionId', 'a string') }),
  action: z.enum(DEEPFAKE_ACTIONS, { error: mustBe('action', `one of ${DEEPFAKE_ACTIONS.join(', ')}`) }),
  timestamp: finite('timestamp').openapi({ description: 'Milliseconds since the scan started.' }),
  yaw: finite('yaw').openapi({ description: 'Degrees; negative is a turn to the left.' }),
  pitch: finite('pitch'),
  roll: finite('roll'),
  leftEyeOpenness: finite('leftEyeOpenness').min(0).max(1),
  rightEyeOpenness: finite('rightEyeOpenness').min(0).max(1),
  faceDetected: flag('faceDetected'),
});
export type FrameMeta = z.infer<typeof FrameMetaSchema>;

const storageKey = (field: string) => identifier(field, 'the uploadKeys value returned by POST /v1/deepfake/upload-urls');

export const AnalyzeBodySchema = z
  .object({
    scanDurationMs: finite('scanDurationMs').positive(),
    challengeWord: z
      .string({ error: mustBe('challengeWord', 'a string') })
      .max(255)
      .optional(),
    frameMeta: z
      .array(FrameMetaSchema, { error: mustBe('frameMeta', 'an array of exactly 6 frame descriptions') })
      .length(6, { error: 'frameMeta must hold exactly 6 frames, one per uploaded frame (frame_0 ... frame_5)' }),
    s3Keys: z.object({
      frame_0: storageKey('frame_0'),
      frame_1: storageKey('frame_1'),
      frame_2: storageKey('frame_2'),
      frame_3: storageKey('frame_3'),
      frame_4: storageKey('frame_4'),
      frame_5: storageKey('frame_5'),
      audio_clip: storageKey('audio_clip').optional(),
      video_clip: storageKey('video_clip').optional(),
    }),
  })
  .openapi('DeepfakeAnalyzeBody');
export type AnalyzeBody = z.infer<typeof AnalyzeBodySchema>;

export const LayerSchema = z.object({ passed: z.boolean(), confidence: z.number().min(0).max(100), detail: z.string() });
export type Layer = z.infer<typeof LayerSchema>;

export const AnalyzeResponseSchema = z
  .object({
    success: z.boolean(),
    passed: z.boolean(),
    confidence: z.number().min(0).max(100),
    verdict: z.enum(DEEPFAKE_VERDICTS),
    riskScore: z.number().min(0).max(100),
    trustVerdict: z.enum(TRUST_VERDICTS),
    trustScore: z.number().min(0).max(100),
    failureReasons: z.array(z.string()),
    verificationId: z.uuid(),
    timestamp: z.iso.datetime(),
    challengeWord: z.string().optional(),
    details: z.object({
      layers: z.record(z.string(), LayerSchema),
      avgLayerConfidence: z.number(),
      trustBreakdown: z.record(z.string(), z.number()),
      degradedModules: z.array(z.string()),
    }),
  })
  .openapi('DeepfakeAnalysis');
export type AnalyzeResponse = z.infer<typeof AnalyzeResponseSchema>;
