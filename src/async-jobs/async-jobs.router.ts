import { principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { getAsyncJobRoute } from './async-jobs.routes.ts';
import { readAsyncJob } from './async-jobs.service.ts';

export const asyncJobsRouter = newRouter().openapi(getAsyncJobRoute, (c) =>
  c.json(explained(c, readAsyncJob(c.get('platform').jobs, c.get('world'), principalOf(c), c.req.valid('param').jobId)), 200),
);
