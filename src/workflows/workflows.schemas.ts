/**
 * Zod schemas of the workflows themselves: POST/GET /v1/workflows, GET /v1/workflows/{id} and the
 * step-config PATCH. A step's config is checked with its rules (steps/step-configs.ts), not with the step
 * types, so these evaluate none of them; the runs' schemas are in workflow-sessions.schemas.ts. Wire shapes
 * follow the spec and real-client-facts §6.8: nullable keys are always present, optional ones omitted.
 */
import { z } from '@hono/zod-openapi';
import { identifier, mustBe } from '../platform/validation/request-fields.ts';
import { STEP_PREREQUISITES } from './workflow-steps.ts';
import { NoConfigSchema, STEP_CODES, STEP_CONFIG_RULES, type StepCode } from './steps/step-configs.ts';

export const IsoInstant = z.string().openapi({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' });
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
  const schema = STEP_CONFIG_RULES[code].config;
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
