import { z } from '@hono/zod-openapi';
import { clientRoute } from '../platform/http/client-route.ts';
import { controlRoute, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  BoundariesResponseSchema,
  CreateAgeVerificationBodySchema,
  CreateAgeVerificationResponseSchema,
  ParentConnectEventBodySchema,
  ParentConnectIdParamsSchema,
  ParentConnectListQuerySchema,
  ParentConnectListResponseSchema,
  ParentConnectRequestSchema,
} from './age-verification.schemas.ts';

const TAGS = ['Age verification'];

export const createAgeVerificationRoute = clientRoute('ageVerification.create', {
  method: 'post',
  path: '/v1/age-verification',
  operationId: 'createAgeVerification',
  tags: TAGS,
  summary: 'Verify a user’s age: quiz, credit card or Parent Connect',
  description:
    'A hosted session of type age-verification (read it with GET /v1/sessions/{id}); method parent-connect also opens a Parent Connect request (the parent_connect link). One token; 402 when the balance is empty.',
  request: { body: jsonBody(CreateAgeVerificationBodySchema) },
  responses: { 200: jsonResponse(CreateAgeVerificationResponseSchema, 'The age verification session'), 402: extraErrors[402] },
});

export const listParentConnectRoute = clientRoute('ageVerification.listParentConnectRequests', {
  method: 'get',
  path: '/v1/age-verification/parent-connect',
  operationId: 'listParentConnectRequests',
  tags: TAGS,
  summary: 'List Parent Connect requests',
  description:
    'Newest first, signed next_token; child_session_id narrows the query, status filters each page after it is read (pages can be short or empty with a next_token). A sandbox key reads the test identifiers.',
  request: { query: ParentConnectListQuerySchema },
  responses: { 200: jsonResponse(ParentConnectListResponseSchema, 'One page') },
});

export const getParentConnectRoute = clientRoute('ageVerification.retrieveParentConnectRequest', {
  method: 'get',
  path: '/v1/age-verification/parent-connect/{id}',
  operationId: 'getParentConnectRequest',
  tags: TAGS,
  summary: 'Retrieve a Parent Connect request',
  request: { params: ParentConnectIdParamsSchema },
  responses: { 200: jsonResponse(ParentConnectRequestSchema, 'The request'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const getBoundariesRoute = clientRoute('ageVerification.getBoundaries', {
  method: 'get',
  path: '/v1/age-verification/boundaries/{id}',
  operationId: 'getAgeBoundaries',
  tags: TAGS,
  summary: 'The boundaries a parent set, by the child’s attestation id',
  request: { params: ParentConnectIdParamsSchema },
  responses: { 200: jsonResponse(BoundariesResponseSchema, 'The boundaries'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const parentConnectEventRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/age-verification/parent-connect/{id}/events',
  operationId: 'sandboxParentConnectEvent',
  summary: 'Drive a Parent Connect request as the parent would (invite, verify_parent, give_consent, update_boundaries, decline, expire)',
  request: { params: ParentConnectIdParamsSchema, body: jsonBody(ParentConnectEventBodySchema) },
  responses: {
    200: jsonResponse(ParentConnectRequestSchema, 'The request after the event'),
    404: jsonResponse(z.object({ error: z.string() }), 'Unknown request'),
    409: jsonResponse(z.object({ error: z.string() }), 'The event is not possible in the current status'),
  },
});

export const AGE_VERIFICATION_ROUTES = [createAgeVerificationRoute, listParentConnectRoute, getParentConnectRoute, getBoundariesRoute] as const;
