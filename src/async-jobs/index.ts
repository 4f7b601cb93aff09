import type { SandboxModule } from '../platform/sandbox-module.ts';
import { asyncJobsRouter } from './async-jobs.router.ts';

/** GET /v1/async-jobs/{jobId}; job kinds are registered by the areas that start jobs. */
export const asyncJobsModule: SandboxModule = {
  name: 'async-jobs',
  router: () => asyncJobsRouter,
};
