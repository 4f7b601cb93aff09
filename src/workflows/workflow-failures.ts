/**
 * Why a headless step's attempt failed, as the clients read it: the `failure` object of the step envelope
 * and of GET /v1/sessions/{id}/workflow ({code, category, user_action, retryable, slot, message}), and
 * `session_failure` ({code, step_id, failure}) once a run ended without being submitted.
 *
 * One table (WORKFLOW_FAILURES) says, per code, its category, what the user should do, the spec's
 * meta_data.failureData reason it is recorded under, and the inputs that trigger it: real image content
 * and a magic applicant last name (case-insensitive) that forces it whatever the pictures show. The steps
 * (id-verification.step.ts, face-liveness.step.ts) decide a code; everything else reads it from here.
 */
import { z } from '@hono/zod-openapi';
import type { FailureReason, FailureSlot } from '../sessions/sessions.schemas.ts';
import type { StepCode } from './workflow-steps.ts';

export const FAILURE_CATEGORIES = ['DOCUMENT', 'SELFIE', 'FACE_MATCH', 'LIVENESS', 'OTHER'] as const;
export const USER_ACTIONS = ['RETAKE_DOCUMENT', 'USE_DIFFERENT_DOCUMENT', 'RETAKE_SELFIE', 'RETRY_LIVENESS', 'RETRY_STEP', 'NONE'] as const;
export const FAILURE_DOCUMENT_SLOTS = ['PRIMARY', 'SECONDARY', 'TERTIARY'] as const;

export interface WorkflowFailureRow {
  category: (typeof FAILURE_CATEGORIES)[number];
  user_action: (typeof USER_ACTIONS)[number];
  /** The meta_data.failureData reason the attempt is recorded under. */
  reason: FailureReason;
  step: StepCode;
  /** Real content that triggers it. */
  content: string;
  /** The applicant last name that forces it (null: reached from content or other magic only). */
  magicLastName: string | null;
  message: string;
}

export const WORKFLOW_FAILURES = {
  DOCUMENT_TYPE_UNRECOGNIZED: {
    category: 'DOCUMENT',
    user_action: 'USE_DIFFERENT_DOCUMENT',
    reason: 'DOC_TYPE_NOT_ALLOWED',
    step: 'ID_VERIFICATION',
    content: 'document_type that is not a document type at all, e.g. "library-card"',
    magicLastName: 'Unrecognized',
    message: 'The document type is not one the service recognises.',
  },
  DOCUMENT_TYPE_NOT_ACCEPTED: {
    category: 'DOCUMENT',
    user_action: 'USE_DIFFERENT_DOCUMENT',
    reason: 'DOC_TYPE_NOT_ALLOWED',
    step: 'ID_VERIFICATION',
    content: 'a document type of a known kind that the step does not accept, e.g. "passport-gb" or "driver-license-mx"',
    magicLastName: 'Unaccepted',
    message: 'The document type is recognised but not accepted by this workflow.',
  },
  ID_TEXT_NOT_READABLE: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'OCR_NAME_MISSING',
    step: 'ID_VERIFICATION',
    content: 'an ID front that is flat or tiny (fixtures/images/blank.png)',
    magicLastName: 'Unreadable',
    message: 'The text of the document could not be read.',
  },
  DOCUMENT_TYPE_LOW_CONFIDENCE: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'DOC_TYPE_NOT_ALLOWED',
    step: 'ID_VERIFICATION',
    content: 'an ID front that is a picture but not of an identity document (a plain portrait such as fixtures/images/face.jpg)',
    magicLastName: 'Lowconfidence',
    message: 'The picture does not look enough like the declared document type.',
  },
  ID_FACE_NOT_DETECTED: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'NO_FACE_DETECTED',
    step: 'ID_VERIFICATION',
    content: 'a readable ID front on which no portrait face is found',
    magicLastName: 'Faceless',
    message: 'No face was found on the document.',
  },
  SELFIE_FACE_NOT_DETECTED: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    step: 'ID_VERIFICATION',
    content: 'a selfie without a face (fixtures/images/blank.png)',
    magicLastName: 'Noselfie',
    message: 'No face was found in the selfie.',
  },
  SELFIE_MULTIPLE_FACES: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    step: 'ID_VERIFICATION',
    content: 'a selfie that is a picture of an identity document (the holder plus the printed portrait), e.g. fixtures/images/passport.jpg',
    magicLastName: 'Crowd',
    message: 'More than one face was found in the selfie.',
  },
  SELFIE_ID_FACE_MISMATCH: {
    category: 'FACE_MATCH',
    user_action: 'RETAKE_SELFIE',
    reason: 'LOW_FACE_MATCH',
    step: 'ID_VERIFICATION',
    content: 'a selfie of another person than the ID portrait (fixtures/images/different-face.jpg with passport.jpg)',
    magicLastName: 'Mismatch',
    message: 'The selfie does not match the face on the document.',
  },
  LIVENESS_ID_MISMATCH: {
    category: 'FACE_MATCH',
    user_action: 'RETRY_LIVENESS',
    reason: 'LOW_FACE_MATCH',
    step: 'FACE_LIVENESS',
    content: 'liveness frames of another person than the ID_VERIFICATION selfie (different-face.jpg frames after a face.jpg selfie)',
    magicLastName: 'Impostor',
    message: 'The face in the liveness capture does not match the verified ID.',
  },
  LIVENESS_FAILED: {
    category: 'LIVENESS',
    user_action: 'RETRY_LIVENESS',
    reason: 'LIVENESS_FAILED',
    step: 'FACE_LIVENESS',
    content: 'liveness frames without a face (blank.png), or a score below the step’s confidence_threshold',
    magicLastName: 'Spoof',
    message: 'The liveness check did not pass.',
  },
  UNKNOWN: {
    category: 'DOCUMENT',
    user_action: 'USE_DIFFERENT_DOCUMENT',
    reason: 'DOCUMENT_EXPIRED',
    step: 'ID_VERIFICATION',
    content:
      'a document that is expired, under or over the age range, or from a state not accepted (reason DOCUMENT_EXPIRED, AGE_RESTRICTION_FAILED or STATE_NOT_ALLOWED)',
    magicLastName: 'Expired',
    message: 'The document failed a check (expiry, age or state).',
  },
} as const satisfies Record<string, WorkflowFailureRow>;

