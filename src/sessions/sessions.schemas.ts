/**
 * Zod schemas of the hosted-session area: the session record (full and list shapes), the single-session
 * response, user profiles, the create/list/update-status/uploads requests and their responses, and the
 * structured members of `meta_data` and `analysis_data`.
 *
 * Wire rules (spec/real-client-facts.md §2, §6.2): optional keys are OMITTED, never `null` (the real client
 * throws on `null` where a key is optional); the only nullable values live inside `title_search_data`,
 * whose 'Title check result' shape is nullable by definition. Every validation message is a sentence that
 * names the field and says how to fix it.
 *
 * LIMITATIONS:
 * - The complete field reference of the record and of each analysis_data sub-object is 'not shown' in the
 *   spec; members beyond the observed ones are kept to a minimum and documented where invented.
 * - `session_progress` is limited to PENDING, STARTED and COMPLETED (the values published by the service's
 *   docs); the real client accepts any non-empty string.
 */
import { z } from '@hono/zod-openapi';
import { checkedInOneTurn } from '../platform/http/fast-paths.ts';
import { keptAnswers } from '../platform/kept-answers.ts';
import { aliasedBody } from '../platform/validation/aliased-body.ts';
import { e164Phone, email, expiresInHours, flag, httpsUrl, identifier, mustBe, personName } from '../platform/validation/request-fields.ts';
import {
  CarrierAgeGateResponseSchema,
  EXPOSURE_CATEGORIES,
  PepSanctionsMatchSchema,
  PhoneOwnershipResponseSchema,
  PhoneTrustResponseSchema,
  type TitleCheckFound,
  TitleCheckFoundSchema,
} from '../screening/api.ts';
import {
  FAILURE_REASONS,
  FAILURE_SLOTS,
  IdAnalysisDataSchema,
  SESSION_STATUSES,
  SessionProgressSchema,
  SessionStatusSchema,
  UPLOAD_TYPES,
  type UploadType,
  UploadTypeSchema,
} from '../workflows/api.ts';

// The shapes a workflow run writes on its session belong to the workflows area (its session-results.ts).
export {
  type ExtractedText,
  FAILURE_REASONS,
  type FailureReason,
  FAILURE_SLOTS,
  type FailureSlot,
  type IdAnalysisData,
  IdAnalysisDataSchema,
  OBSERVED_FAILURE_REASONS,
  SESSION_PROGRESSES,
  SESSION_STATUSES,
  type SessionProgress,
  SessionProgressSchema,
  type SessionStatus,
  SessionStatusSchema,
  UPLOAD_TYPES,
  type UploadType,
  UploadTypeSchema,
} from '../workflows/api.ts';

// ─── Shared vocabulary ──────────────────────────────────────────────────────────────────────────────

export const SESSION_TYPES = ['session', 'credit-check-hard', 'credit-check-soft', 'age-verification'] as const;
export const SessionTypeSchema = z.enum(SESSION_TYPES).openapi('SessionType');
export type SessionType = z.infer<typeof SessionTypeSchema>;

/** The ten upload slots of the record's `uploads` object, in the spec's order: the requestable types first. */
export const UPLOAD_FLAGS = [...UPLOAD_TYPES, 'selfie_right', 'selfie_left', 'hold_up_3_fingers'] as const;
export type UploadFlag = (typeof UPLOAD_FLAGS)[number];

/** ISO 8601 instant in UTC ending in Z, as the sandbox writes every timestamp. */
const IsoInstant = z.string().openapi({ format: 'date-time', example: '2026-01-05T14:03:11.000Z' });

// ─── meta_data and analysis_data ────────────────────────────────────────────────────────────────────

export const FACE_MATCH_RESULTS = ['MATCH', 'NO_MATCH'] as const;

/** The nine exposure categories of the adverse-media result. */
export const ADVERSE_MEDIA_CATEGORIES = EXPOSURE_CATEGORIES;

export const CUSTOM_FORM_ANSWER_TYPES = ['text', 'select', 'checkbox', 'date'] as const;

/** 'Title check result' with status found, as POST /v1/screening/title-check answers it. */
export { TitleCheckFoundSchema, type TitleCheckFound };

/**
 * The schemas of the record's `meta_data` and `analysis_data`, built on first need: the session record's
 * schema reaches them through `z.lazy`, and only answers' documentation and checks read it (a create, the
 * first call of most suites, never does). Building them was a third of the area's schemas.
 */
