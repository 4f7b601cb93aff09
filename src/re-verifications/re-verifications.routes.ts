import { clientRoute } from '../platform/http/client-route.ts';
import { jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  CompleteLivenessResponseSchema,
  CreateReVerificationBodySchema,
  CreateReVerificationResponseSchema,
  EmptyBodySchema,
  ReVerificationErrorSchema,
  ReVerificationParamsSchema,
  StartLivenessResponseSchema,
  UploadUrlBodySchema,
  UploadUrlResponseSchema,
} from './re-verifications.schemas.ts';

const TAGS = ['Re-verifications'];
/** The client sends `{}`; a request without a body is accepted too. */
const optionalEmptyBody = { required: false, content: { 'application/json': { schema: EmptyBodySchema } } };
const CODES =
  'Error bodies are {error: <code>, message: <sentence>, code: <code>}: not_found (404), already_completed / expired / liveness_not_started / liveness_upload_incomplete (409), insufficient_balance (402).';
const lifecycleErrors = <S extends 402 | 404 | 409 | 422>(...statuses: S[]) =>
  Object.fromEntries(
    statuses.map((status) => [status, jsonResponse(ReVerificationErrorSchema, 'The error code in `error` and `code`, the sentence in `message`')]),
  ) as Record<S, ReturnType<typeof jsonResponse<typeof ReVerificationErrorSchema>>>;

export const createReVerificationRoute = clientRoute('reVerifications.create', {
  method: 'post',
  path: '/v1/re-verifications',
  operationId: 'createReVerification',
  tags: TAGS,
  summary: 'Start re-verifying a returning user against a workflow',
  description:
    'The workflow needs a face-liveness step. 404 not_found for an unknown workflow, 422 reverify_disabled for one without face liveness (or with reverify_enabled false). Expires after 30 minutes.',
  request: { body: jsonBody(CreateReVerificationBodySchema) },
  responses: { 201: jsonResponse(CreateReVerificationResponseSchema, 'The re-verification, PENDING'), ...lifecycleErrors(404, 422) },
});

export const startLivenessRoute = clientRoute('reVerifications.startLiveness', {
  method: 'post',
  path: '/v1/re-verifications/{id}/liveness/start',
  operationId: 'startReVerificationLiveness',
  tags: TAGS,
  summary: 'Start a liveness attempt: the capture script',
  description: `Each call mints a new attempt with its own timed script (camelCase inside: colour flashes for the light challenge, then a move closer) and drops the previous attempt's upload keys. ${CODES}`,
  request: { params: ReVerificationParamsSchema, body: optionalEmptyBody },
  responses: { 200: jsonResponse(StartLivenessResponseSchema, 'The attempt and its script'), ...lifecycleErrors(402, 404, 409) },
});

export const livenessUploadUrlRoute = clientRoute('reVerifications.createLivenessUploadUrl', {
  method: 'post',
  path: '/v1/re-verifications/{id}/liveness/upload-url',
  operationId: 'createReVerificationLivenessUploadUrl',
  tags: TAGS,
  summary: 'Upload URLs for the attempt’s frames, timeline and optional clip',
  description: `Frames as image/jpeg, the timeline as application/json, the clip as clip_mime_type; valid 15 minutes. ${CODES}`,
  request: { params: ReVerificationParamsSchema, body: jsonBody(UploadUrlBodySchema) },
  responses: { 200: jsonResponse(UploadUrlResponseSchema, 'URLs and keys'), ...lifecycleErrors(404, 409) },
});

export const completeLivenessRoute = clientRoute('reVerifications.completeLiveness', {
  method: 'post',
  path: '/v1/re-verifications/{id}/liveness/complete',
  operationId: 'completeReVerificationLiveness',
  tags: TAGS,
  summary: 'Decide the attempt: verified, retry, retry_liveness or failed',
  description: `From the uploaded frames (a face in each, the same face throughout, more than one picture), the timing on the sandbox clock and the workflow’s threshold and attempt limit. One token. retry_liveness (a capture problem) does not spend an attempt. Once decided, a repeated complete replays the decision (not charged). ${CODES}`,
  request: { params: ReVerificationParamsSchema, body: optionalEmptyBody },
  responses: { 200: jsonResponse(CompleteLivenessResponseSchema, 'The decision'), ...lifecycleErrors(402, 404, 409) },
});

export const RE_VERIFICATION_ROUTES = [createReVerificationRoute, startLivenessRoute, livenessUploadUrlRoute, completeLivenessRoute] as const;
