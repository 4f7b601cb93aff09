import { createRoute } from '@hono/zod-openapi';
import { apiRoute, ErrorSchema } from '../platform/http/routing.ts';
import { PresignBodySchema, PresignResponseSchema, UploadParamsSchema, UploadQuerySchema, UploadReceiptSchema } from './upload.schemas.ts';

export const presignRoute = apiRoute({
  method: 'post',
  path: '/v1/upload/presign',
  operationId: 'presignUploads',
  tags: ['Uploads'],
  summary: 'Presigned PUT URLs for image files',
  description: 'One upload per requested file, in request order. The returned fileKey is what document, face and identity operations accept.',
  request: { body: { required: true, content: { 'application/json': { schema: PresignBodySchema } } } },
  responses: { 200: { description: 'Upload URLs and file keys', content: { 'application/json': { schema: PresignResponseSchema } } } },
});

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

export const putUploadRoute = createRoute({
  method: 'put',
  path: '/uploads/{id}',
  operationId: 'putUpload',
  tags: ['Uploads'],
  summary: 'Receive the bytes of a presigned upload (no API key: the signature is the permission)',
  request: {
    params: UploadParamsSchema,
    query: UploadQuerySchema,
    body: {
      required: true,
      content: { 'image/*': { schema: { type: 'string', format: 'binary', description: 'The image bytes, with the Content-Type declared when presigning.' } } },
    },
  },
  responses: {
    200: { description: 'Stored', content: { 'application/json': { schema: UploadReceiptSchema } } },
    400: error('Content-Type differs from the presigned one'),
    403: error('Signature invalid or URL expired'),
    413: error('More bytes than declared'),
    429: error("Too many image requests at once (the image operations' gate); see Retry-After"),
    500: error('Unexpected server error; safe to retry'),
  },
});
