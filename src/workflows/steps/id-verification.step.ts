/**
 * The headless ID_VERIFICATION step, executed for real on the uploaded files: the body is checked against
 * the step's requirements (the spec's table), every file key is read from the upload store (the
 * session's organization only) and decoded, each document is scanned with the document-scan engine,
 * id_front is compared with selfie_front by the face-compare engine, and the expiry, age and state
 * checks run against the workflow's resolved config on the virtual clock.
 *
 * The first failing check, in this order, is the attempt's failure reason: DOC_TYPE_NOT_ALLOWED,
 * OCR_NAME_MISSING (unreadable document), NO_FACE_DETECTED (selfie), DOCUMENT_EXPIRED,
 * AGE_RESTRICTION_FAILED, STATE_NOT_ALLOWED, LOW_FACE_MATCH; documents are checked in order (primary,
 * secondary, tertiary).
 *
 * Magic values (ID_DOCUMENT_MAGIC_VALUES): the applicant's last name forces an expired or under-age
 * document whatever the pictures, so QA can reach each outcome with the fixture images.
 *
 * LIMITATIONS:
 * - Document back images are read and decoded (so a broken file is refused) but not analysed.
 * - expiry_date_years is read as a grace period: a document passes until that many years after its
 *   expiration date (0: it must not be expired).
 */
