/**
 * Every step type's config rules, by step id in the registry's order (steps/index.ts, whose keys are these
 * ids): types, ranges and defaults a workflow's step is validated with, and the record's form of a
 * validated config. What creating a workflow or changing a step's config needs, apart from the step types
 * themselves (bodies, forms and checks, which load the document, face and image engines): only the step
 * engine evaluates those.
 *
 * A schema that fills defaults resolves to what the record shows, unless `resolveConfig` reshapes it
 * (ID_VERIFICATION's groups); a step without rules takes any JSON object, stored as sent (the config of the
 * client's steps beyond the spec's five has no documented schema).
 */
import { z } from '@hono/zod-openapi';
import { DEFAULT_LIVENESS_THRESHOLD } from '../../face/api.ts';

/** A whole-number config value in a range, with its default. */
export const configInt = (min: number, max: number, fallback: number) => z.number().int().min(min).max(max).default(fallback);

/** The config of a step without rules that still refuses unknown keys (an empty object is "none"). */
export const NoConfigSchema = z.strictObject({});

// ─── ID_VERIFICATION ────────────────────────────────────────────────────────────────────────────────

export const ESCALATION_TYPES = ['none', 'nfc-passport'] as const;

export const IdVerificationConfigSchema = z
  .strictObject({
    minimum_age: configInt(1, 100, 18),
    maximum_age: configInt(1, 150, 51),
    expiry_date_years: configInt(0, 50, 2).openapi({ description: 'How many years past its expiration date a document is still accepted' }),
    require_secondary_id: z.boolean().default(false),
    require_tertiary_id: z.boolean().default(false),
    face_front_photo_only: z.boolean().default(false),
    require_front_only: z.boolean().default(false),
    enable_fraud_analysis: z.boolean().default(false).openapi({ description: 'Synchronous fraud analysis; implied when escalation_type is not none' }),
    escalation_type: z.enum(ESCALATION_TYPES).default('none'),
    escalation_risk_threshold: configInt(0, 100, 60),
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

/**
 * The record's form of a validated config: the spec's observed groups (age_restriction_settings,
 * expiry_date_settings, face_scan_settings, id_scan_face_settings, id_scan_settings) plus
 * fraud_analysis_settings (the 'Fraud behaviour' rules resolved).
 */
export function resolveIdVerificationConfig(config: Record<string, unknown>): Record<string, unknown> {
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

// ─── FACE_LIVENESS, AGE_ESTIMATION ──────────────────────────────────────────────────────────────────

export const FaceLivenessConfigSchema = z.strictObject({ confidence_threshold: configInt(1, 100, DEFAULT_LIVENESS_THRESHOLD) }).openapi('FaceLivenessConfig');

export const AgeEstimationConfigSchema = z.strictObject({ minimum_age: configInt(1, 100, 18) }).openapi('AgeEstimationConfig');

// ─── The table ──────────────────────────────────────────────────────────────────────────────────────

export interface StepConfigRules {
  /** The rules a workflow's step config is validated with; absent: any object, stored as sent. */
  config?: z.ZodType<Record<string, unknown>>;
  /** The record's form of a validated config; absent: the config as validated. */
  resolveConfig?(config: Record<string, unknown>): Record<string, unknown>;
}

const RULES = {
  ID_VERIFICATION: { config: IdVerificationConfigSchema, resolveConfig: resolveIdVerificationConfig },
  FACE_LIVENESS: { config: FaceLivenessConfigSchema },
  AGE_ESTIMATION: { config: AgeEstimationConfigSchema },
  PEP_SANCTIONS: { config: NoConfigSchema },
  ADVERSE_MEDIA: { config: NoConfigSchema },
  FACE_LIVENESS_CONSENT_SETTINGS: {},
  DEEPFAKE_DETECTION: {},
  DEEP_AGE: {},
  ADDRESS_VERIFICATION: {},
  BACKGROUND_CHECK: {},
  TITLE_SEARCH: {},
  CUSTOM_PROMPT: {},
  CONSENT: {},
  BANK_STATEMENT_UPLOAD: {},
  AI_BANK_STATEMENT_ANALYSIS: {},
  DOCUMENT_UPLOAD: {},
  WHITE_LABEL: {},
  PHONE_TRUST_CHECK: {},
  CARRIER_AGE_GATE: {},
  PHONE_OWNERSHIP_MATCH: {},
  PHONE_VERIFICATION: {},
} satisfies Record<string, StepConfigRules>;

/** A step id: the registry (steps/index.ts) has a module for each, in this order. */
export type StepCode = keyof typeof RULES;
export const STEP_CODES = Object.keys(RULES) as [StepCode, ...StepCode[]];
export const STEP_CONFIG_RULES: Readonly<Record<StepCode, StepConfigRules>> = RULES;

/** A step's config when none is sent. */
export function defaultStepConfig(code: StepCode): Record<string, unknown> {
  return STEP_CONFIG_RULES[code].config?.parse({}) ?? {};
}

/** The resolved config of a validated step config (defaults filled in), as the workflow record shows it. */
export function resolveStepConfig(code: StepCode, config: Record<string, unknown>): Record<string, unknown> {
  const { resolveConfig } = STEP_CONFIG_RULES[code];
  return resolveConfig === undefined ? { ...config } : resolveConfig(config);
}
