/**
 * The documented inputs that force each outcome of a headless step, as catalog rows (GET
 * /__sandbox/catalog and docs/reference.md's generated tables read them). The last-name rows come from the table
 * the ID_VERIFICATION step itself reads.
 */
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import { ID_DOCUMENT_MAGIC_VALUES } from './id-verification.step.ts';
import { FRONT_ONLY_DOCUMENT_TYPES, VALID_ID_TYPES } from './id-document-types.ts';

const STEP = 'POST /v1/sessions/{id}/steps/ID_VERIFICATION';

export const WORKFLOW_MAGIC_VALUES: readonly CatalogEntry[] = [
  ...ID_DOCUMENT_MAGIC_VALUES.map((entry) => ({
    endpoint: `POST /v1/workflows/{id}/sessions + ${STEP}`,
    input: `last_name ${entry.lastName} (any case)`,
    outcome: entry.outcome,
    description: entry.description,
  })),
  {
    endpoint: STEP,
    input: 'id_front fixtures/images/passport.jpg (document_type passport-us), selfie_front fixtures/images/face.jpg',
    outcome: 'every check passes: step COMPLETED, id_matches_selfie true (face match 99)',
    description: 'both pictures show person A',
  },
  {
    endpoint: STEP,
    input: 'selfie_front fixtures/images/different-face.jpg with id_front fixtures/images/passport.jpg',
    outcome: 'face match below 80 -> failed attempt LOW_FACE_MATCH (id_matches_selfie false)',
    description: 'a selfie of person B against a document of person A',
  },
  {
    endpoint: STEP,
    input: 'selfie_front fixtures/images/blank.png',
    outcome: 'failed attempt NO_FACE_DETECTED',
    description: 'a near-uniform picture has no face',
  },
  {
    endpoint: STEP,
    input: 'id_front fixtures/images/blank.png',
    outcome: 'failed attempt OCR_NAME_MISSING (document unreadable)',
    description: 'nothing can be read from a near-uniform picture',
  },
  {
    endpoint: STEP,
    input: `document_type not in ${VALID_ID_TYPES.join(', ')}`,
    outcome: 'failed attempt DOC_TYPE_NOT_ALLOWED',
    description: `front-only types (no id_back): ${FRONT_ONLY_DOCUMENT_TYPES.join(', ')}`,
  },
  {
    endpoint: 'POST /v1/sessions/{id}/steps/FACE_LIVENESS (complete)',
    input: 'FACE_LIVENESS confidence_threshold above the face confidence of the selfie or frames (100 always)',
    outcome: 'failed attempt LIVENESS_FAILED',
    description: 'the liveness score is the face-detection confidence (0-100) of the uploaded frames, else of the ID_VERIFICATION selfie',
  },
];
