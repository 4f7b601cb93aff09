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
import type { FailureReason, FailureSlot } from './session-results.ts';
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
  /** Other steps that give the same code (a carrier outage fails any of the three phone checks). */
  alsoSteps?: readonly StepCode[];
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
  CONSENT_DECLINED: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'CONSENT_DECLINED',
    step: 'CONSENT',
    content: '{"accepted": false}: the run ends, the session is REJECTED',
    magicLastName: null,
    message: 'The applicant declined the consent.',
  },
  BIOMETRIC_CONSENT_DECLINED: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'CONSENT_DECLINED',
    step: 'FACE_LIVENESS_CONSENT_SETTINGS',
    content: '{"accepted": false}: the run ends, the session is REJECTED',
    magicLastName: null,
    message: 'The applicant declined the biometric (face) consent.',
  },
  AGE_ESTIMATION_NO_FACE: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    step: 'AGE_ESTIMATION',
    content: 'a selfie without a face (fixtures/images/blank.png)',
    magicLastName: null,
    message: 'No face was found to estimate an age from.',
  },
  AGE_ESTIMATION_UNDER_MINIMUM: {
    category: 'SELFIE',
    user_action: 'NONE',
    reason: 'AGE_RESTRICTION_FAILED',
    step: 'AGE_ESTIMATION',
    content: 'a selfie whose estimated age is under the step’s minimum_age (e.g. minimum_age 60 with fixtures/images/face.jpg)',
    magicLastName: 'Underage',
    message: 'The estimated age is under the minimum age.',
  },
  DEEP_AGE_NO_FACE: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    step: 'DEEP_AGE',
    content: 'no selfie with a face earlier in the run (AGE_ESTIMATION or ID_VERIFICATION selfie_front)',
    magicLastName: null,
    message: 'No selfie with a face to analyse.',
  },
  DEEP_AGE_UNDER_MINIMUM: {
    category: 'SELFIE',
    user_action: 'NONE',
    reason: 'AGE_RESTRICTION_FAILED',
    step: 'DEEP_AGE',
    content: 'the lower bound of the selfie’s age range is under minimum_age (config, default 18)',
    magicLastName: 'Underage',
    message: 'The deep age analysis puts the applicant under the minimum age.',
  },
  DEEP_AGE_DOCUMENT_MISMATCH: {
    category: 'FACE_MATCH',
    user_action: 'NONE',
    reason: 'AGE_RESTRICTION_FAILED',
    step: 'DEEP_AGE',
    content: 'the age on the ID_VERIFICATION document is outside the selfie’s estimated age range widened by max_age_gap years (config, default 10)',
    magicLastName: null,
    message: 'The age on the document does not fit the face.',
  },
  DEEPFAKE_DETECTED: {
    category: 'LIVENESS',
    user_action: 'RETRY_LIVENESS',
    reason: 'DEEPFAKE_DETECTED',
    step: 'DEEPFAKE_DETECTION',
    content: 'frames the deepfake engine judges DEEPFAKE or trust REJECT (e.g. no face, poses that do not fit frame_meta), or its magic challenge words',
    magicLastName: null,
    message: 'The capture looks synthetic or replayed.',
  },
  DEEPFAKE_INCONCLUSIVE: {
    category: 'LIVENESS',
    user_action: 'RETRY_LIVENESS',
    reason: 'DEEPFAKE_DETECTED',
    step: 'DEEPFAKE_DETECTION',
    content: 'frames the deepfake engine judges INCONCLUSIVE or trust REVIEW',
    magicLastName: null,
    message: 'The deepfake analysis was inconclusive.',
  },
  DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'FILE_NOT_ACCEPTED',
    step: 'DOCUMENT_UPLOAD',
    content: 'an uploaded file whose bytes are neither an image (JPEG, PNG, WebP, …) nor a PDF, or an image too flat to read (fixtures/images/blank.png)',
    magicLastName: null,
    message: 'An uploaded document is not a readable image or PDF.',
  },
  CUSTOM_PROMPT_FILE_NOT_ACCEPTED: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'FILE_NOT_ACCEPTED',
    step: 'CUSTOM_PROMPT',
    content: 'an uploaded file whose bytes are neither an image nor a PDF, or an image too flat to read (fixtures/images/blank.png)',
    magicLastName: null,
    message: 'An uploaded answer to the prompt is not a readable image or PDF.',
  },
  ADDRESS_DOCUMENT_NOT_READABLE: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'OCR_NAME_MISSING',
    step: 'ADDRESS_VERIFICATION',
    content: 'a proof of address that is not a readable image or PDF (fixtures/images/blank.png)',
    magicLastName: 'Noaddress',
    message: 'The proof of address could not be read.',
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
  // ─── Screening, phone and bank-statement steps (hosted workflow sessions) ───
  PEP_MATCH: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    step: 'PEP_SANCTIONS',
    content: 'a person on a PEP list only: first_name Ottoline, last_name Brackenbury, date_of_birth 1961-07-14 (ends the run: REJECTED)',
    magicLastName: null,
    message: 'The person is a politically exposed person.',
  },
  SANCTIONS_MATCH: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    step: 'PEP_SANCTIONS',
    content: 'a person on a sanctions list (or on both kinds): Radomir Kestrelov 1966-09-30, Emile Vautrin-Lacoste 1955-11-23 (ends the run: REJECTED)',
    magicLastName: null,
    message: 'The person is on a sanctions list.',
  },
  ADVERSE_MEDIA_HIT: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    step: 'ADVERSE_MEDIA',
    content: 'adverse media risk HIGH or CRITICAL: Harper High, Cyrus Critical (ends the run: REJECTED)',
    magicLastName: null,
    message: 'Adverse media of high or critical risk was found.',
  },
  SCREENING_UNAVAILABLE: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'SCREENING_UNAVAILABLE',
    step: 'ADVERSE_MEDIA',
    alsoSteps: ['BACKGROUND_CHECK'],
    content: 'the adverse-media job failed: the person Fay Failure, or the async-jobs-fail scenario during start (start again)',
    magicLastName: null,
    message: 'The screening provider failed to complete the check.',
  },
  BACKGROUND_CHECK_HIT: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    step: 'BACKGROUND_CHECK',
    content:
      'the identity read from the document is on a watchlist or has HIGH/CRITICAL adverse media (document identities are synthetic: force it with an attempt script; ends the run: REJECTED)',
    magicLastName: null,
    message: 'The background check of the identity on the document found a hit.',
  },
  TITLE_NOT_FOUND: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'TITLE_NOT_VERIFIED',
    step: 'TITLE_SEARCH',
    content: 'a US address without a property record, e.g. "404 Nowhere Lane, Springfield, IL 62701", or one that cannot be located',
    magicLastName: null,
    message: 'No property record was found at the address.',
  },
  TITLE_MULTIPLE_PROPERTIES: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'TITLE_NOT_VERIFIED',
    step: 'TITLE_SEARCH',
    content: 'a multi-unit building without a unit, e.g. "2 Sandbox Towers, Springfield, IL 62701" (resend with a unit)',
    magicLastName: null,
    message: 'Several properties are at the address: name the unit.',
  },
  TITLE_UNSUPPORTED_REGION: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'TITLE_NOT_VERIFIED',
    step: 'TITLE_SEARCH',
    content: 'an address outside the US, e.g. "221B Baker Street, London NW1 6XE, United Kingdom"',
    magicLastName: null,
    message: 'Title search covers US addresses only.',
  },
  PHONE_TRUST_TRIPPED: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'PHONE_CHECK_FAILED',
    step: 'PHONE_TRUST_CHECK',
    content: 'a session phone with a recent SIM swap or call forwarding: +447700900003, +447700900004, +447700900005, +447700900006',
    magicLastName: null,
    message: 'The phone shows a recent SIM swap or active call forwarding.',
  },
  PHONE_OWNERSHIP_MISMATCH: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'PHONE_CHECK_FAILED',
    step: 'PHONE_OWNERSHIP_MATCH',
    content: "a session phone whose subscriber's name differs from the applicant's: +447700900002 (score 0), +447700900169 (score 69)",
    magicLastName: null,
    message: "The carrier's subscriber is not the applicant.",
  },
  PHONE_OWNERSHIP_NO_DATA: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'PHONE_CHECK_FAILED',
    step: 'PHONE_OWNERSHIP_MATCH',
    content: 'a session phone the carrier holds no data for: +447700900008, or any number outside UK mobiles (e.g. +12015550123)',
    magicLastName: null,
    message: 'The carrier holds no subscriber data for the phone.',
  },
  CARRIER_AGE_NOT_VERIFIED: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'PHONE_CHECK_FAILED',
    step: 'CARRIER_AGE_GATE',
    content: 'a session phone whose subscriber is under 18: +447700900010 (16), +447700900017 (turns 18 tomorrow)',
    magicLastName: null,
    message: "The carrier's subscriber is younger than the required age.",
  },
  CARRIER_AGE_NO_DATA: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'PHONE_CHECK_FAILED',
    step: 'CARRIER_AGE_GATE',
    content: 'a session phone the carrier holds no date of birth for: +447700900008, or any number outside UK mobiles',
    magicLastName: null,
    message: "The carrier holds no date of birth for the phone's subscriber.",
  },
  CARRIER_UNAVAILABLE: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'CARRIER_UNAVAILABLE',
    step: 'PHONE_TRUST_CHECK',
    alsoSteps: ['PHONE_OWNERSHIP_MATCH', 'CARRIER_AGE_GATE'],
    content: 'the session phone +447700900009 (the carrier data provider is down)',
    magicLastName: null,
    message: 'The carrier data provider did not answer.',
  },
  PHONE_CODE_INCORRECT: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'PHONE_CODE_INVALID',
    step: 'PHONE_VERIFICATION',
    content: 'complete with a code other than the one sent by SMS (the outbox shows the right one)',
    magicLastName: null,
    message: 'The code entered is not the code sent.',
  },
  PHONE_CODE_EXPIRED: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'PHONE_CODE_INVALID',
    step: 'PHONE_VERIFICATION',
    content: 'complete with the code more than 10 minutes (sandbox clock) after it was sent (start again for a new code)',
    magicLastName: null,
    message: 'The code expired before it was entered.',
  },
  BANK_STATEMENT_HIGH_RISK: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'BANK_STATEMENT_REJECTED',
    step: 'AI_BANK_STATEMENT_ANALYSIS',
    content: 'a statement with a balance below zero or no regular income: the bank PrairieSky in the BANK_STATEMENT_UPLOAD start (ends the run: REJECTED)',
    magicLastName: null,
    message: 'The bank statement analysis found a high risk.',
  },
  BANK_STATEMENT_NOT_ANALYSABLE: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'BANK_STATEMENT_REJECTED',
    step: 'AI_BANK_STATEMENT_ANALYSIS',
    content: "statements uploaded on the bank-statement request's page instead of a linked bank (no statement to read)",
    magicLastName: null,
    message: 'There is no bank statement to analyse.',
  },
} as const satisfies Record<string, WorkflowFailureRow>;