export type WorkflowFailureCode = keyof typeof WORKFLOW_FAILURES;
export const WORKFLOW_FAILURE_CODES = Object.keys(WORKFLOW_FAILURES) as WorkflowFailureCode[];

/** The failure code a magic last name forces, if any. */
export function magicFailureCode(lastName: string, step: WorkflowFailureRow['step']): WorkflowFailureCode | undefined {
  const wanted = lastName.trim().toLowerCase();
  return WORKFLOW_FAILURE_CODES.find((code) => {
    const row: WorkflowFailureRow = WORKFLOW_FAILURES[code];
    return row.step === step && row.magicLastName !== null && row.magicLastName.toLowerCase() === wanted && code !== 'UNKNOWN';
  });
}

export const WorkflowFailureSchema = z
  .object({
    code: z.enum(WORKFLOW_FAILURE_CODES as [WorkflowFailureCode, ...WorkflowFailureCode[]]),
    category: z.enum(FAILURE_CATEGORIES),
    user_action: z.enum(USER_ACTIONS),
    retryable: z.boolean().openapi({ description: 'false once the attempts are used up' }),
    slot: z.enum(FAILURE_DOCUMENT_SLOTS).nullable().openapi({ description: 'The document the failure is about; null for selfie and liveness failures.' }),
    message: z.string().openapi({ description: 'Developer text: what failed and the measured values.' }),
  })
  .openapi('WorkflowFailure');
export type WorkflowFailure = z.infer<typeof WorkflowFailureSchema>;

export const SESSION_FAILURE_CODES = ['ATTEMPTS_EXHAUSTED', 'STEP_BLOCKED', 'SESSION_EXPIRED'] as const;

export const SessionFailureSchema = z
  .object({
    code: z.enum(SESSION_FAILURE_CODES).openapi({
      description:
        'ATTEMPTS_EXHAUSTED: the failed-attempt limit ended the session FAILED; SESSION_EXPIRED: expires_at passed with a step open; STEP_BLOCKED: the session was ended (REJECTED or VOIDED) with a step open.',
    }),
    step_id: z.string().optional(),
    failure: WorkflowFailureSchema.optional(),
  })
  .openapi('WorkflowSessionFailure');
export type SessionFailure = z.infer<typeof SessionFailureSchema>;

/** An attempt's failure as a step decides it: the code, the measured detail and the document slot (if any). */
export interface StepFailure {
  code: WorkflowFailureCode;
  /** failureData reason when it differs from the table's (UNKNOWN covers several). */
  reason?: FailureReason;
  slot: FailureSlot;
  detail: string;
}

/** The failureData reason and slot of a failure. */
export function failureDataOf(failure: StepFailure): { reason: FailureReason; slot: FailureSlot } {
  return { reason: failure.reason ?? WORKFLOW_FAILURES[failure.code].reason, slot: failure.slot };
}

/** The wire `failure` of an attempt; `retryable` false once the session has no attempt left. */
export function toWireFailure(failure: StepFailure, retryable: boolean): WorkflowFailure {
  const row: WorkflowFailureRow = WORKFLOW_FAILURES[failure.code];
  return {
    code: failure.code,
    category: row.category,
    user_action: retryable ? row.user_action : 'NONE',
    retryable,
    slot: row.category === 'DOCUMENT' && failure.slot !== 'LIVENESS' ? failure.slot : null,
    message: `${row.message} ${failure.detail}`,
  };
}
