import { valueFact, type ValueTable } from '../platform/coverage/sources.ts';
import { explain, noteOutcome, principalOf } from '../platform/http/context.ts';
import { JOB_STATUSES } from '../platform/jobs/jobs.ts';
import { newRouter } from '../platform/http/routing.ts';
import { getAsyncJobRoute } from './async-jobs.routes.ts';
import { readAsyncJob } from './async-jobs.service.ts';

/** The phases a poll reports, as a coverage table (the handler notes each answer's). */
export const JOB_PHASE_COVERAGE: ValueTable = { name: 'async job phases', operation: 'GET /v1/async-jobs/{jobId}', member: 'status', values: JOB_STATUSES };

export const asyncJobsRouter = newRouter().openapi(getAsyncJobRoute, (c) => {
  const { jobId } = c.req.valid('param');
  const { view, explanation } = readAsyncJob(c.get('platform').jobs, c.get('world'), principalOf(c), jobId);
  if (explanation) explain(c, explanation);
  noteOutcome(c, valueFact(JOB_PHASE_COVERAGE, view.status));
  return c.json(view, 200);
});
