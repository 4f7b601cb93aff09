/**
 * GET /v1/async-jobs/{jobId}: the organization's view of a job from the job engine.
 *
 * LIMITATIONS: a sandbox key sees the organization's jobs like a live key (it cannot create any).
 */
import type { Principal } from '../platform/auth/organizations.ts';
import { valueFact, type ValueTable } from '../platform/coverage/sources.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { ASYNC_JOB_ERROR_CODES } from './async-jobs.errors.ts';
import type { Explained } from '../platform/explained.ts';
import { type AsyncJobView, JOB_STATUSES, type JobEngine } from '../platform/jobs/jobs.ts';
import type { World } from '../platform/namespaces/world.ts';

/** The phases a poll reports, as a coverage table (each answer notes its phase). */
export const JOB_PHASE_COVERAGE: ValueTable = { name: 'async job phases', operation: 'GET /v1/async-jobs/{jobId}', member: 'status', values: JOB_STATUSES };

export function readAsyncJob(engine: JobEngine, world: World, principal: Principal, jobId: string): Explained<AsyncJobView> {
  const job = engine.find(world, jobId);
  if (!job) throw codedError(ASYNC_JOB_ERROR_CODES, 'JOB_NOT_FOUND', { jobId });
  if (job.organizationId !== principal.organization.id) {
    throw codedError(ASYNC_JOB_ERROR_CODES, 'JOB_OF_ANOTHER_ORGANIZATION', { jobId });
  }
  const answer = engine.view(world, job);
  return { ...answer, facts: [valueFact(JOB_PHASE_COVERAGE, answer.value.status)] };
}
