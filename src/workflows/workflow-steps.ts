/**
 * The workflow steps as data: every step id the real client can send (the spec's five plus the client's
 * others), which of them a headless session can run, what must come before them, their config rules
 * (types, ranges, defaults) and the resolved config the workflow record shows.
 *
 * Resolved config: ID_VERIFICATION follows the spec's observed groups (age_restriction_settings,
 * expiry_date_settings, face_scan_settings, id_scan_face_settings, id_scan_settings) plus
 * fraud_analysis_settings (the 'Fraud behaviour' rules resolved); FACE_LIVENESS and AGE_ESTIMATION keep
 * their flat keys with defaults filled in (as the client's examples show them).
 *
 * LIMITATIONS:
 * - The config of the client's steps beyond the spec's five has no documented schema: it is stored as
 *   sent (any JSON object), and those steps run on hosted pages only.
 * - ID_VERIFICATION's minimum_age and maximum_age ranges (1-100 and 1-150), expiry_date_years (0-50) are
 *   the sandbox's choice: the spec gives only their types and defaults.
 */
import { z } from '@hono/zod-openapi';
import { DEFAULT_LIVENESS_THRESHOLD } from '../face/api.ts';

/** The real client's step-id enum (facts §6.8), the spec's five first. */
export const STEP_CODES = [
  'ID_VERIFICATION',
  'FACE_LIVENESS',
  'AGE_ESTIMATION',
  'PEP_SANCTIONS',
  'ADVERSE_MEDIA',
  'FACE_LIVENESS_CONSENT_SETTINGS',
  'DEEPFAKE_DETECTION',
  'DEEP_AGE',
  'ADDRESS_VERIFICATION',
  'BACKGROUND_CHECK',
  'TITLE_SEARCH',
  'CUSTOM_PROMPT',
  'CONSENT',
  'BANK_STATEMENT_UPLOAD',
  'AI_BANK_STATEMENT_ANALYSIS',
  'DOCUMENT_UPLOAD',
  'WHITE_LABEL',
  'PHONE_TRUST_CHECK',
  'CARRIER_AGE_GATE',
  'PHONE_OWNERSHIP_MATCH',
  'PHONE_VERIFICATION',
] as const;
export type StepCode = (typeof STEP_CODES)[number];

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

// ─── Config rules ───────────────────────────────────────────────────────────────────────────────────

const int = (min: number, max: number, fallback: number) => z.number().int().min(min).max(max).default(fallback);

export const ESCALATION_TYPES = ['none', 'nfc-passport'] as const;

export const IdVerificationConfigSchema = z
  .strictObject({
    minimum_age: int(1, 100, 18),
    maximum_age: int(1, 150, 51),
    expiry_date_years: int(0, 50, 2).openapi({ description: 'How many years past its expiration date a document is still accepted' }),
    require_secondary_id: z.boolean().default(false),
    require_tertiary_id: z.boolean().default(false),
    face_front_photo_only: z.boolean().default(false),
    require_front_only: z.boolean().default(false),
    enable_fraud_analysis: z.boolean().default(false).openapi({ description: 'Synchronous fraud analysis; implied when escalation_type is not none' }),
    escalation_type: z.enum(ESCALATION_TYPES).default('none'),
    escalation_risk_threshold: int(0, 100, 60),
  })
  .refine((config) => config.maximum_age >= config.minimum_age, {
    path: ['maximum_age'],
    message: 'maximum_age must be at least minimum_age: raise maximum_age or lower minimum_age',
  })
  .refine((config) => !config.require_tertiary_id || config.require_secondary_id, {
    path: ['require_tertiary_id'],
    message: 'require_tertiary_id needs require_secondary_id true: a third document comes after a second one',
  })
  .openapi('IdVerificationConfig');
export type IdVerificationConfig = z.output<typeof IdVerificationConfigSchema>;

