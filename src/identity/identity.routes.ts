import { apiRoute, jsonResponse } from '../platform/http/routing.ts';
import { FACE_MATCH_THRESHOLD } from '../face/api.ts';
import { imageBodyGate } from '../images/image-request.ts';
import { IMAGE_OPERATION_ERRORS, imageRequestBody, multipartImageBody } from '../images/images.schemas.ts';
import { IdentityVerifyRequestSchema, IdentityVerifyResponseSchema } from './identity.schemas.ts';
import { IDENTITY_WEIGHTS, MIN_DOCUMENT_CONFIDENCE } from './identity.service.ts';

export const identityVerifyRoute = apiRoute({
  method: 'post',
  path: '/v1/identity/verify',
  operationId: 'verifyIdentity',
  tags: ['Identity'],
  summary: 'Document scan, face detection and face match in one call',
  description:
    'Scans documentImage, detects the face in faceImage and compares the document portrait with it (each picture decoded once). ' +
    `verified = document read (scan confidence >= ${MIN_DOCUMENT_CONFIDENCE * 100}) and a face in faceImage and a match (similarity >= ${FACE_MATCH_THRESHOLD}). ` +
    `overallConfidence = ${IDENTITY_WEIGHTS.document} x document + ${IDENTITY_WEIGHTS.faceDetection} x face detection + ${IDENTITY_WEIGHTS.faceMatch} x face match confidence; every figure 0-100. 1 token per call.`,
  guard: { errorFamily: 'image' },
  middleware: [imageBodyGate],
  request: {
    body: imageRequestBody(
      IdentityVerifyRequestSchema,
      multipartImageBody(
        [
          { name: 'documentImage', description: 'The identity document picture.' },
          { name: 'faceImage', description: 'The selfie.' },
        ],
        true,
      ),
    ),
  },
  responses: { 200: jsonResponse(IdentityVerifyResponseSchema, 'The aggregated verification'), ...IMAGE_OPERATION_ERRORS },
});
