/**
 * Zod schemas of the workflow area: POST/GET /v1/workflows, GET /v1/workflows/{id}, the step-config
 * PATCH, headless sessions (POST /v1/workflows/{id}/sessions), step submissions
 * (POST /v1/sessions/{id}/steps/{step_id}) and the workflow state (GET /v1/sessions/{id}/workflow,
 * POST .../workflow/start). Wire shapes follow the spec and real-client-facts §6.8-6.9: nullable keys
 * are always present, optional ones omitted.
 */
import { z } from '@hono/zod-openapi';
import { aliasedBody } from '../platform/validation/aliased-body.ts';
import { e164Phone, email, expiresInHours, identifier, mustBe, personName } from '../platform/validation/request-fields.ts';
import { HEADLESS_STEP_CODES, STEP_PREREQUISITES } from './workflow-steps.ts';
import { STEP_CODES, STEP_MODULES, type StepCode } from './steps/index.ts';
import { NoConfigSchema } from './steps/step-bodies.ts';
import { FaceLivenessRequirementsSchema, IdVerificationRequirementsSchema, LivenessPayloadSchema, StepStatusSchema } from './steps/step-schemas.ts';
import { SessionProgressSchema } from './session-results.ts';
import { SessionFailureSchema, WorkflowFailureSchema } from './workflow-failures.ts';
import { stepCode } from './step-code.ts';

const IsoInstant = z.string().openapi({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' });
const ConfigObject = z.record(z.string(), z.unknown());

// ─── Workflows ──────────────────────────────────────────────────────────────────────────────────────

export const StepCodeSchema = z.enum(STEP_CODES, { error: mustBe('id', `one of ${STEP_CODES.join(', ')}`) }).openapi('WorkflowStepId');

const StepRequestSchema = z.object({
  id: StepCodeSchema,
  config: z.record(z.string(), z.unknown(), { error: mustBe('config', "a JSON object of the step's settings (or omit it)") }).optional(),
});

/** A step as validated: its code and its config with defaults filled in. */
export interface ValidatedStep {
  code: StepCode;
  config: Record<string, unknown>;
}

/** Validates one step's config against its rules, reporting issues under `path`. */
export function checkStepConfig(
  code: StepCode,
  config: Record<string, unknown> | undefined,
  ctx: z.RefinementCtx,
  path: (string | number)[],
): Record<string, unknown> {
  const schema = STEP_MODULES[code].config;
  if (schema === undefined) return { ...(config ?? {}) };
  // Without zod's eval-based fast path: a workflow's few configs are parsed once each, and compiling a parser per
  // step type cost the first POST /v1/workflows more than all later parses gain.
  const parsed = schema.safeParse(config ?? {}, { jitless: true });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const message =
      issue.code === 'unrecognized_keys'
        ? schema === NoConfigSchema
          ? `config is not accepted for ${code}: it takes no settings, so omit config`
          : `config has unknown keys ${issue.keys.map((key) => `"${key}"`).join(', ')} for ${code}: check the spelling against the step's settings`
        : undefined;
    const placed = { ...issue, path: [...path, ...issue.path] };
    ctx.addIssue((message === undefined ? placed : { ...placed, code: 'custom', message }) as z.core.$ZodRawIssue);
  }
  return {};
}

export const CreateWorkflowBodySchema = z
  .object({
    name: z
      .string({ error: mustBe('name', 'a string of 1-255 characters', "send the workflow's name, 1-255 characters") })
      .trim()
      .min(1, { error: "name must not be empty: send the workflow's name, 1-255 characters" })
      .max(255, { error: mustBe('name', 'at most 255 characters long') }),
    steps: z
      .array(StepRequestSchema, {
        error: mustBe('steps', 'an array of 1-10 steps such as [{"id": "ID_VERIFICATION"}]', 'send 1-10 steps such as [{"id": "ID_VERIFICATION"}]'),
      })
      .min(1, { error: 'steps must have at least 1 step, e.g. [{"id": "ID_VERIFICATION"}]' })
      .max(10, { error: 'steps must have at most 10 steps: split the process into several workflows' }),
  })
  .transform((body, ctx) => {
    const steps: ValidatedStep[] = [];
    body.steps.forEach((step, index) => {
      if (body.steps.findIndex((other) => other.id === step.id) !== index) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'id'],
          message: `id ${step.id} appears more than once: each step may be used once per workflow`,
        });
      }
      const prerequisite = STEP_PREREQUISITES[step.id];
      if (prerequisite !== undefined && !body.steps.slice(0, index).some((earlier) => earlier.id === prerequisite)) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'id'],
          message: `id ${step.id} needs an earlier ${prerequisite} step: put ${prerequisite} before it`,
        });
      }
      steps.push({ code: step.id, config: checkStepConfig(step.id, step.config, ctx, ['steps', index, 'config']) });
    });
    return { name: body.name, steps };
  })
  .openapi('CreateWorkflowBody', {
    description:
      'name 1-255; steps 1-10, no duplicates. Configs: ID_VERIFICATION (minimum_age 18, maximum_age 51, expiry_date_years 2, require_secondary_id, require_tertiary_id, face_front_photo_only, require_front_only, enable_fraud_analysis false, escalation_type none|nfc-passport, escalation_risk_threshold 60 0-100), FACE_LIVENESS (confidence_threshold 1-100, default 70), AGE_ESTIMATION (minimum_age 1-100, default 18); PEP_SANCTIONS and ADVERSE_MEDIA take none.',
  });
