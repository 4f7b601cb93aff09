import { apiRoute, jsonResponse } from '../platform/http/routing.ts';
import { imageBodyGate } from '../images/image-request.ts';
import { IMAGE_OPERATION_ERRORS, imageRequestBody, multipartImageBody } from '../images/images.schemas.ts';
import { DocumentScanRequestSchema, DocumentScanResponseSchema } from './document.schemas.ts';

export const documentScanRoute = apiRoute({
  method: 'post',
  path: '/v1/document/scan',
  operationId: 'scanDocument',
  tags: ['Document'],
  summary: 'Read an identity document from a picture',
  description:
    'The identity is synthetic and derived from the pixels (same picture, same person); passports carry a TD3 MRZ and national ID cards a TD1 MRZ with valid check digits. ' +
    'A near-uniform picture is unreadable: 200 with empty strings, rawFields {} and confidence 0. 1 token per call. Fixture pictures and rules: GET /__sandbox/catalog.',
  guard: { errorFamily: 'image' },
  middleware: [imageBodyGate],
  request: {
    body: imageRequestBody(DocumentScanRequestSchema, multipartImageBody([{ name: 'image', description: 'The document picture.' }], true)),
  },
  responses: {
    200: jsonResponse(DocumentScanResponseSchema, 'What was read'),
    ...IMAGE_OPERATION_ERRORS,
  },
});