function buildSessionDataSchemas() {
  // meta_data

  const DeclinedDataSchema = z
    .object({
      declined: z.boolean(),
      score: z.number(),
      declinedAt: IsoInstant,
      reason: z.object({
        code: z.string().openapi({ example: 'LOW_FACE_MATCH' }),
        detail: z.string(),
        slot: z.string().openapi({ example: 'PRIMARY' }),
        severity: z.string().openapi({ example: 'CRITICAL' }),
      }),
    })
    .openapi('SessionDeclinedData');

  const FailedAttemptSchema = z.object({
    reason: z.enum(FAILURE_REASONS),
    slot: z.enum(FAILURE_SLOTS),
    failedAt: IsoInstant,
  });

  const FailureDataSchema = z.object({ failedAttempts: z.number().int().min(0), attempts: z.array(FailedAttemptSchema) }).openapi('SessionFailureData');

  const LocationDetailsSchema = z.object({
    accuracyRadius: z.number().int(),
    continent: z.string(),
    country: z.string(),
    countryIsoCode: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    subdivision: z.string(),
    timeZone: z.string(),
  });

  /** What the hosted page records about the applicant's submission. */
  const ApplicantSubmissionSchema = z.object({
    applicantSubmissionIp: z.string(),
    applicantSubmissionDevice: z.string(),
    applicantViewTime: IsoInstant,
    applicantSubmissionBrowser: z.string(),
    applicantSubmissionLocation: z.string(),
    applicantSubmissionLocationDetails: LocationDetailsSchema,
  });

  const MetaDataSchema = z
    .object({
      applicantSubmissionIp: z.string().optional(),
      applicantSubmissionDevice: z.string().optional(),
      applicantViewTime: IsoInstant.optional(),
      applicantSubmissionBrowser: z.string().optional(),
      applicantSubmissionLocation: z.string().optional(),
      applicantSubmissionLocationDetails: LocationDetailsSchema.optional(),
      declinedData: DeclinedDataSchema.optional(),
      failureData: FailureDataSchema.optional(),
    })
    .openapi('SessionMetaData');

  // analysis_data

  const CompareFacesDataSchema = z.object({
    face_match_confidence: z.number().min(0).max(100),
    face_match_result: z.enum(FACE_MATCH_RESULTS),
  });

  /** A list match, the shape of POST /v1/screening/pep-sanctions (one schema for both places). */
  const PepMatchSchema = PepSanctionsMatchSchema;

  const PepSanctionsDataSchema = z.object({
    peps: z.array(PepMatchSchema),
    sanctions: z.array(PepMatchSchema),
    both: z.array(PepMatchSchema),
  });

  const NewsArticleSchema = z.object({
    timestamp: z.string(),
    headline: z.string(),
    source_link: z.string(),
    body: z.string(),
  });

  /** `news_exposures` is keyed by category (every one of the nine present, zero-filled). */
  const AdverseMediaDataSchema = z.object({
    total_hits: z.number().int().min(0),
    news_exposures: z.record(z.enum(ADVERSE_MEDIA_CATEGORIES), z.object({ hits: z.number().int().min(0), articles: z.array(NewsArticleSchema) })),
  });

  const DocumentRiskDataSchema = z.object({
    documents_analyzed: z.number().int().min(0),
    overall_risk_score: z.number().int().min(0).max(100),
  });

  const SelectedDocumentTypesSchema = z.object({
    primary: z.string(),
    secondary: z.string().optional(),
    tertiary: z.string().optional(),
  });

  const CustomFormAnswerSchema = z.object({
    question: z.string(),
    answer: z.string(),
    type: z.enum(CUSTOM_FORM_ANSWER_TYPES),
  });

  /** Results of the phone screening endpoints, as the session stores them. */
  const PhoneChecksSchema = z.object({
    ownership: PhoneOwnershipResponseSchema.optional(),
    trust: PhoneTrustResponseSchema.optional(),
    carrier_age_gate: CarrierAgeGateResponseSchema.optional(),
  });

  const AnalysisDataSchema = z
    .object({
      id_analysis_data: IdAnalysisDataSchema.optional(),
      secondary_id_analysis_data: IdAnalysisDataSchema.optional(),
      tertiary_id_analysis_data: IdAnalysisDataSchema.optional(),
      compare_faces_data: CompareFacesDataSchema.optional(),
      id_matches_selfie: z.boolean().optional(),
      faceliveness_score: z.number().min(0).max(100).optional(),
      pep_sanctions_data: PepSanctionsDataSchema.optional(),
      adverse_media_data: AdverseMediaDataSchema.optional(),
      document_risk_data: DocumentRiskDataSchema.optional(),
      selected_document_types: SelectedDocumentTypesSchema.optional(),
      custom_form_data: z.array(CustomFormAnswerSchema).optional(),
      title_search_data: TitleCheckFoundSchema.optional(),
      phone_checks: PhoneChecksSchema.optional(),
    })
    // Other areas add their own members (credit checks: credit_check, credit_report); the real client
    // accepts any object here, so unknown members are kept, not stripped.
    .loose()
    .openapi('SessionAnalysisData');

  return { DeclinedDataSchema, FailedAttemptSchema, FailureDataSchema, LocationDetailsSchema, ApplicantSubmissionSchema, MetaDataSchema, AnalysisDataSchema };
}