import { scanDocument } from '../../document/api.ts';
import { enrolSessionSelfie } from '../../face-registry/face-registry.ts';
import { compareFaces, FACE_MATCH_THRESHOLD } from '../../face/api.ts';
import type { AnalysedImage } from '../../images/image-analysis.ts';
import { round } from '../../platform/numbers.ts';
import { loadImages, type LoadedImage } from '../../images/image-loading.ts';
import { imageApiError } from '../../images/image-request.ts';
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../platform/errors/api-error.ts';
import { UploadStore } from '../../platform/uploads/uploads.ts';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { ageAt, UPLOAD_TYPES, type ExtractedText, type FailureReason, type FailureSlot, type IdAnalysisData } from '../session-results.ts';
import { FRONT_ONLY_DOCUMENT_TYPES, idDocumentType, isFrontOnly, isRecognisedDocumentType, VALID_ID_TYPES, VALID_STATES } from '../id-document-types.ts';
import { workflowError } from '../workflow-errors.ts';
import type { IdVerificationRequirements } from './step-schemas.ts';
import { defineStep, magicFailureCode, type StepFailure, type UploadReader, type FailureRow } from './step-module.ts';
import { idVerificationSettings, type IdVerificationSettings } from './step-configs.ts';
import { fileField, storedUploads, submitButton, text, withOptional, type FormView, type Html, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

// ─── Body and config ────────────────────────────────────────────────────────────────────────────────

const fileKey = (field: string) =>
  z
    .string({ error: mustBe(field, 'a file key from POST /v1/sessions/{id}/uploads or POST /v1/upload/presign') })
    .min(1, { error: `${field} must not be empty: send the file_key of an uploaded image` });

const documentTypeField = (field: string) =>
  z
    .string({ error: mustBe(field, 'a document type such as passport-us or driver-license-us') })
    .min(1, { error: `${field} must not be empty: send a document type such as passport-us` });

/** An ID_VERIFICATION step takes the same document and selfie slots a session's uploads name. */
export const ID_VERIFICATION_UPLOADS = UPLOAD_TYPES;
export type IdVerificationUpload = (typeof ID_VERIFICATION_UPLOADS)[number];

export const IdVerificationStepBodySchema = z
  .strictObject({
    document_type: documentTypeField('document_type'),
    secondary_document_type: documentTypeField('secondary_document_type').optional(),
    tertiary_document_type: documentTypeField('tertiary_document_type').optional(),
    uploads: z.strictObject(
      {
        id_front: fileKey('id_front'),
        id_back: fileKey('id_back').optional(),
        secondary_id_front: fileKey('secondary_id_front').optional(),
        secondary_id_back: fileKey('secondary_id_back').optional(),
        tertiary_id_front: fileKey('tertiary_id_front').optional(),
        tertiary_id_back: fileKey('tertiary_id_back').optional(),
        selfie_front: fileKey('selfie_front'),
      },
      {
        error: (issue) =>
          issue.code === 'invalid_type'
            ? mustBe(
                'uploads',
                'an object of file keys: {"id_front": ..., "selfie_front": ...}',
                'send {"id_front": <file key>, "selfie_front": <file key>, ...}',
              )(issue)
            : undefined,
      },
    ),
  })
  .openapi('IdVerificationStepBody');
export type IdVerificationStepBody = z.infer<typeof IdVerificationStepBodySchema>;

export interface IdVerificationContext {
  /** The applicant's last name (magic values). */
  lastName: string;
  nowIso: string;
  settings: IdVerificationSettings;
}

export interface IdVerificationRun {
  failure?: StepFailure;
  /** analysis_data members. */
  analysis: Record<string, unknown>;
  /** What each check found (the step response's `checks`). */
  checks: Record<string, unknown>;
  /** The record's uploads flags this attempt fills. */
  uploadedSlots: IdVerificationUpload[];
  /** 0-100 liveness score of the selfie's content (the face's detection confidence; 0 without a face). */
  selfieLivenessScore: number;
  /** The selfie as decoded and analysed (what face enrolment offers to the face registry). */
  selfie: AnalysedImage;
  explanations: string[];
}

// ─── Magic values ───────────────────────────────────────────────────────────────────────────────────

export type DocumentMagicEffect = 'expired' | 'under_age';

export const ID_DOCUMENT_MAGIC_VALUES: readonly { lastName: string; effect: DocumentMagicEffect; outcome: string; description: string }[] = [
  {
    lastName: 'Expired',
    effect: 'expired',
    outcome: 'every ID document reads as expired beyond the grace period (expiry_date_pass false) -> failed attempt DOCUMENT_EXPIRED',
    description: 'expiration date = check day minus (expiry_date_years + 1) years',
  },
  {
    lastName: 'Underage',
    effect: 'under_age',
    outcome: 'every ID document holder is one year under minimum_age (age_restriction_pass false) -> failed attempt AGE_RESTRICTION_FAILED',
    description: 'date of birth = check day minus (minimum_age - 1) years',
  },
];

function magicFor(lastName: string) {
  return ID_DOCUMENT_MAGIC_VALUES.find((entry) => entry.lastName.toLowerCase() === lastName.trim().toLowerCase());
}

// ─── The body against the requirements ──────────────────────────────────────────────────────────────

interface DocumentSlot {
  slot: FailureSlot;
  typeField: 'document_type' | 'secondary_document_type' | 'tertiary_document_type';
  front: IdVerificationUpload;
  back: IdVerificationUpload;
  analysisMember: 'id_analysis_data' | 'secondary_id_analysis_data' | 'tertiary_id_analysis_data';
}

const DOCUMENT_SLOTS: readonly DocumentSlot[] = [
  { slot: 'PRIMARY', typeField: 'document_type', front: 'id_front', back: 'id_back', analysisMember: 'id_analysis_data' },
  {
    slot: 'SECONDARY',
    typeField: 'secondary_document_type',
    front: 'secondary_id_front',
    back: 'secondary_id_back',
    analysisMember: 'secondary_id_analysis_data',
  },
  { slot: 'TERTIARY', typeField: 'tertiary_document_type', front: 'tertiary_id_front', back: 'tertiary_id_back', analysisMember: 'tertiary_id_analysis_data' },
];

const bad = (message: string) => workflowError('VALIDATION_ERROR', `Invalid request: ${message}.`);
const notRequired = (message: string) => workflowError('UPLOAD_SLOT_NOT_REQUIRED', `Invalid request: ${message}.`);

/** The documents the step requires (1-3), or ApiError 400 naming the first field that breaks the spec's table. */
export function checkIdVerificationBody(body: IdVerificationStepBody, settings: IdVerificationSettings, requireFrontOnly: boolean): DocumentSlot[] {
  const required = [true, settings.requireSecondaryId, settings.requireTertiaryId];
  const slots: DocumentSlot[] = [];
  DOCUMENT_SLOTS.forEach((slot, index) => {
    const type = body[slot.typeField];
    const front = body.uploads[slot.front];
    const back = body.uploads[slot.back];
    const ordinal = slot.slot.toLowerCase();
    if (!required[index]) {
      const sent = [
        type === undefined ? undefined : slot.typeField,
        front === undefined ? undefined : `uploads.${slot.front}`,
        back === undefined ? undefined : `uploads.${slot.back}`,
      ].filter(Boolean);
      if (sent.length > 0)
        throw notRequired(`${sent.join(', ')} must not be sent: this step does not require a ${ordinal} ID (remove ${sent.length === 1 ? 'it' : 'them'})`);
      return;
    }
    if (type === undefined) throw bad(`${slot.typeField} is required: this step requires a ${ordinal} ID, send its type (one of ${VALID_ID_TYPES.join(', ')})`);
    if (front === undefined) throw bad(`uploads.${slot.front} is required: this step requires a ${ordinal} ID, send the file key of its front image`);
    if (isFrontOnly(type) && back !== undefined) {
      throw notRequired(`uploads.${slot.back} must not be sent for ${slot.typeField} "${type}": that type is front-only, remove uploads.${slot.back}`);
    }
    if (!isFrontOnly(type) && !requireFrontOnly && back === undefined) {
      throw bad(
        `uploads.${slot.back} is required for ${slot.typeField} "${type}": send the file key of its back image (only ${VALID_ID_TYPES.filter(isFrontOnly).join(', ')} are front-only)`,
      );
    }
    slots.push(slot);
  });
  return slots;
}

// ─── Execution ──────────────────────────────────────────────────────────────────────────────────────

function shiftYears(isoDay: string, years: number): string {
  const date = new Date(`${isoDay}T00:00:00.000Z`);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString().slice(0, 10);
}

async function loadUploads(body: IdVerificationStepBody, readUpload: UploadReader): Promise<Record<string, LoadedImage>> {
  const keys = Object.entries(body.uploads).filter((entry): entry is [IdVerificationUpload, string] => typeof entry[1] === 'string');
  // Sequential reads: the first unreadable key (in body order) is the one reported.
  const fields: Record<string, Buffer> = {};
  for (const [slot, key] of keys) {
    if (!UploadStore.looksLikeKey(key)) {
      throw workflowError(
        'INVALID_UPLOAD_KEY',
        `Invalid request: uploads.${slot} "${key.slice(0, 80)}" is not a file key: upload the image with POST /v1/sessions/{session_id}/uploads (or POST /v1/upload/presign), PUT its bytes, then send its file_key.`,
      );
    }
    fields[`uploads.${slot}`] = await readUploadAs(readUpload, key, `uploads.${slot}`);
  }
  return loadMedia(fields);
}

/** Reads an upload; a key the store refuses (never uploaded, another organization's) is INVALID_UPLOAD_KEY. */
export async function readUploadAs(readUpload: UploadReader, key: string, field: string): Promise<Buffer> {
  try {
    return await readUpload(key);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw workflowError('INVALID_UPLOAD_KEY', `${field}: ${error.message}`, {}, error.status);
  }
}

/** Decodes uploaded images; bytes that are not a supported image are INVALID_MEDIA. */
export async function loadMedia(fields: Record<string, Buffer>): Promise<Record<string, LoadedImage>> {
  try {
    return await loadImages(fields, { readStorageKey: () => null });
  } catch (error) {
    const refused = imageApiError(error);
    if (!(refused instanceof ApiError)) throw refused;
    throw workflowError('INVALID_MEDIA', refused.message, refused.extras.hints === undefined ? {} : { hints: refused.extras.hints });
  }
}

interface DocumentResult {
  slot: DocumentSlot;
  type: string;
  analysis: IdAnalysisData;
  documentNumber: string;
  failure?: { code: string; reason?: FailureReason; detail: string };
  /** The failure is about the picture or type of the document (checked before the selfie). */
  documentProblem?: boolean;
}

function checkDocument(slot: DocumentSlot, type: string, front: AnalysedImage, context: IdVerificationContext): DocumentResult {
  const { settings } = context;
  const known = idDocumentType(type);
  const scan = scanDocument(front, known?.scanAs ?? 'auto');
  const today = context.nowIso.slice(0, 10);
  const magic = magicFor(context.lastName)?.effect;
  const expiration = magic === 'expired' ? shiftYears(today, -(settings.expiryGraceYears + 1)) : scan.value.expirationDate;
  const dateOfBirth = magic === 'under_age' ? shiftYears(today, -Math.max(0, settings.minimumAge - 1)) : scan.value.dateOfBirth;
  const age = scan.readable ? ageAt(dateOfBirth, context.nowIso) : 0;
  const expiryPass = scan.readable && shiftYears(expiration, settings.expiryGraceYears) >= today;
  const agePass = scan.readable && age >= settings.minimumAge && age <= settings.maximumAge;
  const state = scan.document?.state?.code;
  const statePass = scan.readable && (state === undefined || (VALID_STATES as readonly string[]).includes(state));
  const confidenceOf = (field: string) => round((scan.fieldConfidence[field] ?? scan.value.confidence) * 100, 2);
  const extracted: ExtractedText[] = scan.readable
    ? [
        ['FIRST_NAME', scan.value.firstName],
        ['LAST_NAME', scan.value.lastName],
        ['DATE_OF_BIRTH', dateOfBirth],
        ['EXPIRATION_DATE', expiration],
        ['DOCUMENT_NUMBER', scan.value.documentNumber],
        ['ISSUING_COUNTRY', scan.value.issuingCountry],
        ...(state === undefined ? [] : [['STATE_IN_ADDRESS', state] as const]),
      ].map(([field, value]) => ({ type: field as string, value: value as string, confidence: confidenceOf(field as string) }))
    : [];
  const face = front.face;
  const analysis: IdAnalysisData = {
    detect_face_data: {
      face_detected: face !== null,
      confidence: face === null ? 0 : round(face.confidence * 100, 2),
      bounding_box: face === null ? { top: 0, left: 0, width: 0, height: 0 } : { ...face.boundingBox },
    },
    id_extracted_text: extracted,
    expiry_date_pass: expiryPass,
    valid_state_pass: statePass,
    age_restriction_pass: agePass,
  };
  const result: DocumentResult = { slot, type, analysis, documentNumber: scan.readable ? scan.value.documentNumber : '' };
  const failure: DocumentResult['failure'] =
    known === undefined
      ? isRecognisedDocumentType(type)
        ? { code: 'DOCUMENT_TYPE_NOT_ACCEPTED', detail: `${slot.typeField} "${type}" is a known document type but not one of ${VALID_ID_TYPES.join(', ')}` }
        : { code: 'DOCUMENT_TYPE_UNRECOGNIZED', detail: `${slot.typeField} "${type}" is not a document type (accepted: ${VALID_ID_TYPES.join(', ')})` }
      : !scan.readable
        ? { code: 'ID_TEXT_NOT_READABLE', detail: `uploads.${slot.front} is unreadable (${scan.explanations.join('; ')})` }
        : front.document === null
          ? { code: 'DOCUMENT_TYPE_LOW_CONFIDENCE', detail: `uploads.${slot.front} does not look like an identity document (${front.summary})` }
          : face === null
            ? { code: 'ID_FACE_NOT_DETECTED', detail: `no portrait face found on uploads.${slot.front} (${front.summary})` }
            : !expiryPass
              ? {
                  code: 'UNKNOWN',
                  reason: 'DOCUMENT_EXPIRED',
                  detail: `${slot.slot} document expired ${expiration}, more than ${settings.expiryGraceYears} year(s) before ${today}${magic === 'expired' ? ' (magic value: last name Expired)' : ''}`,
                }
              : !agePass
                ? {
                    code: 'UNKNOWN',
                    reason: 'AGE_RESTRICTION_FAILED',
                    detail: `${slot.slot} document holder is ${age}, outside ${settings.minimumAge}-${settings.maximumAge}${magic === 'under_age' ? ' (magic value: last name Underage)' : ''}`,
                  }
                : !statePass
                  ? { code: 'UNKNOWN', reason: 'STATE_NOT_ALLOWED', detail: `${slot.slot} document is from ${state}, not a valid state` }
                  : undefined;
  if (failure !== undefined && failure.code !== 'UNKNOWN') result.documentProblem = true;
  if (failure !== undefined) result.failure = failure;
  return result;
}

/** Runs one ID_VERIFICATION attempt (the body already checked with checkIdVerificationBody). */
export async function runIdVerification(
  body: IdVerificationStepBody,
  slots: readonly DocumentSlot[],
  context: IdVerificationContext,
  readUpload: UploadReader,
): Promise<IdVerificationRun> {
  const images = await loadUploads(body, readUpload);
  const imageOf = (upload: IdVerificationUpload) => (images[`uploads.${upload}`] as LoadedImage).analysis;
  const documents = slots.map((slot) => checkDocument(slot, body[slot.typeField] as string, imageOf(slot.front), context));
  const selfie = imageOf('selfie_front');
  const comparison = compareFaces(imageOf('id_front'), selfie, FACE_MATCH_THRESHOLD);
  const matched = comparison.value.isMatch;

  const documentFailure = documents.find((document) => document.documentProblem === true);
  const laterFailure = documents.find((document) => document.failure !== undefined);
  const forced = magicFailureCode(ID_VERIFICATION_FAILURES, context.lastName);
  const failure: StepFailure | undefined =
    forced !== undefined
      ? { code: forced, slot: 'PRIMARY', detail: `(magic value: last name ${context.lastName.trim()})` }
      : documentFailure?.failure !== undefined
        ? { ...documentFailure.failure, slot: documentFailure.slot.slot }
        : selfie.face === null
          ? { code: 'SELFIE_FACE_NOT_DETECTED', slot: 'PRIMARY', detail: `no face in uploads.selfie_front (${selfie.summary})` }
          : selfie.document !== null
            ? {
                code: 'SELFIE_MULTIPLE_FACES',
                slot: 'PRIMARY',
                detail: `uploads.selfie_front is a picture of a document: its portrait is a second face (${selfie.summary})`,
              }
            : laterFailure?.failure !== undefined
              ? { ...laterFailure.failure, slot: laterFailure.slot.slot }
              : !matched
                ? { code: 'SELFIE_ID_FACE_MISMATCH', slot: 'PRIMARY', detail: comparison.explanations.join('; ') }
                : undefined;

  const analysis: Record<string, unknown> = {};
  for (const document of documents) analysis[document.slot.analysisMember] = document.analysis;
  analysis.compare_faces_data = { face_match_confidence: comparison.value.confidence, face_match_result: matched ? 'MATCH' : 'NO_MATCH' };
  analysis.id_matches_selfie = matched;
  analysis.selected_document_types = {
    primary: body.document_type,
    ...(body.secondary_document_type === undefined ? {} : { secondary: body.secondary_document_type }),
    ...(body.tertiary_document_type === undefined ? {} : { tertiary: body.tertiary_document_type }),
  };
  const checks = {
    documents: documents.map((document) => ({
      slot: document.slot.slot,
      document_type: document.type,
      document_number: document.documentNumber,
      expiry_date_pass: document.analysis.expiry_date_pass,
      age_restriction_pass: document.analysis.age_restriction_pass,
      valid_state_pass: document.analysis.valid_state_pass,
    })),
    selfie_face_detected: selfie.face !== null,
    face_match_confidence: comparison.value.confidence,
    face_match_threshold: comparison.value.threshold,
    id_matches_selfie: matched,
  };
  return {
    ...(failure === undefined ? {} : { failure }),
    analysis,
    checks,
    uploadedSlots: (Object.keys(body.uploads) as IdVerificationUpload[]).filter((slot) => body.uploads[slot] !== undefined),
    selfieLivenessScore: selfie.face === null ? 0 : round(selfie.face.confidence * 100, 2),
    selfie,
    explanations: [
      ...documents.map(
        (document) =>
          `${document.slot.slot} ${document.type}: ${document.failure === undefined ? 'checks passed' : `${document.failure.reason ?? document.failure.code} (${document.failure.detail})`}`,
      ),
      ...comparison.explanations,
    ],
  };
}

// ─── The step module ────────────────────────────────────────────────────────────────────────────────

function idVerificationRequirements(config: Record<string, unknown>): IdVerificationRequirements {
  const settings = idVerificationSettings(config);
  return {
    document: {
      require_front_only: false,
      front_only_document_types: [...FRONT_ONLY_DOCUMENT_TYPES],
      require_secondary_id: settings.requireSecondaryId,
      require_tertiary_id: settings.requireTertiaryId,
      valid_id_types: [...VALID_ID_TYPES],
      valid_states: [...VALID_STATES],
    },
    face: { face_front_photo_only: settings.faceFrontPhotoOnly },
  };
}

/** What FACE_LIVENESS reads from this step's saved state: the latest selfie's score and file key. */
export interface IdVerificationState extends Record<string, unknown> {
  selfieScore: number;
  selfieKey: string;
}

const ID_SLOTS = ['id_front', 'id_back', 'secondary_id_front', 'secondary_id_back', 'tertiary_id_front', 'tertiary_id_back', 'selfie_front'] as const;

function documentRequirement(view: FormView, key: 'require_secondary_id' | 'require_tertiary_id'): boolean {
  const document = (view.step.requirements as { document?: Record<string, unknown> } | undefined)?.document;
  return document?.[key] === true;
}

function documentTypeSelect(name: string, label: string, selected: string): Html {
  return html`<label>${label} <select name="${name}">${VALID_ID_TYPES.map((type) => html`<option value="${type}"${type === selected ? ' selected' : ''}>${type}</option>`)}</select></label>`;
}

function extraDocument(prefix: 'secondary' | 'tertiary', label: string): Html {
  return html`<h3>${label}</h3>${documentTypeSelect(`${prefix}_document_type`, 'Document type', 'driver-license-us')}
${fileField(`${prefix}_id_front`, 'Front', 'document')}${fileField(`${prefix}_id_back`, 'Back', 'document', true)}`;
}

const idVerificationForm: StepForm = {
  title: 'Your ID document and a selfie',
  fields: (view) => html`${documentTypeSelect('document_type', 'Document type', 'passport-us')}
${fileField('id_front', 'Front of the document', 'document')}
${fileField('id_back', 'Back of the document (not for a passport)', 'document', true)}
${documentRequirement(view, 'require_secondary_id') ? extraDocument('secondary', 'A second document') : ''}
${documentRequirement(view, 'require_tertiary_id') ? extraDocument('tertiary', 'A third document') : ''}
${fileField('selfie_front', 'Selfie', 'selfie')}
${submitButton('Send the document and selfie')}`,
  submit: async (form, client) => {
    const uploads = await storedUploads(form, client, ID_SLOTS);
    const body = withOptional(
      { document_type: form.document_type ?? '', uploads },
      { secondary_document_type: uploads.secondary_id_front === undefined ? undefined : text(form, 'secondary_document_type') },
    );
    if (uploads.tertiary_id_front !== undefined) withOptional(body, { tertiary_document_type: text(form, 'tertiary_document_type') });
    return client.submit(body);
  },
};

const ID_VERIFICATION_FAILURES = {
  DOCUMENT_TYPE_UNRECOGNIZED: {
    category: 'DOCUMENT',
    user_action: 'USE_DIFFERENT_DOCUMENT',
    reason: 'DOC_TYPE_NOT_ALLOWED',
    content: 'document_type that is not a document type at all, e.g. "library-card"',
    magicLastName: 'Unrecognized',
    message: 'The document type is not one the service recognises.',
  },
  DOCUMENT_TYPE_NOT_ACCEPTED: {
    category: 'DOCUMENT',
    user_action: 'USE_DIFFERENT_DOCUMENT',
    reason: 'DOC_TYPE_NOT_ALLOWED',
    content: 'a document type of a known kind that the step does not accept, e.g. "passport-gb" or "driver-license-mx"',
    magicLastName: 'Unaccepted',
    message: 'The document type is recognised but not accepted by this workflow.',
  },
  ID_TEXT_NOT_READABLE: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'OCR_NAME_MISSING',
    content: 'an ID front that is flat or tiny (fixtures/images/blank.png)',
    magicLastName: 'Unreadable',
    message: 'The text of the document could not be read.',
  },
  DOCUMENT_TYPE_LOW_CONFIDENCE: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'DOC_TYPE_NOT_ALLOWED',
    content: 'an ID front that is a picture but not of an identity document (a plain portrait such as fixtures/images/face.jpg)',
    magicLastName: 'Lowconfidence',
    message: 'The picture does not look enough like the declared document type.',
  },
  ID_FACE_NOT_DETECTED: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'NO_FACE_DETECTED',
    content: 'a readable ID front on which no portrait face is found',
    magicLastName: 'Faceless',
    message: 'No face was found on the document.',
  },
  SELFIE_FACE_NOT_DETECTED: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    content: 'a selfie without a face (fixtures/images/blank.png)',
    magicLastName: 'Noselfie',
    message: 'No face was found in the selfie.',
  },
  SELFIE_MULTIPLE_FACES: {
    category: 'SELFIE',
    user_action: 'RETAKE_SELFIE',
    reason: 'NO_FACE_DETECTED',
    content: 'a selfie that is a picture of an identity document (the holder plus the printed portrait), e.g. fixtures/images/passport.jpg',
    magicLastName: 'Crowd',
    message: 'More than one face was found in the selfie.',
  },
  SELFIE_ID_FACE_MISMATCH: {
    category: 'FACE_MATCH',
    user_action: 'RETAKE_SELFIE',
    reason: 'LOW_FACE_MATCH',
    content: 'a selfie of another person than the ID portrait (fixtures/images/different-face.jpg with passport.jpg)',
    magicLastName: 'Mismatch',
    message: 'The selfie does not match the face on the document.',
  },
  UNKNOWN: {
    category: 'DOCUMENT',
    user_action: 'USE_DIFFERENT_DOCUMENT',
    reason: 'DOCUMENT_EXPIRED',
    content:
      'a document that is expired, under or over the age range, or from a state not accepted (reason DOCUMENT_EXPIRED, AGE_RESTRICTION_FAILED or STATE_NOT_ALLOWED)',
    magicLastName: 'Expired',
    message: 'The document failed a check (expiry, age or state).',
  },
} satisfies Record<string, FailureRow>;

