/**
 * The workflow steps as data: which step ids (the registry's, steps/index.ts) a headless session can run
 * and what must come before them. Each step's config
 * rules (types, ranges, defaults) and the resolved config the workflow record shows are in
 * steps/step-configs.ts: ID_VERIFICATION resolves to the spec's observed groups; FACE_LIVENESS and
 * AGE_ESTIMATION keep their flat keys with defaults filled in (as the client's examples show them).
 *
 * LIMITATIONS:
 * - The config of the client's steps beyond the spec's five has no documented schema: it is stored as
 *   sent (any JSON object), and those steps run on hosted pages only.
 * - ID_VERIFICATION's minimum_age and maximum_age ranges (1-100 and 1-150), expiry_date_years (0-50) are
 *   the sandbox's choice: the spec gives only their types and defaults.
 */
import type { StepCode } from './steps/step-configs.ts';

/** The steps a headless session (POST /v1/workflows/{id}/sessions) can run. */
export const HEADLESS_STEP_CODES = ['ID_VERIFICATION', 'FACE_LIVENESS'] as const;
export type HeadlessStepCode = (typeof HEADLESS_STEP_CODES)[number];

/** Steps that need another step earlier in the same workflow (facts §6.8). */
export const STEP_PREREQUISITES: Partial<Record<StepCode, StepCode>> = {
  BACKGROUND_CHECK: 'ID_VERIFICATION',
  AI_BANK_STATEMENT_ANALYSIS: 'BANK_STATEMENT_UPLOAD',
};

/** `ID_VERIFICATION` → `id-verification` (the record's form). */
export function stepRecordId(code: string): string {
  return code.toLowerCase().replace(/_/g, '-');
}

export function isHeadlessStep(code: string): code is HeadlessStepCode {
  return (HEADLESS_STEP_CODES as readonly string[]).includes(code);
}
