/**
 * A workflow session's execution state (the 'workflow-sessions' collection, one record per session id):
 * each step's status, attempts, timestamps, requirements, latest failure and what the step saved between
 * submissions, the failed-attempt limit and the attempt script. Headless sessions get theirs at creation
 * (POST /v1/workflows/{id}/sessions), hosted ones at POST /v1/sessions with workflow_id; a hosted session
 * stored before runs existed gets one derived from its workflow on first use (runFor).
 */
import type { World } from '../platform/namespaces/world.ts';
import { DEFAULT_MAX_FAILED_ATTEMPTS } from './session-results.ts';
import type { AttemptScript } from './attempt-scripts.ts';
import { STEP_MODULES } from './steps/index.ts';
import type { StepFailure } from './steps/step-module.ts';
import type { StepState } from './workflow-step.machine.ts';
import type { StepCode } from './steps/index.ts';
import { stepCode } from './step-code.ts';
import type { WorkflowRecord } from './workflows.store.ts';

export interface RunStep extends StepState {
  requirements: Record<string, unknown>;
  /** The step's resolved config in the workflow (what the checks read). */
  config: Record<string, unknown>;
  /** Why the latest attempt failed (cleared when the step completes). */
  failure?: StepFailure;
  /** What the step saved on its submissions (start → complete). */
  state?: Record<string, unknown>;
  /** The analysis_data members the step recorded. */
  analysis?: Record<string, unknown>;
}

export interface WorkflowRunRecord {
  /** The session id. */
  id: string;
  organizationId: string;
  workflowId: string;
  maxFailedAttempts: number;
  /** A session created with POST /v1/sessions (every step type), not a headless one. */
  hosted?: boolean;
  steps: RunStep[];
  script?: AttemptScript;
  /** Records stored before steps kept their own state held FACE_LIVENESS's here. */
  liveness?: Record<string, unknown>;
}

export const workflowRuns = (world: World) => world.data.collection<WorkflowRunRecord>('workflow-sessions');

/** A fresh run of the workflow: every step PENDING with its requirements. */
export function newRun(workflow: WorkflowRecord, session: { id: string; organizationId: string; hosted: boolean; script?: AttemptScript }): WorkflowRunRecord {
  return {
    id: session.id,
    organizationId: session.organizationId,
    workflowId: workflow.id,
    maxFailedAttempts: workflow.settings?.max_failed_attempts ?? DEFAULT_MAX_FAILED_ATTEMPTS,
    ...(session.hosted ? { hosted: true } : {}),
    ...(session.script === undefined ? {} : { script: session.script }),
    steps: workflow.steps.map((step) => {
      const code = stepCode(step.id) as StepCode;
      return {
        step_id: code,
        status: 'PENDING',
        attempts: 0,
        started_at: null,
        completed_at: null,
        failure_reason: null,
        // A workflow may also list the iGaming checks it runs (vpn-detection, ip-jurisdiction): no step module runs those.
        requirements: Object.hasOwn(STEP_MODULES, code) ? STEP_MODULES[code].requirements(step.config) : {},
        config: step.config,
      };
    }),
  };
}

/** Stores a new run (creation of a headless or hosted workflow session). */
export function saveRun(world: World, run: WorkflowRunRecord): WorkflowRunRecord {
  return workflowRuns(world).put(run);
}

/** The run of a hosted session created with a workflow (POST /v1/sessions stores it beside the record). */
export function createHostedRun(
  world: World,
  session: { id: string; organizationId: string },
  workflow: WorkflowRecord,
  script: AttemptScript | undefined,
): string {
  const run = saveRun(world, newRun(workflow, { ...session, hosted: true, ...(script === undefined ? {} : { script }) }));
  return `workflow run of ${run.steps.length} step(s), driven with GET /v1/sessions/${run.id}/workflow and POST .../steps/{step_id}${script === undefined ? '' : `; attempt script "${script.text}" (from external_id)`}`;
}