export const FaceLivenessConfigSchema = z.strictObject({ confidence_threshold: int(1, 100, DEFAULT_LIVENESS_THRESHOLD) }).openapi('FaceLivenessConfig');
export const AgeEstimationConfigSchema = z.strictObject({ minimum_age: int(1, 100, 18) }).openapi('AgeEstimationConfig');
/** PEP_SANCTIONS and ADVERSE_MEDIA: no config (an empty object is accepted as "none"). */
const NoConfigSchema = z.strictObject({});

/** The config rules per step; steps absent here take any object, stored as sent. */
export const STEP_CONFIG_SCHEMAS: Partial<Record<StepCode, z.ZodType<Record<string, unknown>>>> = {
  ID_VERIFICATION: IdVerificationConfigSchema,
  FACE_LIVENESS: FaceLivenessConfigSchema,
  AGE_ESTIMATION: AgeEstimationConfigSchema,
  PEP_SANCTIONS: NoConfigSchema,
  ADVERSE_MEDIA: NoConfigSchema,
};

/** A step's config when none is sent. */
export function defaultStepConfig(code: StepCode): Record<string, unknown> {
  return STEP_CONFIG_SCHEMAS[code]?.parse({}) ?? {};
}

// ─── Resolution (what the record shows) ─────────────────────────────────────────────────────────────

/** The resolved config of a validated step config (defaults filled in). */
export function resolveStepConfig(code: StepCode, config: Record<string, unknown>): Record<string, unknown> {
  if (code !== 'ID_VERIFICATION') return { ...config };
  const c = config as IdVerificationConfig;
  const escalates = c.escalation_type !== 'none';
  const synchronous = c.enable_fraud_analysis || escalates;
  return {
    age_restriction_settings: {
      age_restriction_mode: 'minimum_age',
      country_category_minimum_age: null,
      minimum_age: { lower: c.minimum_age, upper: c.maximum_age },
    },
    expiry_date_settings: { expiry_date: c.expiry_date_years },
    face_scan_settings: { face_front_photo_only: c.face_front_photo_only },
    id_scan_face_settings: { require_front_only: c.require_front_only },
    id_scan_settings: { require_secondary_id: c.require_secondary_id, require_tertiary_id: c.require_tertiary_id },
    fraud_analysis_settings: {
      enable_fraud_analysis: synchronous,
      fraud_analysis_mode: synchronous ? 'sync' : 'async',
      escalation_type: c.escalation_type,
      escalation_risk_threshold: c.escalation_risk_threshold,
    },
  };
}

/** What a headless ID_VERIFICATION step reads from a resolved config (fixture workflows included). */
export interface IdVerificationSettings {
  minimumAge: number;
  maximumAge: number;
  expiryGraceYears: number;
  requireSecondaryId: boolean;
  requireTertiaryId: boolean;
  faceFrontPhotoOnly: boolean;
}

/** ID_VERIFICATION's config defaults, parsed on first use: parsed at import, every start would run (and compile) zod's parser for them. */
let idConfigDefaults: IdVerificationConfig | undefined;
const defaultIdConfig = () => (idConfigDefaults ??= IdVerificationConfigSchema.parse({}));

function group(config: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = config[name];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);
const booleanOr = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);

export function idVerificationSettings(resolved: Record<string, unknown>): IdVerificationSettings {
  const ages = group(group(resolved, 'age_restriction_settings'), 'minimum_age');
  const scan = group(resolved, 'id_scan_settings');
  const defaults = defaultIdConfig();
  return {
    minimumAge: numberOr(ages.lower, defaults.minimum_age),
    maximumAge: numberOr(ages.upper, defaults.maximum_age),
    expiryGraceYears: numberOr(group(resolved, 'expiry_date_settings').expiry_date, defaults.expiry_date_years),
    requireSecondaryId: booleanOr(scan.require_secondary_id, false),
    requireTertiaryId: booleanOr(scan.require_tertiary_id, false),
    faceFrontPhotoOnly: booleanOr(group(resolved, 'face_scan_settings').face_front_photo_only, false),
  };
}

export const DEFAULT_LIVENESS_CHALLENGE = 'FaceMovementChallenge';

export function livenessThreshold(resolved: Record<string, unknown>): number {
  return numberOr(resolved.confidence_threshold, DEFAULT_LIVENESS_THRESHOLD);
}
