/**
 * Why a headless step's attempt failed, as the clients read it: the `failure` object of the step envelope
 * and of GET /v1/sessions/{id}/workflow ({code, category, user_action, retryable, slot, message}), and
 * `session_failure` ({code, step_id, failure}) once a run ended without being submitted.
 *
 * Each step module's failure rows say, per code, its category, what the user should do, the spec's
 * meta_data.failureData reason it is recorded under, and the inputs that trigger it: real image content
 * and a magic applicant last name (case-insensitive) that forces it whatever the pictures show. The rows
 * are gathered in steps/index.ts (WORKFLOW_FAILURES); this file turns a step's failure into the wire's.
 */
import { z } from '@hono/zod-openapi';
import type { FailureReason, FailureSlot } from './session-results.ts';
import { failureRow, WORKFLOW_FAILURE_CODES } from './steps/index.ts';
import { FAILURE_CATEGORIES, USER_ACTIONS, type StepFailure } from './steps/step-module.ts';

export const FAILURE_DOCUMENT_SLOTS = ['PRIMARY', 'SECONDARY', 'TERTIARY'] as const;

/** The step failure codes as a coverage table: a failed attempt inside a 200 counts as its code. */
export const STEP_FAILURE_COVERAGE = {
  name: 'workflow step failure codes',
  operation: 'submitWorkflowStep',
  member: 'failure.code',
  values: WORKFLOW_FAILURE_CODES,
} as const;

export const WorkflowFailureSchema = z
  .object({
    code: z.enum(WORKFLOW_FAILURE_CODES as [string, ...string[]]),
    category: z.enum(FAILURE_CATEGORIES),
    user_action: z.enum(USER_ACTIONS),
    retryable: z.boolean().openapi({ description: 'false once the attempts are used up' }),
    slot: z.enum(FAILURE_DOCUMENT_SLOTS).nullable().openapi({ description: 'The document the failure is about; null for selfie and liveness failures.' }),
    message: z.string().openapi({ description: 'Developer text: what failed and the measured values.' }),
  })
  .openapi('WorkflowFailure');
export type WorkflowFailure = z.infer<typeof WorkflowFailureSchema>;

export const SESSION_FAILURE_CODES = ['ATTEMPTS_EXHAUSTED', 'STEP_BLOCKED', 'SESSION_EXPIRED'] as const;

export const SessionFailureSchema = z
  .object({
    code: z.enum(SESSION_FAILURE_CODES).openapi({
      description:
        'ATTEMPTS_EXHAUSTED: the failed-attempt limit ended the session FAILED; SESSION_EXPIRED: expires_at passed with a step open; STEP_BLOCKED: the session was ended (REJECTED or VOIDED) with a step open, or a step ended the run (declined consent).',
    }),
    step_id: z.string().optional(),
    failure: WorkflowFailureSchema.optional(),
  })
  .openapi('WorkflowSessionFailure');
export type SessionFailure = z.infer<typeof SessionFailureSchema>;

/** The failureData reason and slot of a failure. */
export function failureDataOf(failure: StepFailure): { reason: FailureReason; slot: FailureSlot } {
  return { reason: failure.reason ?? failureRow(failure.code).reason, slot: failure.slot };
}

/** The wire `failure` of an attempt; `retryable` false once the session has no attempt left. */
export function toWireFailure(failure: StepFailure, retryable: boolean): WorkflowFailure {
  const row = failureRow(failure.code);
  return {
    code: failure.code,
    category: row.category,
    user_action: retryable ? row.user_action : 'NONE',
    retryable,
    slot: row.category === 'DOCUMENT' && failure.slot !== 'LIVENESS' && failure.slot !== 'STEP' ? failure.slot : null,
    message: `${row.message} ${failure.detail}`,
  };
}
