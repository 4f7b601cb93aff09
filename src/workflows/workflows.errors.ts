/**
 * The workflows area's rows of the error-code map (platform/errors/error-codes.ts) for the workflow
 * resource itself; a step's refusals, whose bodies carry a `code`, are workflow-errors.ts.
 */
import type { ZodError } from 'zod';
import { describeZodError } from '../platform/errors/api-error.ts';
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface WorkflowFacts {
  id: string;
}

export const WORKFLOWS_ERROR_CODES = defineErrorCodes({
  WORKFLOW_NOT_FOUND: {
    status: 404,
    message: ({ id }: WorkflowFacts) => `Workflow ${id} was not found: create one with POST /v1/workflows, or list yours with GET /v1/workflows.`,
  },
  WORKFLOW_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ id }: WorkflowFacts) => `Workflow ${id} belongs to another organization: use an API key of the organization that created it.`,
  },
  /** The spec's Errors: "inactive workflow" is a 400. */
  WORKFLOW_NOT_ACTIVE: {
    status: 400,
    message: (facts: WorkflowFacts & { status: string }) =>
      `Workflow ${facts.id} is ${facts.status}, not active: only active workflows take new sessions; use an active workflow (GET /v1/workflows lists them) or omit the workflow id.`,
  },
  NOT_A_STEP_ID: {
    status: 400,
    message: (facts: { stepId: string; stepCodes: readonly string[] }) =>
      `Invalid request: path parameter "stepId" "${facts.stepId.slice(0, 80)}" is not a step id: use one of ${facts.stepCodes.join(', ')}.`,
  },
  WORKFLOW_HAS_NO_SUCH_STEP: {
    status: 404,
    message: (facts: WorkflowFacts & { step: string; steps: readonly string[] }) =>
      `Workflow ${facts.id} has no ${facts.step} step: its steps are ${facts.steps.join(', ')}.`,
  },
  /** The hosted page's step forms (steps/*.step.ts, steps/hosted-forms.ts). */
  HOSTED_SAMPLE_UNKNOWN: {
    status: 400,
    message: (facts: { field: string; samples: readonly string[] }) => `${facts.field}_sample must be one of the sample images (${facts.samples.join(', ')}).`,
  },
  HOSTED_FILE_MISSING: {
    status: 400,
    message: ({ label }: { label: string }) => `${label} is missing: choose a file or one of the sample images.`,
  },
  HOSTED_FRAMES_NOT_JPEG: {
    status: 400,
    message: (facts: { label: string; contentType: string }) =>
      `The picture for the frames must be a JPEG (liveness frames are image/jpeg); ${facts.label} is ${facts.contentType}.`,
  },
  HOSTED_SCAN_UNKNOWN: {
    status: 400,
    message: ({ scans }: { scans: readonly string[] }) => `scan must be one of ${scans.join(', ')}.`,
  },
  INVALID_STEP_CONFIG: {
    status: 400,
    message: ({ error }: { error: ZodError }) => describeZodError(error, 'json'),
  },
});
