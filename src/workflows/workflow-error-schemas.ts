/**
 * The error bodies of the workflow endpoints, which the sessions area's upload route documents too. Their
 * `code` list is every step type's, derived in steps/index.ts; a start reads it from
 * workflow-error-codes.generated.ts instead, so a session route never evaluates the step types (a test fails
 * while the two differ).
 */
import { z } from '@hono/zod-openapi';
import { ErrorSchema } from '../platform/http/routing.ts';
import { WORKFLOW_ERROR_CODE_NAMES } from './workflow-error-codes.generated.ts';

export const WorkflowErrorSchema = ErrorSchema.extend({
  code: z.enum(WORKFLOW_ERROR_CODE_NAMES).openapi({
    description: 'The service’s error code (see the docs page of the mobile flow for when each is answered).',
  }),
  invalid_steps: z.array(z.string()).optional().openapi({ description: 'UNSUPPORTED_WORKFLOW_STEPS: the step types a headless session cannot run.' }),
}).openapi('WorkflowError');

export const WorkflowConflictSchema = WorkflowErrorSchema.extend({
  current_step: z.number().int().min(0).nullable().openapi({ description: 'The index of the step to submit next; null once the run is over.' }),
  step_id: z.string().optional().openapi({ description: 'The expected step when out of order, else the submitted step.' }),
  failure_reason: z.string().optional().openapi({ description: 'LIVENESS_RESULT_NOT_READY: FACE_LIVENESS_RESULT_NOT_READY.' }),
  ready_at: z.string().optional().openapi({ description: 'The *_NOT_READY codes of the asynchronous steps: when the result is due (sandbox clock).' }),
}).openapi('WorkflowConflict');
