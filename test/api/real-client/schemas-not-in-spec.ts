/**
 * The response schemas of the real client's operations that the API spec does not describe ([NOT-IN-SPEC]
 * in real-client-facts.md: §6.6 deepfake, §6.10 credit terms, §6.11 profiles, §6.14 age verification,
 * §6.15 re-verifications), written from that page ONLY, with the semantics of ./schemas.ts (strip objects,
 * "opt" = optional without null, "nullable" = key required, `z.uuid()` / `z.iso.datetime()` only where the
 * facts say so). Nothing here is imported from src/.
 */
import { z } from 'zod';
import { FinancialRecordSchema } from './schemas.ts';

const str = z.string();

// ─── §6.6 Deepfake ──────────────────────────────────────────────────────────────────────────────────

export const DeepfakeChallengeResponseSchema = z.object({ sessionId: z.uuid(), challengeWord: str });

export const DeepfakeUploadUrlsResponseSchema = z.object({
  uploadUrls: z.record(z.string(), z.string()),
  uploadKeys: z.record(z.string(), z.string()),
  sessionId: str,
});

export const DeepfakeAnalyzeResponseSchema = z.object({
  success: z.boolean(),
  passed: z.boolean(),
  confidence: z.number(),
  verdict: z.enum(['LIVE', 'DEEPFAKE', 'INCONCLUSIVE']),
  riskScore: z.number(),
  trustVerdict: z.enum(['PASS', 'REVIEW', 'REJECT']),
  trustScore: z.number(),
  failureReasons: z.array(str),
  verificationId: z.uuid(),
  timestamp: z.iso.datetime(),
  details: z.object({
    layers: z.record(z.string(), z.unknown()),
    avgLayerConfidence: z.number(),
    trustBreakdown: z.record(z.string(), z.number()),
    degradedModules: z.array(str),
  }),
  challengeWord: str.optional(),
});

// ─── §6.11 Profiles ─────────────────────────────────────────────────────────────────────────────────

export const ProfileSchema = z.object({
  id: str,
  name: str,
  organizationId: str,
  createdAt: str,
  updatedAt: str,
  logoUrl: str.nullable().optional(),
});

export const ProfileListResponseSchema = z.object({ profiles: z.array(ProfileSchema) });

export const LogoUploadUrlResponseSchema = z.object({ uploadUrl: str, fileKey: str });

// ─── §6.10 Credit terms (records have the FinancialRecord shape) ────────────────────────────────────

/** Credit-terms records are FinancialRecords (facts §6.10: "records = FinancialRecord shape"). */
export const CreditTermsRecordSchema = FinancialRecordSchema;

export const CreditTermsCreateResponseSchema = z.object({
  creditTermsId: str,
  creditTermsUrl: str,
  links: z.array(z.unknown()),
  externalId: str.optional(),
});

export const CreditTermsListResponseSchema = z.object({ creditTerms: z.array(CreditTermsRecordSchema), nextToken: str.nullable() });

// ─── §6.15 Re-verifications ─────────────────────────────────────────────────────────────────────────

const CHALLENGE_TYPE = z.enum(['FaceMovementChallenge', 'FaceMovementAndLightChallenge']);

export const ReVerificationCreateResponseSchema = z.object({
  re_verification_id: z.uuid(),
  workflow_id: str,
  status: z.literal('PENDING'),
  expires_at: str,
  liveness: z.object({ challenge_type: CHALLENGE_TYPE }),
});

export const ReVerificationStartResponseSchema = z.object({
  liveness_session_id: str,
  script: z.object({
    challengeType: CHALLENGE_TYPE,
    durationMs: z.number().int().positive(),
    steps: z.array(z.object({ kind: z.enum(['color', 'move-closer']), atMs: z.number().int().min(0), color: str.optional() })),
  }),
});

export const ReVerificationUploadUrlResponseSchema = z
  .object({
    frame_upload_urls: z.array(str),
    frame_keys: z.array(str),
    timeline_upload_url: str,
    timeline_key: str,
    clip_upload_url: str.optional(),
    clip_key: str.optional(),
  })
  .refine((body) => body.frame_keys.length === body.frame_upload_urls.length, 'frame_keys must be as long as frame_upload_urls')
  .refine((body) => (body.clip_upload_url === undefined) === (body.clip_key === undefined), 'clip_upload_url and clip_key come both or neither');

export const ReVerificationCompleteResponseSchema = z.object({
  decision: z.enum(['verified', 'retry', 'failed', 'retry_liveness']),
  failed_attempts: z.number().int().min(0),
  max_attempts: z.number().int().positive(),
  liveness: z.object({ status: z.enum(['SUCCEEDED', 'FAILED']), confidence: z.number().nullable() }),
  user_id: str.optional(),
  original_session_id: str.optional(),
});

// ─── §6.14 Age verification ─────────────────────────────────────────────────────────────────────────

const nullableStr = str.nullable();

export const AgeVerificationCreateResponseSchema = z.object({
  id: str,
  session_url: str,
  method: str,
  links: z.array(z.object({ rel: str, href: str, description: str })),
  external_id: str.optional(),
  expires_at: str.nullable().optional(),
});

/** Platform restrictions are re-validated by the client: select needs options, min ≤ max. */
const PlatformRestrictionSchema = z
  .object({
    key: str,
    label: str,
    type: z.enum(['toggle', 'number', 'select', 'minutes']),
    category: z.enum(['feature', 'content']).optional(),
    default: z.unknown().optional(),
    required: z.boolean().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    options: z.array(str).optional(),
  })
  .refine((item) => item.type !== 'select' || (item.options?.length ?? 0) > 0, 'select needs options')
  .refine((item) => item.min === undefined || item.max === undefined || item.min <= item.max, 'min must not exceed max');

export const ParentConnectRequestSchema = z.object({
  id: nullableStr,
  child_session_id: nullableStr,
  parent_session_id: nullableStr,
  status: z.enum(['PENDING', 'PARENT_INVITED', 'PARENT_VERIFIED', 'CONSENT_GIVEN', 'EXPIRED', 'DECLINED']).nullable(),
  age_band: nullableStr,
  contact_method: nullableStr,
  platform_restrictions: z.array(PlatformRestrictionSchema),
  boundaries: z.record(z.string(), z.unknown()).nullable(),
  eula_url: nullableStr,
  eula_accepted: z.boolean(),
  child_attestation_id: nullableStr,
  parent_attestation_id: nullableStr,
  boundaries_revision: z.number().nullable(),
  consent_given_at: nullableStr,
  consent_expires_at: nullableStr,
  reconsent_due_at: nullableStr,
  invite_expires_at: nullableStr,
  declined_at: nullableStr,
  created_at: nullableStr,
  updated_at: nullableStr,
});

export const ParentConnectListResponseSchema = z.object({ parent_connect_requests: z.array(ParentConnectRequestSchema), next_token: nullableStr });

export const BoundariesResponseSchema = z.object({
  child_attestation_id: nullableStr,
  parent_attestation_id: nullableStr,
  parent_connect_id: nullableStr,
  age_band: nullableStr,
  parental_consent: z.boolean(),
  eula_accepted: z.boolean(),
  boundaries: z.record(z.string(), z.unknown()),
  boundaries_revision: z.number(),
  boundaries_match_attestation: z.boolean(),
  consent_expires_at: nullableStr,
  updated_at: nullableStr,
});
