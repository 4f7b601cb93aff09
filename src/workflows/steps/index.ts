/**
 * The step registry: one line per step type; the step ids (STEP_CODES, StepCode) are its keys, so the
 * engine runs every step a hosted workflow may hold. The engine, the OpenAPI document (the step-submit
 * body's union), the catalog, the console, the docs tables and the hosted page read this table, and the
 * tables below are derived from it: the failure rows (WORKFLOW_FAILURES), the error codes
 * (WORKFLOW_ERROR_CODES). Its keys are the step ids of step-configs.ts, which holds each step type's config
 * rules apart, so that creating a workflow evaluates none of the modules here.
 */
import { z } from '@hono/zod-openapi';
import { ENGINE_ERROR_CODES, INTERNAL_ERROR, SHARED_STEP_CONFLICTS, type WorkflowErrorCode } from '../workflow-errors.ts';
import { ADVERSE_MEDIA_STEP } from './adverse-media.step.ts';
import { AI_BANK_STATEMENT_ANALYSIS_STEP } from './ai-bank-statement-analysis.step.ts';
import { BACKGROUND_CHECK_STEP } from './background-check.step.ts';
import { BANK_STATEMENT_UPLOAD_STEP } from './bank-statement-upload.step.ts';
import { CARRIER_AGE_GATE_STEP } from './carrier-age-gate.step.ts';
import { FACE_LIVENESS_STEP } from './face-liveness.step.ts';
import { ID_VERIFICATION_STEP } from './id-verification.step.ts';
import { PEP_SANCTIONS_STEP } from './pep-sanctions.step.ts';
import { PHONE_OWNERSHIP_MATCH_STEP } from './phone-ownership-match.step.ts';
import { PHONE_TRUST_CHECK_STEP } from './phone-trust-check.step.ts';
import { PHONE_VERIFICATION_STEP } from './phone-verification.step.ts';
import { TITLE_SEARCH_STEP } from './title-search.step.ts';
import { ADDRESS_VERIFICATION_STEP } from './address-verification.step.ts';
import { AGE_ESTIMATION_STEP, DEEP_AGE_STEP } from './age.step.ts';
import { CONSENT_STEP, FACE_LIVENESS_CONSENT_SETTINGS_STEP } from './consent.step.ts';
import { DEEPFAKE_DETECTION_STEP } from './deepfake-detection.step.ts';
import { CUSTOM_PROMPT_STEP, DOCUMENT_UPLOAD_STEP } from './uploads.step.ts';
import { WHITE_LABEL_STEP } from './white-label.step.ts';
import type { FailureRow, StepModule } from './step-module.ts';
import { STEP_CODES, type StepCode } from './step-configs.ts';

export { STEP_CODES, type StepCode };

// Each module's body type is its own; the registry holds them as modules of unknown bodies (the engine validates with `body`).
const step = <Body>(module: StepModule<Body>) => module as unknown as RegisteredStep;

/** A module of the registry: its code is one of the registry's keys (a test checks it is its own). */
export interface RegisteredStep extends StepModule {
  code: StepCode;
}

/**
 * The registry, in the real client's step-id order (facts §6.8, the spec's five first): the order the
 * catalog, the docs and the WorkflowStepId enum list the step ids in (step-configs.ts's order: a test
 * checks it). A new step type is a module in this folder, its line here and its line in step-configs.ts.
 */
export const STEP_MODULES = {
  ID_VERIFICATION: step(ID_VERIFICATION_STEP),
  FACE_LIVENESS: step(FACE_LIVENESS_STEP),
  AGE_ESTIMATION: step(AGE_ESTIMATION_STEP),
  PEP_SANCTIONS: step(PEP_SANCTIONS_STEP),
  ADVERSE_MEDIA: step(ADVERSE_MEDIA_STEP),
  FACE_LIVENESS_CONSENT_SETTINGS: step(FACE_LIVENESS_CONSENT_SETTINGS_STEP),
  DEEPFAKE_DETECTION: step(DEEPFAKE_DETECTION_STEP),
  DEEP_AGE: step(DEEP_AGE_STEP),
  ADDRESS_VERIFICATION: step(ADDRESS_VERIFICATION_STEP),
  BACKGROUND_CHECK: step(BACKGROUND_CHECK_STEP),
  TITLE_SEARCH: step(TITLE_SEARCH_STEP),
  CUSTOM_PROMPT: step(CUSTOM_PROMPT_STEP),
  CONSENT: step(CONSENT_STEP),
  BANK_STATEMENT_UPLOAD: step(BANK_STATEMENT_UPLOAD_STEP),
  AI_BANK_STATEMENT_ANALYSIS: step(AI_BANK_STATEMENT_ANALYSIS_STEP),
  DOCUMENT_UPLOAD: step(DOCUMENT_UPLOAD_STEP),
  WHITE_LABEL: step(WHITE_LABEL_STEP),
  PHONE_TRUST_CHECK: step(PHONE_TRUST_CHECK_STEP),
  CARRIER_AGE_GATE: step(CARRIER_AGE_GATE_STEP),
  PHONE_OWNERSHIP_MATCH: step(PHONE_OWNERSHIP_MATCH_STEP),
  PHONE_VERIFICATION: step(PHONE_VERIFICATION_STEP),
} satisfies Record<StepCode, RegisteredStep>;

