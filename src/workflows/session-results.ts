/**
 * The shapes a workflow run's results take on the hosted session that runs it: the session's statuses
 * and progress, the failure reasons and slots of a failed attempt, the upload types a step takes, the
 * ID-analysis members a step writes, the failed-attempt limit. The workflows area owns them (its step
 * engine writes them); the sessions area builds its record from them (sessions.schemas.ts re-exports
 * them). Zod only: a session read evaluates this without the step engine.
 */
import { z } from '@hono/zod-openapi';

export const SESSION_STATUSES = ['VERIFIED', 'REJECTED', 'PENDING', 'SUBMITTED', 'VOIDED', 'FAILED'] as const;
export const SessionStatusSchema = z.enum(SESSION_STATUSES).openapi('SessionStatus');
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export const SESSION_PROGRESSES = ['PENDING', 'STARTED', 'COMPLETED'] as const;
export const SessionProgressSchema = z.enum(SESSION_PROGRESSES).openapi('SessionProgress');
export type SessionProgress = z.infer<typeof SessionProgressSchema>;

/** The upload types a caller may request by name (real-client-facts §6.2). */
export const UPLOAD_TYPES = [
  'id_front',
  'id_back',
  'secondary_id_front',
  'secondary_id_back',
  'tertiary_id_front',
  'tertiary_id_back',
  'selfie_front',
] as const;
export const UploadTypeSchema = z.enum(UPLOAD_TYPES).openapi('SessionUploadType');
export type UploadType = z.infer<typeof UploadTypeSchema>;

/** The reasons the spec observed (what hosted sessions fail with). */
export const OBSERVED_FAILURE_REASONS = ['NO_FACE_DETECTED', 'OCR_NAME_MISSING', 'DOC_TYPE_NOT_ALLOWED'] as const;
/** The observed reasons, then those of workflow steps (document checks, face match, liveness, the other step types). */
export const FAILURE_REASONS = [
  ...OBSERVED_FAILURE_REASONS,
  'DOCUMENT_EXPIRED',
  'AGE_RESTRICTION_FAILED',
  'STATE_NOT_ALLOWED',
  'LOW_FACE_MATCH',
  'LIVENESS_FAILED',
  // Screening, phone and bank-statement steps of hosted workflow sessions.
  'SCREENING_MATCH',
  'SCREENING_UNAVAILABLE',
  'TITLE_NOT_VERIFIED',
  'PHONE_CHECK_FAILED',
  'CARRIER_UNAVAILABLE',
  'PHONE_CODE_INVALID',
  'BANK_STATEMENT_REJECTED',
  'CONSENT_DECLINED',
  'DEEPFAKE_DETECTED',
  'FILE_NOT_ACCEPTED',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
/** The document a failed attempt is about, LIVENESS for the liveness capture, STEP for a step that checks no document. */
export const FAILURE_SLOTS = ['PRIMARY', 'SECONDARY', 'TERTIARY', 'LIVENESS', 'STEP'] as const;
export type FailureSlot = (typeof FAILURE_SLOTS)[number];

/** How many failed attempts end a session when the workflow does not say. */
export const DEFAULT_MAX_FAILED_ATTEMPTS = 3;

export const ExtractedTextSchema = z.object({
  type: z.string().openapi({ example: 'FIRST_NAME' }),
  value: z.string(),
  confidence: z.number().min(0).max(100),
});
export type ExtractedText = z.infer<typeof ExtractedTextSchema>;

const DetectFaceDataSchema = z.object({
  face_detected: z.boolean(),
  confidence: z.number().min(0).max(100),
  bounding_box: z.object({ top: z.number(), left: z.number(), width: z.number(), height: z.number() }),
});

export const IdAnalysisDataSchema = z
  .object({
    detect_face_data: DetectFaceDataSchema,
    id_extracted_text: z.array(ExtractedTextSchema),
    expiry_date_pass: z.boolean(),
    valid_state_pass: z.boolean(),
    age_restriction_pass: z.boolean(),
  })
  .openapi('IdAnalysisData');
export type IdAnalysisData = z.infer<typeof IdAnalysisDataSchema>;

/** Whole years between a YYYY-MM-DD birth date and an instant. */
export function ageAt(dateOfBirth: string, atIso: string): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number);
  const at = new Date(atIso);
  let age = at.getUTCFullYear() - (y ?? 0);
  const beforeBirthday = at.getUTCMonth() + 1 < (m ?? 1) || (at.getUTCMonth() + 1 === m && at.getUTCDate() < (d ?? 1));
  if (beforeBirthday) age -= 1;
  return age;
}

/** The upload-store owner of a session's uploads (a step reads the files the applicant sent to its session). */
export function sessionUploadOwner(sessionId: string): string {
  return `session:${sessionId}`;
}