let sessionData: ReturnType<typeof buildSessionDataSchemas> | undefined;

export function sessionDataSchemas(): ReturnType<typeof buildSessionDataSchemas> {
  sessionData ??= buildSessionDataSchemas();
  return sessionData;
}

type SessionDataSchemas = ReturnType<typeof sessionDataSchemas>;
export type DeclinedData = z.infer<SessionDataSchemas['DeclinedDataSchema']>;
export type FailedAttempt = z.infer<SessionDataSchemas['FailedAttemptSchema']>;
export type FailureData = z.infer<SessionDataSchemas['FailureDataSchema']>;
export type LocationDetails = z.infer<SessionDataSchemas['LocationDetailsSchema']>;
export type ApplicantSubmission = z.infer<SessionDataSchemas['ApplicantSubmissionSchema']>;
export type MetaData = z.infer<SessionDataSchemas['MetaDataSchema']>;
export type AnalysisData = z.infer<SessionDataSchemas['AnalysisDataSchema']>;

// ─── The session record ─────────────────────────────────────────────────────────────────────────────

export const UploadsSchema = z
  .object(Object.fromEntries(UPLOAD_FLAGS.map((flag) => [flag, z.boolean()])) as Record<UploadFlag, z.ZodBoolean>)
  .openapi('SessionUploads');
export type Uploads = z.infer<typeof UploadsSchema>;

/** The eight fields of the spec's list shape. */
const listShape = {
  id: z.string().openapi({ example: '3f0c2b9e-6a51-4d7e-9b1f-2c8d4e5a6b7c' }),
  organization_id: z.string().openapi({ example: 'org_demo' }),
  user_id: z.string(),
  sender_user_id: z.string(),
  status: SessionStatusSchema,
  type: SessionTypeSchema,
  session_progress: SessionProgressSchema,
  created_at: IsoInstant,
  updated_at: IsoInstant,
};

export const SessionListItemSchema = z.object(listShape).openapi('SessionListItem');
export type SessionListItem = z.infer<typeof SessionListItemSchema>;

export const SessionRecordSchema = z
  .object({
    ...listShape,
    external_id: z.string().optional(),
    location: z.object({ country: z.string().optional() }).optional(),
    workflow_id: z.string().optional(),
    bank_statement_request_id: z.string().optional(),
    workflow_steps: z.array(z.string()).optional(),
    meta_data: z.lazy(() => sessionDataSchemas().MetaDataSchema).optional(),
    uploads: UploadsSchema.optional(),
    analysis_data: z.lazy(() => sessionDataSchemas().AnalysisDataSchema).optional(),
    redirect_url: z.string().optional(),
    expires_at: IsoInstant.optional(),
    submitted_at: IsoInstant.optional(),
  })
  .openapi('SessionRecord');
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/**
 * A user profile as GET /v1/sessions/{id} shows it (`user`, `sender_user`): a profile object with the
 * spec's seven members, every one present; `phone` is null when no phone is on file.
 */
export const UserProfileSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string().nullable().openapi({ description: 'E.164; null when the user gave no phone' }),
    created_at: IsoInstant,
    updated_at: IsoInstant,
  })
  .openapi('UserProfile');
export type UserProfile = z.infer<typeof UserProfileSchema>;
/** A profile as the store keeps it: `phone` absent when none is on file (toProfileJson presents it). */
export type StoredUserProfile = Omit<UserProfile, 'phone'> & { phone?: string };

export const ResourceLinksSchema = z.record(z.string(), z.string()).openapi('SessionResourceLinks');

