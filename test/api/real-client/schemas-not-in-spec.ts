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
