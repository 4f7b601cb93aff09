import { clientRoute } from '../platform/catalog/client-operations.ts';
import { extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  CompleteLivenessResponseSchema,
  CreateReVerificationBodySchema,
  CreateReVerificationResponseSchema,
  EmptyBodySchema,
  ReVerificationParamsSchema,
  StartLivenessResponseSchema,
  UploadUrlBodySchema,
  UploadUrlResponseSchema,
} from './re-verifications.schemas.ts';

const TAGS = ['Re-verifications'];
/** The client sends `{}`; a request without a body is accepted too. */
const optionalEmptyBody = { required: false, content: { 'application/json': { schema: EmptyBodySchema } } };
const CODES =
  'Error bodies carry `code`: not_found (404), already_completed / expired / liveness_not_started / liveness_upload_incomplete (409), insufficient_balance (402).';

export const createReVerificationRoute = clientRoute('reVerifications.create', {
  method: 'post',
  path: '/v1/re-verifications',
  operationId: 'createReVerification',
  tags: TAGS,
  summary: 'Start re-verifying a returning user against a workflow',
  description:
    'The workflow needs a face-liveness step. 404 `code: not_found` for an unknown workflow, 403 `code: reverify_disabled` for one without face liveness (or with reverify_enabled false). Expires after 30 minutes.',
  request: { body: jsonBody(CreateReVerificationBodySchema) },
  responses: { 201: jsonResponse(CreateReVerificationResponseSchema, 'The re-verification, PENDING'), 404: extraErrors[404] },
});

export const startLivenessRoute = clientRoute('reVerifications.startLiveness', {
  method: 'post',
  path: '/v1/re-verifications/{id}/liveness/start',
  operationId: 'startReVerificationLiveness',
  tags: TAGS,
  summary: 'Start a liveness attempt: the capture script',
  description: `A timed script (camelCase inside): colour flashes for the light challenge, then a move closer. ${CODES}`,
  request: { params: ReVerificationParamsSchema, body: optionalEmptyBody },
  responses: {
    200: jsonResponse(StartLivenessResponseSchema, 'The attempt and its script'),
    402: extraErrors[402],
    404: extraErrors[404],
    409: extraErrors[409],
  },
});

export const livenessUploadUrlRoute = clientRoute('reVerifications.createLivenessUploadUrl', {
  method: 'post',
  path: '/v1/re-verifications/{id}/liveness/upload-url',
  operationId: 'createReVerificationLivenessUploadUrl',
  tags: TAGS,
  summary: 'Upload URLs for the attempt’s frames, timeline and optional clip',
  description: `Frames as image/jpeg, the timeline as application/json, the clip as clip_mime_type; valid 15 minutes. ${CODES}`,
  request: { params: ReVerificationParamsSchema, body: jsonBody(UploadUrlBodySchema) },
  responses: { 200: jsonResponse(UploadUrlResponseSchema, 'URLs and keys'), 404: extraErrors[404], 409: extraErrors[409] },
});

export const completeLivenessRoute = clientRoute('reVerifications.completeLiveness', {
  method: 'post',
  path: '/v1/re-verifications/{id}/liveness/complete',
  operationId: 'completeReVerificationLiveness',
  tags: TAGS,
  summary: 'Decide the attempt: verified, retry, retry_liveness or failed',
  description: `From the uploaded frames (a face in each, the same face throughout, more than one picture), the timing on the sandbox clock and the workflow’s threshold and attempt limit. One token. ${CODES}`,
  request: { params: ReVerificationParamsSchema, body: optionalEmptyBody },
  responses: { 200: jsonResponse(CompleteLivenessResponseSchema, 'The decision'), 402: extraErrors[402], 404: extraErrors[404], 409: extraErrors[409] },
});

export const RE_VERIFICATION_ROUTES = [createReVerificationRoute, startLivenessRoute, livenessUploadUrlRoute, completeLivenessRoute] as const;