export type CreateWorkflowInput = z.output<typeof CreateWorkflowBodySchema>;

export const WorkflowStepSchema = z.object({ id: z.string().openapi({ example: 'id-verification' }), config: ConfigObject });

export const WorkflowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.string().openapi({ example: 'active' }),
    organization_id: z.string(),
    created_at: IsoInstant,
    updated_at: IsoInstant,
    steps: z.array(WorkflowStepSchema),
  })
  .openapi('Workflow');
export type Workflow = z.infer<typeof WorkflowSchema>;

export const WorkflowResponseSchema = z.object({ workflow: WorkflowSchema }).openapi('WorkflowResponse');

export const WorkflowSummarySchema = z
  .object({ id: z.string(), name: z.string(), status: z.string(), steps: z.array(z.string()), created_at: IsoInstant })
  .openapi('WorkflowSummary');
export const WorkflowListResponseSchema = z.object({ workflows: z.array(WorkflowSummarySchema) }).openapi('WorkflowListResponse');

// Path ids are bounded like every other id of the API (1-255): a longer one is refused with 400, not looked up.
export const WorkflowIdParamsSchema = z.object({
  workflow_id: identifier('workflow_id', 'the id of one of your workflows').openapi({
    param: { name: 'workflow_id', in: 'path' },
    example: '7d3f9c2a-4b1e-4f6a-9c8d-2e5b7a1f3c90',
  }),
});

export const WorkflowStepParamsSchema = WorkflowIdParamsSchema.extend({
  step_id: z.string().openapi({ param: { name: 'step_id', in: 'path' }, example: 'ID_VERIFICATION', description: 'ID_VERIFICATION or id-verification' }),
});

export const UpdateStepConfigBodySchema = z
  .object({ config: z.record(z.string(), z.unknown(), { error: mustBe('config', "a JSON object of the step's settings", 'send {"config": {...}}') }) })
  .openapi('UpdateStepConfigBody', { description: "The step's new config: it replaces the previous one (omitted settings take their defaults)." });

// ─── Headless sessions ──────────────────────────────────────────────────────────────────────────────

export const CreateWorkflowSessionBodySchema = aliasedBody(
  {
    email: { schema: email, required: true },
    firstName: { snake: 'first_name', schema: (key) => personName(key, "the applicant's first name"), required: true },
    lastName: { snake: 'last_name', schema: (key) => personName(key, "the applicant's last name"), required: true },
    phone: { schema: e164Phone, required: true },
    externalId: { snake: 'external_id', schema: (key) => identifier(key, 'your own reference for the applicant') },
    expiresInHours: { snake: 'expires_in_hours', schema: expiresInHours },
  },
  { name: 'CreateWorkflowSessionBody', description: 'A headless session: no invitation is sent and no session_url is returned.' },
);
export type CreateWorkflowSessionInput = z.infer<typeof CreateWorkflowSessionBodySchema>;

export const HeadlessStepCodeSchema = z.enum(HEADLESS_STEP_CODES, {
  error: mustBe('step_id', `one of ${HEADLESS_STEP_CODES.join(', ')} (the steps a headless session runs)`),
});

const StepRequirementsSchema = z.union([IdVerificationRequirementsSchema, FaceLivenessRequirementsSchema, z.record(z.string(), z.unknown())]).openapi({
  description: "ID_VERIFICATION and FACE_LIVENESS: their requirements objects; other steps (hosted sessions): the step's own keys (see docs/workflows.md).",
});

export const WorkflowSessionSchema = z
  .object({
    session_id: z.string().openapi({ format: 'uuid' }),
    expires_at: IsoInstant.nullable(),
    steps: z.array(z.object({ step_id: HeadlessStepCodeSchema, status: StepStatusSchema, requirements: StepRequirementsSchema })),
    current_step: z.number().int().min(0),
  })
  .openapi('WorkflowSession');
export type WorkflowSession = z.infer<typeof WorkflowSessionSchema>;

