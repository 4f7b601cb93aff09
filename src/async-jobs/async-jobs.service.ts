/**
 * GET /v1/async-jobs/{jobId}: the organization's view of a job from the job engine.
 *
 * LIMITATIONS: a sandbox key sees the organization's jobs like a live key (it cannot create any).
 */
import type { Principal } from '../platform/auth/organizations.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import type { JobEngine } from '../platform/jobs/jobs.ts';
import type { World } from '../platform/namespaces/world.ts';

export function readAsyncJob(engine: JobEngine, world: World, principal: Principal, jobId: string) {
  const job = engine.find(world, jobId);
  if (!job) throw new ApiError(404, `Async job ${jobId} was not found: it never existed or expired after its retention period.`);
  if (job.organizationId !== principal.organization.id) {
    throw new ApiError(403, `Async job ${jobId} belongs to another organization.`);
  }
  return engine.view(world, job);
}
