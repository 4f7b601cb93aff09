import { z } from '@hono/zod-openapi';
import { apiRoute } from '../platform/http/routing.ts';

export const VerifyKeyResponseSchema = z
  .object({
    valid: z.literal(true),
    organization: z.object({ id: z.string(), name: z.string(), status: z.enum(['active']) }),
    key: z.object({ id: z.string(), kind: z.enum(['live', 'sandbox']) }),
  })
  .openapi('VerifyKeyResponse');

export const verifyKeyRoute = apiRoute({
  method: 'get',
  path: '/v1/auth/verify',
  operationId: 'verifyApiKey',
  tags: ['Auth'],
  summary: 'Check an API key and name its organization',
  responses: { 200: { description: 'The key is valid', content: { 'application/json': { schema: VerifyKeyResponseSchema } } } },
});