/**
 * The derived tables (failure rows, 409 codes, the step-body union) list the first step types in the
 * order they were built, which docs/workflows.md, the generated code list and the OpenAPI document
 * publish; a step type added since follows them in registry order.
 */
const BUILT_FIRST: readonly StepCode[] = [
  'ID_VERIFICATION',
  'FACE_LIVENESS',
  'PEP_SANCTIONS',
  'ADVERSE_MEDIA',
  'TITLE_SEARCH',
  'BACKGROUND_CHECK',
  'BANK_STATEMENT_UPLOAD',
  'AI_BANK_STATEMENT_ANALYSIS',
  'PHONE_TRUST_CHECK',
  'CARRIER_AGE_GATE',
  'PHONE_OWNERSHIP_MATCH',
  'PHONE_VERIFICATION',
  'AGE_ESTIMATION',
  'FACE_LIVENESS_CONSENT_SETTINGS',
  'DEEPFAKE_DETECTION',
  'DEEP_AGE',
  'ADDRESS_VERIFICATION',
  'CUSTOM_PROMPT',
  'CONSENT',
  'DOCUMENT_UPLOAD',
  'WHITE_LABEL',
];

/** The modules in the order the derived tables and the OpenAPI document list them. */
export const STEPS_IN_TABLE_ORDER: readonly RegisteredStep[] = [...BUILT_FIRST, ...STEP_CODES.filter((code) => !BUILT_FIRST.includes(code))].map(
  (code) => STEP_MODULES[code],
);

// ─── Failures ───────────────────────────────────────────────────────────────────────────────────────

/** A failure row with the steps that give it: the first module in registry order, then the others. */
export interface WorkflowFailureRow extends FailureRow {
  step: StepCode;
  /** Other steps that give the same code (a carrier outage fails any of the three phone checks). */
  alsoSteps?: readonly StepCode[];
}

function failureTable(): Record<string, WorkflowFailureRow> {
  const table: Record<string, WorkflowFailureRow> = {};
  for (const module of STEPS_IN_TABLE_ORDER) {
    for (const [code, row] of Object.entries(module.failures)) {
      const known = table[code];
      if (known === undefined) table[code] = { ...row, step: module.code };
      else table[code] = { ...known, alsoSteps: [...(known.alsoSteps ?? []), module.code] };
    }
  }
  return table;
}

/** Every failure code of every step, in registry order: coverage, docs, the catalog and the wire schema read it. */
export const WORKFLOW_FAILURES: Readonly<Record<string, WorkflowFailureRow>> = failureTable();
export const WORKFLOW_FAILURE_CODES = Object.keys(WORKFLOW_FAILURES);

/** The row of a failure code a step gave (every code a module returns is one of its rows). */
export function failureRow(code: string): WorkflowFailureRow {
  const row = WORKFLOW_FAILURES[code];
  if (row === undefined) throw new Error(`${code} is not a failure row of any step module`);
  return row;
}

// ─── Error codes ────────────────────────────────────────────────────────────────────────────────────

/**
 * Every error code of the workflow endpoints, in the order the docs and catalog list them: the engine's,
 * each step's own 409s (registry order), the 409s any step may give, then the fault.
 */
export const WORKFLOW_ERROR_CODES: Readonly<Record<string, WorkflowErrorCode>> = {
  ...ENGINE_ERROR_CODES,
  ...Object.fromEntries(STEPS_IN_TABLE_ORDER.flatMap((module) => Object.entries(module.conflicts ?? {}).map(([code, when]) => [code, { status: 409, when }]))),
  ...SHARED_STEP_CONFLICTS,
  INTERNAL_ERROR,
};
export const WORKFLOW_ERROR_CODE_NAMES = Object.keys(WORKFLOW_ERROR_CODES);

// ─── Bodies ─────────────────────────────────────────────────────────────────────────────────────────

/** The step-submit route's body: any JSON object, validated by the step's module; documented as the union of the modules' bodies. */
export const StepSubmissionBodySchema = z.record(z.string(), z.unknown()).openapi('StepSubmissionBody', {
  description: `The body of the step the path names: ${STEPS_IN_TABLE_ORDER.map((module) => `${module.code}: ${stepBodyName(module)}`).join('; ')}.`,
  anyOf: STEPS_IN_TABLE_ORDER.map((module) => ({ $ref: `#/components/schemas/${stepBodyName(module)}` })),
});

/** The OpenAPI component name of a step's body: ID_VERIFICATION → IdVerificationStepBody (modules name their schema so). */
export function stepBodyName(module: Pick<StepModule, 'code'>): string {
  return `${module.code.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase())}StepBody`;
}
