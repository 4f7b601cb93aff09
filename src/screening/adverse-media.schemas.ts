/**
 * Adverse media: request body, queue response and the job result ('Adverse media result' in the spec;
 * facts §4 and §6.4 for what the real client parses).
 */
import { z } from '@hono/zod-openapi';
import { FINDING_SEVERITIES, SOURCE_KINDS } from './adverse-media.content.ts';
import { CountrySchema, DateOfBirthSchema, EmailSchema, nameField } from './screening.schemas.ts';

export const AdverseMediaRequestSchema = z.lazy(() =>
  z
    .object({
      email: EmailSchema.optional(),
      firstName: nameField('firstName', 'Jane'),
      lastName: nameField('lastName', 'Doe'),
      dateOfBirth: DateOfBirthSchema,
      country: CountrySchema.optional(),
    })
    .openapi('AdverseMediaRequest'),
);
export type AdverseMediaRequest = z.infer<typeof AdverseMediaRequestSchema>;

export const AsyncJobStatusSchema = z.enum(['pending', 'processing', 'ready', 'failed']);

/** Body of 202 (new job) and 200 (Idempotency-Key replay). */
export const AdverseMediaQueuedSchema = z.lazy(() =>
  z
    .object({
      jobId: z.uuid().openapi({ example: '550e8400-e29b-41d4-a716-446655440000' }),
      status: AsyncJobStatusSchema,
      message: z.string().openapi({ example: 'Queued' }),
    })
    .openapi('AdverseMediaQueued'),
);
export type AdverseMediaQueued = z.infer<typeof AdverseMediaQueuedSchema>;

export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export const RiskLevelSchema = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevelSchema>;

export const FindingSeveritySchema = z.enum(FINDING_SEVERITIES);

export const SourceKindSchema = z.enum(SOURCE_KINDS);

export const AdverseMediaFindingSchema = z.lazy(() =>
  z
    .object({
      findingId: z.string(),
      severity: FindingSeveritySchema,
      category: z.string().openapi({ example: 'financial_crime' }),
      title: z.string(),
      detail: z.string(),
      sourceUrl: z.string().nullable(),
      sourceName: z.string().nullable(),
      articleDate: z.string().nullable().openapi({ example: '2021-06-01' }),
      confidence: z.number().min(0).max(1),
      confirmedBy: z.array(z.string()).openapi({ example: ['news', 'court-records'] }),
    })
    .openapi('AdverseMediaFinding'),
);
export type AdverseMediaFinding = z.infer<typeof AdverseMediaFindingSchema>;

export const AdverseMediaArticleSchema = z.lazy(() =>
  z
    .object({
      timestamp: z.string().nullable(),
      headline: z.string(),
      sourceLink: z.string().nullable(),
      source: SourceKindSchema,
    })
    .openapi('AdverseMediaArticle'),
);
export type AdverseMediaArticle = z.infer<typeof AdverseMediaArticleSchema>;

export const ExposureBucketSchema = z.lazy(() =>
  z.object({ hits: z.number().int().min(0), articles: z.array(AdverseMediaArticleSchema) }).openapi('AdverseMediaExposure'),
);
export type ExposureBucket = z.infer<typeof ExposureBucketSchema>;

/** All nine keys are required: the real client parses this object as an enum-keyed record. */
export const ExposuresByCategorySchema = z.lazy(() =>
  z
    .object({
      financial_crime: ExposureBucketSchema,
      terrorism: ExposureBucketSchema,
      regulatory: ExposureBucketSchema,
      political: ExposureBucketSchema,
      organized_crime: ExposureBucketSchema,
      violent_crime: ExposureBucketSchema,
      criminal_legal: ExposureBucketSchema,
      reputational: ExposureBucketSchema,
      court_records: ExposureBucketSchema,
    })
    .openapi('AdverseMediaExposuresByCategory'),
);
export type ExposuresByCategory = z.infer<typeof ExposuresByCategorySchema>;

export const AdverseMediaResultSchema = z.lazy(() =>
  z
    .object({
      totalHits: z.number().int().min(0),
      riskLevel: RiskLevelSchema,
      riskScore: z.number().int().min(0).max(100),
      summary: z.string(),
      findings: z.array(AdverseMediaFindingSchema),
      exposuresByCategory: ExposuresByCategorySchema,
    })
    .openapi('AdverseMediaResult'),
);
export type AdverseMediaResult = z.infer<typeof AdverseMediaResultSchema>;
