/**
 * The step registry: one line per step type that runs. The engine, the OpenAPI document (the step-submit
 * body's union), the catalog, the console and the docs tables all read this table. A step type absent here
 * is refused with 400 STEP_NOT_RUNNABLE ("not built yet").
 */
import { z } from '@hono/zod-openapi';
import type { StepCode } from '../workflow-steps.ts';
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
import type { StepModule } from './step-module.ts';

// Each module's body type is its own; the registry holds them as modules of unknown bodies (the engine validates with `body`).
const step = <Body>(module: StepModule<Body>) => module as unknown as StepModule;

export const STEP_MODULES: Partial<Record<StepCode, StepModule>> = {
  ID_VERIFICATION: step(ID_VERIFICATION_STEP),
  FACE_LIVENESS: step(FACE_LIVENESS_STEP),
  PEP_SANCTIONS: step(PEP_SANCTIONS_STEP),
  ADVERSE_MEDIA: step(ADVERSE_MEDIA_STEP),
  TITLE_SEARCH: step(TITLE_SEARCH_STEP),
  BACKGROUND_CHECK: step(BACKGROUND_CHECK_STEP),
  BANK_STATEMENT_UPLOAD: step(BANK_STATEMENT_UPLOAD_STEP),
  AI_BANK_STATEMENT_ANALYSIS: step(AI_BANK_STATEMENT_ANALYSIS_STEP),
  PHONE_TRUST_CHECK: step(PHONE_TRUST_CHECK_STEP),
  CARRIER_AGE_GATE: step(CARRIER_AGE_GATE_STEP),
  PHONE_OWNERSHIP_MATCH: step(PHONE_OWNERSHIP_MATCH_STEP),
  PHONE_VERIFICATION: step(PHONE_VERIFICATION_STEP),
  AGE_ESTIMATION: step(AGE_ESTIMATION_STEP),
  FACE_LIVENESS_CONSENT_SETTINGS: step(FACE_LIVENESS_CONSENT_SETTINGS_STEP),
  DEEPFAKE_DETECTION: step(DEEPFAKE_DETECTION_STEP),
  DEEP_AGE: step(DEEP_AGE_STEP),
  ADDRESS_VERIFICATION: step(ADDRESS_VERIFICATION_STEP),
  CUSTOM_PROMPT: step(CUSTOM_PROMPT_STEP),
  CONSENT: step(CONSENT_STEP),
  DOCUMENT_UPLOAD: step(DOCUMENT_UPLOAD_STEP),
  WHITE_LABEL: step(WHITE_LABEL_STEP),
};

/** The module of a step type, or undefined while it is not built. */
export function stepModule(code: StepCode): StepModule | undefined {
  return STEP_MODULES[code];
}

/** The step-submit route's body: any JSON object, validated by the step's module; documented as the union of the modules' bodies. */
export const StepSubmissionBodySchema = z.record(z.string(), z.unknown()).openapi('StepSubmissionBody', {
  description: `The body of the step the path names: ${Object.values(STEP_MODULES)
    .map((module) => `${module.code}: ${stepBodyName(module)}`)
    .join('; ')}. Steps not listed are not built yet (400 STEP_NOT_RUNNABLE).`,
  anyOf: Object.values(STEP_MODULES).map((module) => ({ $ref: `#/components/schemas/${stepBodyName(module)}` })),
});

/** The OpenAPI component name of a step's body: ID_VERIFICATION → IdVerificationStepBody (modules name their schema so). */
export function stepBodyName(module: Pick<StepModule, 'code'>): string {
  return `${module.code.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase())}StepBody`;
}
