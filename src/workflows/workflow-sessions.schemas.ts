/**
 * Zod schemas of the workflows' runs: headless sessions (POST /v1/workflows/{id}/sessions), step
 * submissions (POST /v1/sessions/{id}/steps/{step_id}), the workflow state (GET /v1/sessions/{id}/workflow,
 * POST .../workflow/start) and the attempt script. Wire shapes follow the spec and real-client-facts
 * §6.8-6.9: nullable keys are always present, optional ones omitted.
 */
import { z } from '@hono/zod-openapi';
import { aliasedBody } from '../platform/validation/aliased-body.ts';
import { e164Phone, email, expiresInHours, identifier, mustBe, personName } from '../platform/validation/request-fields.ts';
import { HEADLESS_STEP_CODES } from './workflow-steps.ts';
import { STEP_CODES, type StepCode } from './steps/step-configs.ts';
import { FaceLivenessRequirementsSchema, IdVerificationRequirementsSchema, LivenessPayloadSchema, StepStatusSchema } from './steps/step-schemas.ts';
import { SessionProgressSchema } from './session-results.ts';
import { SessionFailureSchema, WorkflowFailureSchema } from './workflow-failures.ts';
import { stepCode } from './step-code.ts';
import { IsoInstant, StepCodeSchema } from './workflows.schemas.ts';

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