export const WorkflowStateStepSchema = z.object({
  step_id: StepCodeSchema.openapi({ description: 'Headless sessions: ID_VERIFICATION or FACE_LIVENESS; hosted sessions: any step type.' }),
  status: StepStatusSchema,
  attempts: z.number().int().min(0),
  started_at: IsoInstant.nullable(),
  completed_at: IsoInstant.nullable(),
  failure_reason: z.string().nullable(),
  requirements: StepRequirementsSchema,
  failure: WorkflowFailureSchema.optional().openapi({ description: 'Present when the latest attempt of the step failed a check.' }),
});
export type WorkflowStateStep = z.infer<typeof WorkflowStateStepSchema>;

export const WorkflowStateSchema = z
  .object({
    session_id: z.string(),
    status: z.string().openapi({ example: 'PENDING' }),
    session_progress: SessionProgressSchema,
    steps: z.array(WorkflowStateStepSchema),
    current_step: z.number().int().min(0).nullable().openapi({ description: 'null once no step is left to submit' }),
    attempts_remaining: z.number().int().min(0).nullable(),
    session_failure: SessionFailureSchema.optional().openapi({ description: 'Present when the run ended without being submitted.' }),
  })
  .openapi('WorkflowState');
export type WorkflowState = z.infer<typeof WorkflowStateSchema>;

export const SessionIdParamsSchema = z.object({
  session_id: identifier('session_id', 'the session_id of a headless session').openapi({ param: { name: 'session_id', in: 'path' }, format: 'uuid' }),
});

/** A step id of the path in either form: UPPER_SNAKE (FACE_LIVENESS) or the record's lower-case hyphenated form (face-liveness). */
export const StepPathIdSchema = z
  .string()
  .transform((value, ctx) => {
    const code = stepCode(value);
    if ((STEP_CODES as readonly string[]).includes(code)) return code as StepCode;
    ctx.addIssue({
      code: 'custom',
      message: `step_id "${value.slice(0, 80)}" is not a step id: use one of ${STEP_CODES.join(', ')}, or its lower-case hyphenated form (e.g. face-liveness)`,
    });
    return z.NEVER;
  })
  .openapi({
    param: { name: 'step_id', in: 'path' },
    type: 'string',
    example: 'face-liveness',
    description:
      'The step id, UPPER_SNAKE (ID_VERIFICATION, FACE_LIVENESS) or lower-case hyphenated (id-verification, face-liveness): both reach the same step.',
  });

export const SessionStepParamsSchema = SessionIdParamsSchema.extend({ step_id: StepPathIdSchema });

// ─── Step submissions (the bodies' union is built from the step registry: steps/index.ts) ─────────────

export const StepSubmissionResponseSchema = z
  .looseObject({
    step_id: StepCodeSchema,
    step_status: StepStatusSchema,
    failure_reason: z.string().nullable(),
    current_step: z.number().int().min(0).nullable(),
    attempts_remaining: z.number().int().min(0).nullable(),
    session_status: z.string(),
    session_progress: SessionProgressSchema,
    failure: WorkflowFailureSchema.optional().openapi({ description: 'Present when the latest attempt of the step failed a check.' }),
    session_failure: SessionFailureSchema.optional().openapi({ description: 'Present when the run ended without being submitted.' }),
    checks: z.record(z.string(), z.unknown()).optional().openapi({ description: 'ID_VERIFICATION: what each check found' }),
    liveness: LivenessPayloadSchema.optional().openapi({ description: "FACE_LIVENESS: the action's payload" }),
  })
  .openapi('StepSubmissionResponse', {
    description: 'The seven envelope keys, then the step’s own payload keys (checks, liveness, deepfake, …: see docs/workflows.md).',
  });
export type StepSubmissionResponse = z.infer<typeof StepSubmissionResponseSchema>;

// ─── PUT /__sandbox/sessions/{id}/attempt-script ────────────────────────────────────────────────────

export const AttemptScriptBodySchema = z
  .strictObject({
    script: z
      .string({ error: mustBe('script', 'a script such as "ID_VERIFICATION=ID_TEXT_NOT_READABLE,pass" or "exhaust", or null to remove it') })
      .min(1)
      .max(1000)
      .nullable(),
  })
  .openapi('AttemptScriptBody', {
    description: 'STEP=<failure code[@SLOT] or pass>,...;STEP=... or "exhaust"; null removes the script (the content decides again).',
    example: { script: 'ID_VERIFICATION=ID_TEXT_NOT_READABLE@PRIMARY,SELFIE_ID_FACE_MISMATCH,pass' },
  });

export const AttemptScriptResponseSchema = z
  .object({ session_id: z.string(), script: z.string().nullable(), workflow_state: WorkflowStateSchema })
  .openapi('AttemptScriptResponse');
export type AttemptScriptResponse = z.infer<typeof AttemptScriptResponseSchema>;

export { WorkflowConflictSchema, WorkflowErrorSchema } from './workflow-error-schemas.ts';
