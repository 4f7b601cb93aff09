/**
 * Zod schemas of the iGaming area: the self-exclusion registry (spec: 'iGaming self-exclusion operations',
 * 'Self-exclusion registry entry'), the purge of anti-cheat enrolments, and the real client's analysis
 * operations (injection, VPN detection, IP jurisdiction, anti-cheat analyze: real-client-facts §6.12).
 *
 * Field names are snake_case only (spec). A camelCase spelling of one of the area's fields is refused
 * with a 400 that names the snake_case key, rather than silently dropped: a dropped `firstName` would
 * store an entry without the name the caller meant to record.
 */
import { z } from '@hono/zod-openapi';
import { mustBe } from '../platform/validation/request-fields.ts';

// ─── Shared fields ──────────────────────────────────────────────────────────────────────────────────

/** Session ids: the sandbox's UUIDs, or an operator's own session reference (anti-cheat). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const SESSION_ID_RULE = 'a session id: 1-128 letters, digits, "_", ".", ":" or "-", starting with a letter or digit (e.g. the id POST /v1/sessions returned)';

export function sessionId(field = 'session_id') {
  return z
    .string({ error: mustBe(field, SESSION_ID_RULE) })
    .regex(SESSION_ID_PATTERN, { error: mustBe(field, SESSION_ID_RULE) })
    .openapi({ example: '3f0c2a9e-7b1d-4c5e-9a8f-6d2b1e0c4a73' });
}

const reason = (field = 'reason') =>
  z
    .string({ error: mustBe(field, 'a string of 1-500 characters') })
    .trim()
    .min(1, { error: `${field} must not be empty: omit it or say why, e.g. "operator request"` })
    .max(500, { error: mustBe(field, 'at most 500 characters long') })
    .optional();

const CAMEL_CASE_FIELDS: Record<string, string> = {
  sessionId: 'session_id',
  documentNumber: 'document_number',
  documentNumbers: 'document_numbers',
  firstName: 'first_name',
  lastName: 'last_name',
  ipAddress: 'ip_address',
  deviceFingerprint: 'device_fingerprint',
  deviceIntegrity: 'device_integrity',
  mediaSource: 'media_source',
  frameTiming: 'frame_timing',
};

/** A body object that refuses the camelCase spelling of any of the area's fields (see the module note). */
function snakeCaseBody<T extends z.ZodRawShape>(shape: T) {
  // Loose, so the refinement still sees the keys a plain object would strip.
  return z.looseObject(shape).superRefine((value, ctx) => {
    const sent = value as Record<string, unknown>;
    for (const [camel, snake] of Object.entries(CAMEL_CASE_FIELDS)) {
      if (Object.hasOwn(sent, camel)) {
        ctx.addIssue({ code: 'custom', path: [camel], message: `${camel} is not accepted: iGaming fields are snake_case only, send ${snake}` });
      }
    }
  });
}

// ─── Self-exclusion: identity ───────────────────────────────────────────────────────────────────────

/** A normalized document number: 1-40 of A-Z, 0-9, "-" and inner spaces, starting and ending alphanumeric. */
/** The spec only trims and upper-cases: any non-empty number is valid ("/", spaces, "#" and "?" included). */
export const DOCUMENT_NUMBER_PATTERN = /^[\s\S]{1,200}$/;
export const DOCUMENT_NUMBER_RULE = 'any non-empty text after trimming, at most 200 characters ("/", spaces, "#" and "?" included)';

const documentNumberString = (field: string) =>
  z.string({ error: mustBe(field, `a document number string (${DOCUMENT_NUMBER_RULE})`) }).max(200, { error: mustBe(field, 'at most 200 characters long') });

const personField = (field: string) =>
  z
    .string({ error: mustBe(field, 'a string of 1-255 characters') })
    .trim()
    .min(1, { error: `${field} must not be empty: omit it or send the person's name` })
    .max(255, { error: mustBe(field, 'at most 255 characters long') })
    .optional();

export const AddIdentityBodySchema = snakeCaseBody({
  document_number: documentNumberString('document_number').optional().openapi({ example: 'X1234567' }),
  document_numbers: z
    .array(documentNumberString('document_numbers[]'), { error: mustBe('document_numbers', 'an array of document number strings') })
    .max(1000, { error: mustBe('document_numbers', 'at most 1000 numbers per request') })
    .optional()
    .openapi({ example: ['X1234567', 'DOC-1'] }),
  reason: reason(),
  first_name: personField('first_name'),
  last_name: personField('last_name'),
})
  .superRefine((body, ctx) => {
    const single = body.document_number !== undefined;
    const many = body.document_numbers !== undefined;
    if (single && many)
      ctx.addIssue({ code: 'custom', path: ['document_numbers'], message: 'document_number and document_numbers were both sent: send exactly one of them' });
    else if (!single && !many)
      ctx.addIssue({
        code: 'custom',
        path: ['document_number'],
        message: 'document_number is required: send document_number (a string) or document_numbers (a non-empty array), exactly one of them',
      });
    else if (many && body.document_numbers?.length === 0)
      ctx.addIssue({ code: 'custom', path: ['document_numbers'], message: 'document_numbers must not be empty: send at least one document number' });
  })
  .openapi('AddSelfExclusionIdentityBody', {
    description: 'Exactly one of document_number or document_numbers (non-empty). Numbers are trimmed and upper-cased.',
    oneOf: [{ required: ['document_number'] }, { required: ['document_numbers'] }],
  });