export type WorkflowFailureCode = keyof typeof WORKFLOW_FAILURES;
export const WORKFLOW_FAILURE_CODES = Object.keys(WORKFLOW_FAILURES) as WorkflowFailureCode[];

/** The failure codes a step type can give (its module's `failures`). */
export function failuresOfStep(step: StepCode): WorkflowFailureCode[] {
  return WORKFLOW_FAILURE_CODES.filter((code) => {
    const row: WorkflowFailureRow = WORKFLOW_FAILURES[code];
    return row.step === step || (row.alsoSteps?.includes(step) ?? false);
  });
}
/** The step failure codes as a coverage table: a failed attempt inside a 200 counts as its code. */
export const STEP_FAILURE_COVERAGE = {
  name: 'workflow step failure codes',
  operation: 'submitWorkflowStep',
  member: 'failure.code',
  values: WORKFLOW_FAILURE_CODES,
} as const;

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
        'ATTEMPTS_EXHAUSTED: the failed-attempt limit ended the session FAILED; SESSION_EXPIRED: expires_at passed with a step open; STEP_BLOCKED: the session was ended (REJECTED or VOIDED) with a step open, or a step ended the run (declined consent).',
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
    slot: row.category === 'DOCUMENT' && failure.slot !== 'LIVENESS' && failure.slot !== 'STEP' ? failure.slot : null,
    message: `${row.message} ${failure.detail}`,
  };
}
