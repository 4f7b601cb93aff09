/**
 * Workflows and headless workflow sessions: POST/GET /v1/workflows, GET /v1/workflows/{id}, the
 * step-config PATCH, POST /v1/workflows/{id}/sessions, the workflow state and start, and step
 * submissions (POST /v1/sessions/{id}/steps/{step_id}) executed on uploaded images. Other areas look
 * workflows up through workflows.store.ts.
 */
import { IMAGE_OPERATIONS } from '../images/image-catalog.ts';
import { codeSource, valueSource } from '../platform/coverage/sources.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { WORKFLOW_MAGIC_VALUES } from './workflow-catalog.ts';
import { failureRow, WORKFLOW_ERROR_CODES } from './steps/index.ts';
import { STEP_FAILURE_COVERAGE } from './workflow-failures.ts';
import { workflowsRouter } from './workflows.router.ts';

export const workflowsModule: SandboxModule = {
  name: 'workflows',
  router: () => workflowsRouter,
  capabilities: [
    IMAGE_OPERATIONS,
    // A step's pictures (id verification, deepfake detection).
    { decodesImages: ['submitWorkflowStep'] },
    {
      catalog: { magicValues: WORKFLOW_MAGIC_VALUES },
      coverage: [
        codeSource(
          'workflow error codes',
          Object.entries(WORKFLOW_ERROR_CODES).map(([code, { status, when }]) => ({ code, status, how: when })),
        ),
        valueSource(STEP_FAILURE_COVERAGE, (code) => {
          const row = failureRow(code);
          return {
            how: `POST /v1/sessions/{id}/steps/${row.step} with ${row.content}${row.magicLastName === null ? '' : `, or applicant last name ${row.magicLastName}`}`,
          };
        }),
      ],
    },
  ],
};
