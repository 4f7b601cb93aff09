import { z } from '@hono/zod-openapi';

export const JobIdParamsSchema = z.object({
  jobId: z
    .string()
    .uuid('must be a job id (a UUID such as 3b241101-e2bb-4255-8caf-4136c566a962)')
    .openapi({ param: { name: 'jobId', in: 'path' }, example: '3b241101-e2bb-4255-8caf-4136c566a962' }),
});

export const AsyncJobSchema = z
  .object({
    jobId: z.string().uuid(),
    status: z.enum(['pending', 'processing', 'ready', 'failed']),
    createdAt: z.number().int().openapi({ description: 'Epoch seconds.' }),
    updatedAt: z.string().openapi({ description: 'ISO 8601 instant of the last status change.' }),
    result: z.unknown().optional().openapi({ description: 'Present only when status is ready; shape depends on the operation.' }),
    error: z.string().optional().openapi({ description: 'Present only when status is failed.' }),
  })
  .openapi('AsyncJob');