export const SingleSessionResponseSchema = z
  .object({
    session_record: SessionRecordSchema,
    user: UserProfileSchema,
    sender_user: UserProfileSchema,
    resource_links: ResourceLinksSchema,
  })
  .openapi('SingleSessionResponse');
export type SingleSessionResponse = z.infer<typeof SingleSessionResponseSchema>;

export const SessionListResponseSchema = z
  .object({ sessions: z.array(SessionListItemSchema), next_token: z.string().nullable() })
  .openapi('SessionListResponse');
export type SessionListResponse = z.infer<typeof SessionListResponseSchema>;

// ─── POST /v1/sessions ──────────────────────────────────────────────────────────────────────────────

/**
 * The create body: snake_case keys with camelCase aliases, normalized to one camelCase object (camelCase
 * wins when both spellings are sent; the snake_case value is then ignored, not even validated).
 */
export const CreateSessionBodySchema = aliasedBody(
  {
    firstName: { snake: 'first_name', schema: (key) => personName(key, "the applicant's first name"), required: true },
    lastName: { snake: 'last_name', schema: (key) => personName(key, "the applicant's last name"), required: true },
    email: { schema: email, required: true },
    phone: {
      schema: (key) => e164Phone(key).openapi({ description: 'E.164; required when the workflow has a phone verification step' }),
    },
    externalId: { snake: 'external_id', schema: (key) => identifier(key, 'your own reference for the applicant') },
    sendEmailInvite: { snake: 'send_email_invite', schema: flag, default: true },
    sendPhoneInvite: { snake: 'send_phone_invite', schema: flag, default: true },
    workflowId: { snake: 'workflow_id', schema: (key) => identifier(key, 'the id of one of your workflows') },
    redirectUrl: { snake: 'redirect_url', schema: httpsUrl },
    expiresInHours: { snake: 'expires_in_hours', schema: expiresInHours },
  },
  { name: 'CreateSessionBody' },
);

/** The normalized create request: one camelCase object whatever spelling was sent. */
export type CreateSessionInput = z.infer<typeof CreateSessionBodySchema>;

export const SESSION_LINK_RELS = ['admin_console', 'session_details'] as const;

export const SessionLinkSchema = z.object({
  rel: z.enum(SESSION_LINK_RELS),
  href: z.string(),
  description: z.string(),
});
export type SessionLink = z.infer<typeof SessionLinkSchema>;

export const CreateSessionResponseSchema = z
  .object({
    id: z.string(),
    session_url: z.string(),
    externalId: z.string().optional(),
    expires_at: IsoInstant.optional(),
    links: z.array(SessionLinkSchema),
  })
  .openapi('CreateSessionResponse');
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>;

// ─── GET /v1/sessions ───────────────────────────────────────────────────────────────────────────────

/** `YYYY-MM-DD`, or a date-time with `Z` or a ±hh:mm offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** Dates checked lately: a list query's dates are checked four times per request, and pollers repeat them. */
const checkedDates = keptAnswers<boolean>(256);

export function isIsoDate(value: string): boolean {
  return checkedDates(value, () => checkIsoDate(value));
}

function checkIsoDate(value: string): boolean {
  if (!ISO_8601.test(value)) return false;
  const ms = Date.parse(value.replace(' ', 'T'));
  if (Number.isNaN(ms)) return false;
  // Date.parse rolls 2026-02-30 over to March: compare the calendar date back.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1));
  return check.getUTCFullYear() === y && check.getUTCMonth() + 1 === m && check.getUTCDate() === d;
}

const dateParam = (field: string, meaning: string) =>
  z
    .string({ error: mustBe(field, 'an ISO 8601 date or date-time') })
    .refine(isIsoDate, {
      error: mustBe(field, `an ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z), ${meaning}`),
    })
    .openapi({ description: `ISO 8601 date or date-time: ${meaning} (inclusive)`, example: '2026-01-31' })
    .optional();

