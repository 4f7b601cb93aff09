import type { SandboxModule } from '../platform/sandbox-module.ts';
import type { JobStatus } from '../platform/jobs/jobs.ts';
import { valueSource } from '../platform/coverage/sources.ts';
import { JOB_PHASE_COVERAGE } from './async-jobs.router.ts';
import { asyncJobsRouter } from './async-jobs.router.ts';

/** GET /v1/async-jobs/{jobId}; job kinds are registered by the areas that start jobs. */
export const asyncJobsModule: SandboxModule = {
  name: 'async-jobs',
  router: () => asyncJobsRouter,
  capabilities: [{ coverage: [valueSource(JOB_PHASE_COVERAGE, (phase) => ({ how: JOB_PHASE_TRIGGERS[phase as JobStatus] }))] }],
};

/** How a poll meets each phase of a job (an adverse-media screening, say). */
const JOB_PHASE_TRIGGERS: Record<JobStatus, string> = {
  pending: 'poll the job right after creating it (frozen clock)',
  processing: 'poll the job after its processing delay (advance the clock 1 s)',
  ready: 'poll the job after it finished (advance the clock 3 s)',
  failed: 'create the job with scenario async-jobs-fail (or the adverse-media magic name Fay Failure), then poll it',
};
