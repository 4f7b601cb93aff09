import { explain, principalOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { getAsyncJobRoute } from './async-jobs.routes.ts';
import { readAsyncJob } from './async-jobs.service.ts';

export const asyncJobsRouter = newRouter().openapi(getAsyncJobRoute, (c) => {
  const { jobId } = c.req.valid('param');
  const { view, explanation } = readAsyncJob(c.get('platform').jobs, c.get('world'), principalOf(c), jobId);
  if (explanation) explain(c, explanation);
  return c.json(view, 200);
});