export type AddIdentityBody = z.infer<typeof AddIdentityBodySchema>;

export const IdentityStatusSchema = z.enum(['added', 'already_excluded', 'invalid']);

export const AddIdentityResponseSchema = z
  .object({
    excluded: z.array(
      z.object({
        document_number: z.string().openapi({ description: 'Normalized (trimmed, upper-cased); for invalid numbers, what normalizing gave.' }),
        status: IdentityStatusSchema,
      }),
    ),
  })
  .openapi('AddSelfExclusionIdentityResponse');
export type AddIdentityResponse = z.infer<typeof AddIdentityResponseSchema>;

export const DocumentNumberParamSchema = z.object({
  document_number: z.string().openapi({
    param: { name: 'document_number', in: 'path' },
    example: 'X1234567',
    description: 'URL-encoded (DOC%2F1 for DOC/1); trimmed and upper-cased before the lookup.',
  }),
});

export const RemoveIdentityResponseSchema = z.object({ removed: z.boolean(), face_unexcluded: z.boolean() }).openapi('RemoveSelfExclusionIdentityResponse');
export type RemoveIdentityResponse = z.infer<typeof RemoveIdentityResponseSchema>;

// ─── Self-exclusion: applicant and face ─────────────────────────────────────────────────────────────

export const ExcludeSessionBodySchema = snakeCaseBody({ session_id: sessionId(), reason: reason() });
export type ExcludeSessionBody = z.infer<typeof ExcludeSessionBodySchema>;
export const ExcludeApplicantBodySchema = ExcludeSessionBodySchema.openapi('ExcludeApplicantBody');
export const ExcludeFaceBodySchema = ExcludeSessionBodySchema.openapi('ExcludeFaceBody');

export const ExcludeApplicantResponseSchema = z
  .object({
    face_attached: z.boolean().openapi({ description: "Whether the applicant's face was flagged." }),
    document_number: z.string().nullable().openapi({ description: 'Normalized; null when the session had no document number.' }),
    identity_status: z.enum(['added', 'already_excluded']).optional(),
    matched_session_id: z.string().optional().openapi({ description: 'The session that enrolled the face, when the face was flagged through a match.' }),
    message: z.string().optional().openapi({ description: 'Only when nothing was excluded.' }),
  })
  .openapi('ExcludeApplicantResponse');
export type ExcludeApplicantResponse = z.infer<typeof ExcludeApplicantResponseSchema>;

export const ExcludeFaceResponseSchema = z
  .object({
    excluded: z.boolean(),
    session_id: z.string().optional(),
    reason: z.string().optional().openapi({ description: 'The reason recorded; when excluded is false, why nothing was excluded.' }),
    matched_session_id: z.string().optional(),
  })
  .openapi('ExcludeFaceResponse');
export type ExcludeFaceResponse = z.infer<typeof ExcludeFaceResponseSchema>;

export const SessionIdParamSchema = z.object({
  session_id: sessionId().openapi({ param: { name: 'session_id', in: 'path' } }),
});

export const RemoveFaceResponseSchema = z
  .object({ unexcluded: z.boolean(), matched_session_id: z.string().optional() })
  .openapi('RemoveSelfExclusionFaceResponse');
export type RemoveFaceResponse = z.infer<typeof RemoveFaceResponseSchema>;

export const PurgeEnrollmentResponseSchema = z.object({ deleted: z.boolean(), face_id: z.string().nullable() }).openapi('PurgeAntiCheatEnrollmentResponse');
export type PurgeEnrollmentResponse = z.infer<typeof PurgeEnrollmentResponseSchema>;

// ─── Self-exclusion: listing ────────────────────────────────────────────────────────────────────────

export const REGISTRY_LIMIT = { min: 1, max: 1000, default: 200 } as const;

export const ListRegistryQuerySchema = z.object({
  limit: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return REGISTRY_LIMIT.default;
      const n = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isInteger(n) || n < REGISTRY_LIMIT.min || n > REGISTRY_LIMIT.max) {
        ctx.addIssue({
          code: 'custom',
          message: `limit must be an integer from ${REGISTRY_LIMIT.min} to ${REGISTRY_LIMIT.max} (default ${REGISTRY_LIMIT.default}); got ${JSON.stringify(value.slice(0, 20))}`,
        });
        return z.NEVER;
      }
      return n;
    })
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', minimum: 1, maximum: 1000, default: 200 }),
});

