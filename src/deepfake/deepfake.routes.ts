import { clientRoute } from '../platform/http/client-route.ts';
import { extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  AnalyzeBodySchema,
  AnalyzeResponseSchema,
  ChallengeParamsSchema,
  ChallengeResponseSchema,
  UploadUrlsBodySchema,
  UploadUrlsResponseSchema,
} from './deepfake.schemas.ts';

const TAGS = ['Deepfake detection'];

export const getChallengeRoute = clientRoute('deepfake.getChallenge', {
  method: 'get',
  path: '/v1/deepfake/challenge/{sessionId}',
  operationId: 'getDeepfakeChallenge',
  tags: TAGS,
  summary: 'The challenge words of a session',
  description:
    'Three words the applicant says on the speak-prompt frame; the same session always gets the same words. 403 for a session of another organization.',
  request: { params: ChallengeParamsSchema },
  responses: { 200: jsonResponse(ChallengeResponseSchema, 'The challenge'), 403: extraErrors[403] },
});

export const createUploadUrlsRoute = clientRoute('deepfake.createUploadUrls', {
  method: 'post',
  path: '/v1/deepfake/upload-urls',
  operationId: 'createDeepfakeUploadUrls',
  tags: TAGS,
  summary: 'Upload URLs for the six frames of a scan (and its audio clip)',
  description: 'Presigned PUT URLs on the sandbox, valid 15 minutes: frame_0 ... frame_5 as image/jpeg, audio_clip as audio/webm when includeAudio.',
  request: { body: jsonBody(UploadUrlsBodySchema) },
  responses: { 200: jsonResponse(UploadUrlsResponseSchema, 'URLs and storage keys by frame name') },
});

export const analyzeRoute = clientRoute('deepfake.analyze', {
  method: 'post',
  path: '/v1/deepfake/analyze',
  operationId: 'analyzeDeepfake',
  tags: TAGS,
  summary: 'Judge a scan: live person, deepfake or inconclusive',
  description:
    'Derived from the uploaded frames (face presence, same face in every frame, more than one picture) and the frame metadata (pose fits each action, timestamps within the scan), plus the challenge words. challengeWord "sandbox live" / "sandbox deepfake" / "sandbox inconclusive" forces the verdict. One token; 402 before any decoding when the balance is empty.',
  guard: { errorFamily: 'image' },
  request: { body: jsonBody(AnalyzeBodySchema) },
  responses: { 200: jsonResponse(AnalyzeResponseSchema, 'The verdict'), 402: extraErrors[402] },
});

export const DEEPFAKE_ROUTES = [getChallengeRoute, createUploadUrlsRoute, analyzeRoute] as const;
