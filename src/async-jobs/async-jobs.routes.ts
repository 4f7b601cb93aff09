import { apiRoute, extraErrors } from '../platform/http/routing.ts';
import { AsyncJobSchema, JobIdParamsSchema } from './async-jobs.schemas.ts';

export const getAsyncJobRoute = apiRoute({
  method: 'get',
  path: '/v1/async-jobs/{jobId}',
  operationId: 'getAsyncJob',
  tags: ['Async jobs'],
  summary: 'Poll an asynchronous job',
  description: 'Jobs progress pending → processing → ready | failed on the sandbox clock and expire after the retention period (404).',
  request: { params: JobIdParamsSchema },
  responses: {
    200: { description: 'The job', content: { 'application/json': { schema: AsyncJobSchema } } },
    404: extraErrors[404],
  },
});