export const ID_VERIFICATION_STEP = defineStep<IdVerificationStepBody>({
  code: 'ID_VERIFICATION',
  summary: 'Scans the ID documents, compares id_front with selfie_front, checks expiry, age and state',
  body: IdVerificationStepBodySchema,
  headless: true,
  requirements: idVerificationRequirements,
  failures: ID_VERIFICATION_FAILURES,
  hostedForm: idVerificationForm,
  async run(context, body) {
    const settings = idVerificationSettings(context.config);
    const requireFrontOnly = (context.config.id_scan_face_settings as { require_front_only?: boolean } | undefined)?.require_front_only === true;
    const slots = checkIdVerificationBody(body, settings, requireFrontOnly);
    const run = await runIdVerification(body, slots, { lastName: context.applicant.last_name, nowIso: context.nowIso, settings }, context.deps.readUpload);
    const base = idVerificationRequirements(context.config);
    const state: IdVerificationState = { selfieScore: run.selfieLivenessScore, selfieKey: body.uploads.selfie_front };
    const common = {
      state,
      analysis: run.analysis,
      payload: { checks: run.checks },
      requirements: { ...base, document: { ...base.document, require_front_only: isFrontOnly(body.document_type) } },
      uploadedSlots: run.uploadedSlots,
      explanations: run.explanations,
    };
    if (run.failure !== undefined) return { kind: 'failed', failure: run.failure, ...common };
    return {
      kind: 'passed',
      ...common,
      // The selfie of the attempt that completes the step is the session's face (as a hosted session's finish).
      onPassed: () => {
        const enrolment = enrolSessionSelfie(context.world, {
          organizationId: context.organizationId,
          sessionId: context.sessionId,
          source: 'workflow-step',
          analysis: run.selfie,
          label: 'uploads.selfie_front',
        });
        return enrolment === undefined ? [] : [enrolment];
      },
    };
  },
});
