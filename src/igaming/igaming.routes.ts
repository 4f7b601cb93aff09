import type { z } from '@hono/zod-openapi';
import { clientRoute } from '../platform/http/client-route.ts';
import { apiRoute, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  AddIdentityBodySchema,
  AddIdentityResponseSchema,
  AntiCheatBodySchema,
  AntiCheatResponseSchema,
  DocumentNumberParamSchema,
  ExcludeApplicantBodySchema,
  ExcludeApplicantResponseSchema,
  ExcludeFaceBodySchema,
  ExcludeFaceResponseSchema,
  InjectionBodySchema,
  InjectionResponseSchema,
  IpCheckBodySchema,
  IpCheckResponseSchema,
  ListRegistryQuerySchema,
  PurgeEnrollmentResponseSchema,
  RegistryListResponseSchema,
  RemoveFaceResponseSchema,
  RemoveIdentityResponseSchema,
  SessionIdParamSchema,
} from './igaming.schemas.ts';

const TAGS = ['iGaming'];

const body = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });

export const excludeApplicantRoute = apiRoute({
  method: 'post',
  path: '/v1/igaming/self-exclusion/applicant',
  operationId: 'excludeApplicant',
  tags: TAGS,
  summary: "Self-exclude a session's applicant: document number and face",
  description: "Adds the document number the session's ID analysis extracted and flags the session's enrolled face (or the enrolment it matched).",
  request: body(ExcludeApplicantBodySchema),
  responses: { 200: jsonResponse(ExcludeApplicantResponseSchema, 'What was excluded'), 404: extraErrors[404] },
});

export const excludeIdentityRoute = apiRoute({
  method: 'post',
  path: '/v1/igaming/self-exclusion/identity',
  operationId: 'excludeIdentity',
  tags: TAGS,
  summary: 'Add document numbers to the self-exclusion registry',
  request: body(AddIdentityBodySchema),
  responses: { 200: jsonResponse(AddIdentityResponseSchema, 'One entry per requested number, in request order') },
});

export const removeIdentityRoute = apiRoute({
  method: 'delete',
  path: '/v1/igaming/self-exclusion/identity/{document_number}',
  operationId: 'removeExcludedIdentity',
  tags: TAGS,
  summary: 'Remove a document number from the registry (never 404)',
  request: { params: DocumentNumberParamSchema },
  responses: { 200: jsonResponse(RemoveIdentityResponseSchema, 'Whether it was removed, and whether a linked face exclusion was cleared') },
});

export const excludeFaceRoute = apiRoute({
  method: 'post',
  path: '/v1/igaming/self-exclusion/face',
  operationId: 'excludeFace',
  tags: TAGS,
  summary: "Self-exclude a session's enrolled face",
  description:
    'Spec: referenced as "Exclude face", contract not shown; shape from the real client. excluded false with a reason when the session has no enrolled face.',
  request: body(ExcludeFaceBodySchema),
  responses: { 200: jsonResponse(ExcludeFaceResponseSchema, 'Whether a face was excluded') },
});

export const removeFaceRoute = apiRoute({
  method: 'delete',
  path: '/v1/igaming/self-exclusion/face/{session_id}',
  operationId: 'removeExcludedFace',
  tags: TAGS,
  summary: 'Clear the face exclusion a session resolves to (never 404)',
  request: { params: SessionIdParamSchema },
  responses: { 200: jsonResponse(RemoveFaceResponseSchema, 'Whether an exclusion was cleared') },
});

export const listRegistryRoute = apiRoute({
  method: 'get',
  path: '/v1/igaming/self-exclusion',
  operationId: 'listSelfExclusionRegistry',
  tags: TAGS,
  summary: 'List the self-exclusion registry',
  description:
    'Identity entries in the order they were added, then face entries; a face excluded together with a listed document number is shown once, as that identity entry.',
  request: { query: ListRegistryQuerySchema },
  responses: { 200: jsonResponse(RegistryListResponseSchema, 'Entries (at most limit) and whether more exist') },
});

export const purgeEnrollmentRoute = apiRoute({
  method: 'delete',
  path: '/v1/igaming/anti-cheat/{session_id}',
  operationId: 'purgeAntiCheatEnrollment',
  tags: TAGS,
  summary: 'Delete the enrolled face data of a session (idempotent)',
  request: { params: SessionIdParamSchema },
  responses: { 200: jsonResponse(PurgeEnrollmentResponseSchema, 'Whether a face of the session was deleted') },
});

export const injectionRoute = clientRoute('igaming.analyzeInjection', {
  method: 'post',
  path: '/v1/igaming/injection',
  operationId: 'analyzeInjection',
  tags: TAGS,
  summary: 'Camera-injection analysis from capture signals',
  request: body(InjectionBodySchema),
  responses: { 200: jsonResponse(InjectionResponseSchema, 'HIT, CLEAR or UNAVAILABLE') },
});

export const vpnDetectionRoute = clientRoute('igaming.detectVpn', {
  method: 'post',
  path: '/v1/igaming/vpn-detection',
  operationId: 'detectVpn',
  tags: TAGS,
  summary: 'VPN and proxy detection of an IP address',
  description:
    'Magic ranges force each verdict (GET /__sandbox/catalog). A session whose workflow does not run vpn-detection answers UNAVAILABLE (allow) with evidence.reason step-not-configured.',
  request: body(IpCheckBodySchema),
  responses: { 200: jsonResponse(IpCheckResponseSchema, 'HIT, CLEAR or UNAVAILABLE with evidence') },
});

export const ipJurisdictionRoute = clientRoute('igaming.checkIpJurisdiction', {
  method: 'post',
  path: '/v1/igaming/ip-jurisdiction',
  operationId: 'checkIpJurisdiction',
  tags: TAGS,
  summary: 'Jurisdiction check of an IP address',
  description:
    'Magic ranges force each verdict (GET /__sandbox/catalog). A session whose workflow does not run ip-jurisdiction answers UNAVAILABLE (allow) with evidence.reason step-not-configured.',
  request: body(IpCheckBodySchema),
  responses: { 200: jsonResponse(IpCheckResponseSchema, 'HIT, CLEAR or UNAVAILABLE with evidence') },
});

export const antiCheatRoute = clientRoute('igaming.analyzeAntiCheat', {
  method: 'post',
  path: '/v1/igaming/anti-cheat',
  operationId: 'analyzeAntiCheat',
  tags: TAGS,
  summary: 'Enrol a selfie in the face registry and report duplicates and self-exclusions',
  description:
    'The same face registry and similarity as the self-exclusion routes and POST /v1/face/compare. Fails soft: an image that cannot be used, a terminal session, a workflow without the anti-cheat check or an internal fault answer 200 UNAVAILABLE (allow); the one hard failure is 404 Session not found (unknown, or another organization’s).',
  request: body(AntiCheatBodySchema),
  responses: { 200: jsonResponse(AntiCheatResponseSchema, 'DUPLICATE, UNIQUE, UNAVAILABLE or SELF_EXCLUSION'), 404: extraErrors[404] },
});

/** The operations of this area that only the real client describes (catalog `clientOperations`). */
export const IGAMING_CLIENT_ROUTES = [injectionRoute, vpnDetectionRoute, ipJurisdictionRoute, antiCheatRoute];
