/**
 * The documented inputs that force each outcome of a workflow step, as catalog rows (GET
 * /__sandbox/catalog and docs/reference.md's generated tables read them). The last-name rows come from the table
 * the ID_VERIFICATION step itself reads.
 */
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import { ID_DOCUMENT_MAGIC_VALUES } from './steps/id-verification.step.ts';
import { SLOW_LIVENESS_LAST_NAME } from './steps/face-liveness.step.ts';
import { WORKFLOW_FAILURES } from './steps/index.ts';
import { isHeadlessStep } from './workflow-steps.ts';

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
  // Every failure code of the envelope's `failure`, from its content trigger and its magic last name.
  ...Object.entries(WORKFLOW_FAILURES).flatMap(([code, row]) => {
    const steps = [row.step, ...(row.alsoSteps ?? [])].join(' or ');
    const endpoint = `POST /v1/sessions/{id}/steps/${steps}${row.step === 'FACE_LIVENESS' ? ' (complete)' : ''}`;
    const outcome = `failed attempt ${row.reason}, failure.code ${code} (${row.category}, ${row.user_action})`;
    return [
      { endpoint, input: row.content, outcome, description: row.message },
      ...(row.magicLastName === null || code === 'UNKNOWN'
        ? []
        : [
            {
              endpoint: `${isHeadlessStep(row.step) ? 'POST /v1/workflows/{id}/sessions' : 'POST /v1/sessions (workflow_id)'} + ${endpoint}`,
              input: `last_name ${row.magicLastName} (any case)`,
              outcome,
              description: 'whatever the pictures show',
            },
          ]),
    ];
  }),
  {
    endpoint: 'POST /v1/workflows/{id}/sessions + POST /v1/sessions/{id}/steps/FACE_LIVENESS (complete)',
    input: `last_name ${SLOW_LIVENESS_LAST_NAME} (any case)`,
    outcome: '409 LIVENESS_RESULT_NOT_READY (failure_reason FACE_LIVENESS_RESULT_NOT_READY) until 5 s of sandbox clock after start',
    description: 'the result the mobile client polls for',
  },
  {
    endpoint: 'POST /v1/sessions/{id}/steps/FACE_LIVENESS (complete)',
    input: 'FACE_LIVENESS confidence_threshold above the face confidence of the selfie or frames (100 always)',
    outcome: 'failed attempt LIVENESS_FAILED',
    description: 'the liveness score is the face-detection confidence (0-100) of the uploaded frames, else of the ID_VERIFICATION selfie',
  },
];