export const IdentityEntrySchema = z
  .object({
    type: z.literal('identity'),
    document_number: z.string(),
    reason: z.string().nullable(),
    added_by: z.string().nullable(),
    added_at: z.string().nullable(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
  })
  .openapi('SelfExclusionIdentityEntry');
export type IdentityEntry = z.infer<typeof IdentityEntrySchema>;

export const FaceEntrySchema = z
  .object({ type: z.literal('face'), session_id: z.string(), reason: z.string().nullable(), excluded_at: z.string().nullable() })
  .openapi('SelfExclusionFaceEntry');
export type FaceEntry = z.infer<typeof FaceEntrySchema>;

export const RegistryListResponseSchema = z
  .object({ entries: z.array(z.union([IdentityEntrySchema, FaceEntrySchema])), truncated: z.boolean() })
  .openapi('SelfExclusionRegistry');
export type RegistryListResponse = z.infer<typeof RegistryListResponseSchema>;

// ─── Analysis (real client, not in the spec) ────────────────────────────────────────────────────────

export const VerdictSchema = z.enum(['HIT', 'CLEAR', 'UNAVAILABLE']);
export type Verdict = z.infer<typeof VerdictSchema>;

const signal = (field: string) =>
  z
    .object(
      {
        pass: z.boolean({ error: mustBe(`${field}.pass`, 'a JSON boolean') }),
        score: z
          .number({ error: mustBe(`${field}.score`, 'a number from 0 to 100') })
          .min(0, { error: mustBe(`${field}.score`, 'at least 0') })
          .max(100, { error: mustBe(`${field}.score`, 'at most 100') }),
        signals: z
          .array(z.string().max(200), { error: mustBe(`${field}.signals`, 'an array of strings') })
          .max(50)
          .default([]),
      },
      { error: mustBe(field, 'an object { pass, score, signals }') },
    )
    .optional();

export const INJECTION_SIGNALS = ['device_integrity', 'media_source', 'frame_timing'] as const;
export type InjectionSignalName = (typeof INJECTION_SIGNALS)[number];

export const InjectionBodySchema = snakeCaseBody({
  session_id: sessionId(),
  device_integrity: signal('device_integrity'),
  media_source: signal('media_source'),
  frame_timing: signal('frame_timing'),
}).openapi('InjectionAnalysisBody');
export type InjectionBody = z.infer<typeof InjectionBodySchema>;

export const InjectionResponseSchema = z
  .object({
    verdict: VerdictSchema,
    action: z.string(),
    confidence: z.number().nullable(),
    escalation: z.object({ type: z.string(), check: z.literal('injection-detection') }).nullable(),
  })
  .openapi('InjectionAnalysisResponse');
export type InjectionResponse = z.infer<typeof InjectionResponseSchema>;

export const IpCheckBodySchema = snakeCaseBody({
  session_id: sessionId(),
  ip_address: z
    .string({ error: mustBe('ip_address', 'an IPv4 or IPv6 address such as 203.0.113.7 or 2001:db8:1::7') })
    .trim()
    .max(64, { error: mustBe('ip_address', 'at most 64 characters long') })
    .openapi({ example: '203.0.113.7' }),
}).openapi('IpCheckBody');
export type IpCheckBody = z.infer<typeof IpCheckBodySchema>;

export const IpCheckResponseSchema = z
  .object({
    verdict: VerdictSchema,
    action: z.string(),
    evidence: z.record(z.string(), z.unknown()),
    escalation: z.object({ decision: z.literal('ESCALATE'), type: z.string(), reason: z.string() }).nullable(),
  })
  .openapi('IpCheckResponse');
export type IpCheckResponse = z.infer<typeof IpCheckResponseSchema>;

export const AntiCheatBodySchema = snakeCaseBody({
  session_id: sessionId(),
  image: z
    .string({ error: mustBe('image', 'the selfie as a base64 string (or a fileKey from POST /v1/upload/presign)') })
    .min(1, { error: 'image must not be empty: send the selfie as a base64 string' }),
  device_fingerprint: z
    .string({ error: mustBe('device_fingerprint', 'a string of 1-256 characters') })
    .min(1)
    .max(256)
    .optional(),
}).openapi('AntiCheatAnalysisBody');
export type AntiCheatBody = z.infer<typeof AntiCheatBodySchema>;

export const AntiCheatVerdictSchema = z.enum(['DUPLICATE', 'UNIQUE', 'UNAVAILABLE', 'SELF_EXCLUSION']);
export const AntiCheatActionSchema = z.enum(['allow', 'flag', 'manual-review', 'block']);

export const AntiCheatResponseSchema = z
  .object({
    verdict: AntiCheatVerdictSchema,
    action: AntiCheatActionSchema,
  })
  .openapi('AntiCheatAnalysisResponse', {
    description: 'The matched session, the similarity and the face id are not returned (X-Sandbox-Explain and the journal say them).',
  });
export type AntiCheatResponse = z.infer<typeof AntiCheatResponseSchema>;
