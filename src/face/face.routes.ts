import { apiRoute, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import { imageBodyGate } from '../images/image-request.ts';
import { IMAGE_OPERATION_ERRORS, imageRequestBody, multipartImageBody } from '../images/images.schemas.ts';
import {
  CreateLivenessSessionRequestSchema,
  LivenessResultQuerySchema,
  LivenessResultSchema,
  LivenessSessionParamsSchema,
  LivenessSessionSchema,
} from './face-liveness.schemas.ts';
import {
  FaceAgeResponseSchema,
  FaceCompareRequestSchema,
  FaceCompareResponseSchema,
  FaceDetectResponseSchema,
  FaceImageRequestSchema,
} from './face.schemas.ts';
import { FACE_MATCH_THRESHOLD } from './face.service.ts';

const TAGS = ['Face'];
const IMAGE_ROUTE = { guard: { errorFamily: 'image' as const }, middleware: [imageBodyGate] };
const singleImageBody = () => imageRequestBody(FaceImageRequestSchema, multipartImageBody([{ name: 'image', description: 'The picture.' }]));

export const faceDetectRoute = apiRoute({
  method: 'post',
  path: '/v1/face/detect',
  operationId: 'detectFace',
  tags: TAGS,
  summary: 'Find the face in a picture',
  description: 'A near-uniform picture has no face (200, faceDetected false, confidence 0); any picture with detail has one. 1 token per call.',
  ...IMAGE_ROUTE,
  request: { body: singleImageBody() },
  responses: { 200: jsonResponse(FaceDetectResponseSchema, 'The highest-confidence face, if any'), ...IMAGE_OPERATION_ERRORS },
});

export const faceCompareRoute = apiRoute({
  method: 'post',
  path: '/v1/face/compare',
  operationId: 'compareFaces',
  tags: TAGS,
  summary: 'Compare the faces of two pictures',
  description:
    `confidence is the raw 0-100 similarity of the two faces (0 when either picture has no face); isMatch iff confidence >= threshold (${FACE_MATCH_THRESHOLD}, server-side). ` +
    'The same photo re-encoded, resized or slightly cropped scores above 90; unrelated photos far below. 1 token per call.',
  ...IMAGE_ROUTE,
  request: {
    body: imageRequestBody(
      FaceCompareRequestSchema,
      multipartImageBody([
        { name: 'source', description: 'The reference picture (for example the document portrait).' },
        { name: 'target', description: 'The picture to compare (for example a selfie).' },
      ]),
    ),
  },
  responses: { 200: jsonResponse(FaceCompareResponseSchema, 'Similarity and decision'), ...IMAGE_OPERATION_ERRORS },
});

export const faceEstimateAgeRoute = apiRoute({
  method: 'post',
  path: '/v1/face/estimate-age',
  operationId: 'estimateAge',
  tags: TAGS,
  summary: 'Estimate age and gender from a face',
  description:
    'Deterministic from the picture; estimatedAge is the midpoint of a broad ageRange. Without a face the body is just {"faceDetected": false}. 1 token per call.',
  ...IMAGE_ROUTE,
  request: { body: singleImageBody() },
  responses: { 200: jsonResponse(FaceAgeResponseSchema, 'The estimate, if a face was found'), ...IMAGE_OPERATION_ERRORS },
});

export const createLivenessSessionRoute = apiRoute({
  method: 'post',
  path: '/v1/face/liveness/sessions',
  operationId: 'createFaceLivenessSession',
  tags: TAGS,
  summary: 'Start a face liveness session',
  description:
    'Returns a liveness session id and synthetic temporary credentials for a capture SDK (valid 15 minutes). The body may be {}. ' +
    'The result is IN_PROGRESS for 5 s on the sandbox clock, then SUCCEEDED; magic session_id values force FAILED, a spoof or a capture that never ends (GET /__sandbox/catalog). Not billed.',
  guard: { errorFamily: 'image' },
  request: { body: jsonBody(CreateLivenessSessionRequestSchema) },
  responses: { 200: jsonResponse(LivenessSessionSchema, 'The liveness session') },
});

export const livenessResultRoute = apiRoute({
  method: 'get',
  path: '/v1/face/liveness/sessions/{lid}/result',
  operationId: 'getFaceLivenessResult',
  tags: TAGS,
  summary: 'Result of a face liveness session',
  description: 'passed iff status is SUCCEEDED and confidence >= confidence_threshold (default 70). Sandbox keys get a synthetic result for any id.',
  guard: { errorFamily: 'image' },
  request: { params: LivenessSessionParamsSchema, query: LivenessResultQuerySchema },
  responses: { 200: jsonResponse(LivenessResultSchema, 'The result so far'), 403: extraErrors[403], 404: extraErrors[404] },
});