export const ListSessionsQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: mustBe('limit', 'a whole number from 1 to 500') })
      .int({ error: mustBe('limit', 'a whole number from 1 to 500') })
      .min(1, { error: mustBe('limit', 'at least 1') })
      .max(500, { error: mustBe('limit', 'at most 500') })
      .default(50)
      .openapi({ type: 'integer', minimum: 1, maximum: 500, default: 50 }),
    next_token: z
      .string()
      .min(1, { error: 'next_token must not be empty: omit it for the first page, or pass the next_token of the previous response' })
      .optional(),
    start_date: dateParam('start_date', 'the earliest creation time to include'),
    end_date: dateParam('end_date', 'the latest creation time to include'),
    by_organization: z
      .enum(['true', 'false'], { error: mustBe('by_organization', '"true" or "false"') })
      .default('false')
      .transform((value) => value === 'true'),
    external_id: identifier('external_id', 'the external_id to look up').optional(),
    workflow_id: identifier('workflow_id', 'the workflow id to filter by').optional(),
  })
  .superRefine((query, ctx) => {
    if (query.start_date === undefined || query.end_date === undefined) return;
    if (!isIsoDate(query.start_date) || !isIsoDate(query.end_date)) return;
    const range = dateRange(query.start_date, query.end_date);
    if (range.fromMs > range.toMs) {
      ctx.addIssue({ code: 'custom', path: ['start_date'], message: `start_date (${query.start_date}) must be on or before end_date (${query.end_date})` });
    }
  });
export type ListSessionsQuery = z.infer<typeof ListSessionsQuerySchema>;

/**
 * The creation-time window of a list query, inclusive at both ends. A date-only end_date covers that
 * whole day (so `end_date=2026-01-31` includes sessions created at 18:00 that day).
 */
export function dateRange(startDate: string | undefined, endDate: string | undefined): { fromMs: number; toMs: number } {
  const fromMs = startDate === undefined ? Number.NEGATIVE_INFINITY : Date.parse(startDate.replace(' ', 'T'));
  let toMs = endDate === undefined ? Number.POSITIVE_INFINITY : Date.parse(endDate.replace(' ', 'T'));
  if (endDate !== undefined && endDate.length === 10) toMs += 86_400_000 - 1;
  return { fromMs, toMs };
}

// ─── PATCH /v1/sessions/{id}/update-status ──────────────────────────────────────────────────────────

export const REVIEW_STATUSES = ['VERIFIED', 'REJECTED'] as const;
export const UpdateStatusBodySchema = z
  .object(
    { new_status: z.enum(REVIEW_STATUSES, { error: mustBe('new_status', '"VERIFIED" or "REJECTED"') }) },
    { error: 'the request body must be a JSON object such as {"new_status": "VERIFIED"}' },
  )
  .openapi('UpdateSessionStatusBody');
export type UpdateStatusBody = z.infer<typeof UpdateStatusBodySchema>;

export const UpdateStatusResponseSchema = z.object({ session_record: SessionRecordSchema }).openapi('UpdateSessionStatusResponse');

// ─── POST /v1/sessions/{id}/uploads ─────────────────────────────────────────────────────────────────

/** `type/subtype`, optionally with parameters. */
const MIME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;.*)?$/;

export const MAX_UPLOAD_FILES = 20;

const UploadFileSchema = z.object(
  {
    file_name: z
      .string({ error: mustBe('file_name', 'the name of the file, 1-255 characters, e.g. "id-front.jpg"') })
      .min(1, { error: 'file_name must not be empty: send the name of the file, e.g. "id-front.jpg"' })
      .max(255, { error: mustBe('file_name', 'at most 255 characters long') }),
    content_type: z
      .string({ error: mustBe('content_type', 'a MIME type such as "image/jpeg"') })
      .regex(MIME_PATTERN, { error: mustBe('content_type', 'a MIME type such as "image/jpeg" or "application/pdf"') }),
    upload_type: z.enum(UPLOAD_TYPES, { error: mustBe('upload_type', `one of ${UPLOAD_TYPES.join(', ')} (or send a free "slot" instead)`) }).optional(),
    slot: z
      .string({ error: mustBe('slot', 'a slot name of 1-255 characters, e.g. "employment_letter"') })
      .min(1, { error: 'slot must not be empty: send a slot name of 1-255 characters, or an upload_type' })
      .max(255, { error: mustBe('slot', 'at most 255 characters long') })
      .optional(),
  },
  { error: 'each entry of files must be an object with file_name, content_type and upload_type or slot' },
);

/** One normalized file request: its effective slot, and its upload type when the slot is a named one. */
export interface UploadFileRequest {
  fileName: string;
  contentType: string;
  slot: string;
  uploadType?: UploadType;
}

export const SessionUploadsBodySchema = z
  .object(
    {
      files: z
        .array(UploadFileSchema, { error: 'files must be an array of {file_name, content_type, upload_type | slot}' })
        .min(1, { error: 'files must contain at least one file' })
        .max(MAX_UPLOAD_FILES, { error: `files must contain at most ${MAX_UPLOAD_FILES} files per request` }),
    },
    { error: 'the request body must be a JSON object such as {"files": [{"file_name": "id.jpg", "content_type": "image/jpeg", "upload_type": "id_front"}]}' },
  )
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.files.forEach((file, index) => {
      if (file.upload_type !== undefined && file.slot !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['files', index], message: `files[${index}] must send EITHER upload_type OR slot, not both` });
        return;
      }
      const slot = file.upload_type ?? file.slot;
      if (slot === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['files', index],
          message: `files[${index}] needs an upload_type (${UPLOAD_TYPES.join(', ')}) or a free slot name`,
        });
        return;
      }
      const first = seen.get(slot);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['files', index],
          message: `files[${index}] uses slot "${slot}" already used by files[${first}]: each slot may appear once per request`,
        });
      } else seen.set(slot, index);
    });
  })
  .transform((body): UploadFileRequest[] =>
    body.files.map((file) => {
      const slot = (file.upload_type ?? file.slot) as string;
      const uploadType = (UPLOAD_TYPES as readonly string[]).includes(slot) ? (slot as UploadType) : undefined;
      return uploadType === undefined
        ? { fileName: file.file_name, contentType: file.content_type, slot }
        : { fileName: file.file_name, contentType: file.content_type, slot, uploadType };
    }),
  );

export const SignedUploadSchema = z.object({
  file_key: z.string(),
  slot: z.string(),
  upload_type: UploadTypeSchema.optional(),
  upload_url: z.string(),
});
export type SignedUpload = z.infer<typeof SignedUploadSchema>;

export const SessionUploadsResponseSchema = z.object({ signed_urls: z.array(SignedUploadSchema) }).openapi('SessionUploadsResponse');
export type SessionUploadsResponse = z.infer<typeof SessionUploadsResponseSchema>;

// ─── POST /__sandbox/sessions/{id}/outcome ──────────────────────────────────────────────────────────

export const CONTROL_OUTCOMES = ['SUBMITTED', 'VERIFIED', 'REJECTED', 'VOIDED', 'FAILED', 'abandoned', 'expired'] as const;
export type ControlOutcome = (typeof CONTROL_OUTCOMES)[number];

/** Body of POST /__sandbox/sessions/{id}/outcome. */
export const SessionOutcomeBodySchema = z
  .object({
    outcome: z.enum(CONTROL_OUTCOMES, {
      error: `outcome must be one of ${CONTROL_OUTCOMES.join(', ')}`,
    }),
    failed_attempts: z
      .number({ error: 'failed_attempts must be a whole number from 1 to 10 (only used with outcome FAILED)' })
      .int({ error: 'failed_attempts must be a whole number from 1 to 10' })
      .min(1, { error: 'failed_attempts must be at least 1' })
      .max(10, { error: 'failed_attempts must be at most 10' })
      .optional(),
  })
  .openapi('SandboxSessionOutcomeBody');
export type SessionOutcomeBody = z.infer<typeof SessionOutcomeBodySchema>;

/** What POST /__sandbox/sessions/{id}/outcome answers: the record after the move, and why. */
export const SessionOutcomeResponseSchema = z
  .object({
    session_record: SessionRecordSchema,
    from: SessionStatusSchema,
    to: SessionStatusSchema,
    display_status: z
      .enum([...SESSION_STATUSES, 'EXPIRED'])
      .openapi({ description: 'The status, or EXPIRED for a PENDING session whose expires_at has passed on the sandbox clock.' }),
    explanation: z.string(),
  })
  .openapi('SandboxSessionOutcomeResponse');
export type SessionOutcomeResponse = z.infer<typeof SessionOutcomeResponseSchema>;

// ─── Path parameters ────────────────────────────────────────────────────────────────────────────────

/**
 * A session id in the path (URL-decoded: the real client encodes it with encodeURIComponent), checked
 * without zod's async mode: every read of a session crosses it.
 */
export const SessionIdParamsSchema = checkedInOneTurn(
  z.object({
    id: z
      .string()
      .min(1, { error: 'id must not be empty: put the session id in the path, e.g. /v1/sessions/<id>' })
      .max(255, { error: 'id must be at most 255 characters long' })
      .openapi({
        param: { name: 'id', in: 'path' },
        example: 'test_verified',
        description: 'A session id (sandbox keys also accept the test identifiers such as test_verified).',
      }),
  }),
);
