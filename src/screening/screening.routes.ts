import { z } from '@hono/zod-openapi';
import { apiRoute, ErrorSchema, extraErrors, jsonBody } from '../platform/http/routing.ts';
import { AdverseMediaQueuedSchema, AdverseMediaRequestSchema } from './adverse-media.schemas.ts';
import { CarrierAgeGateRequestSchema, CarrierAgeGateResponseSchema } from './carrier-age-gate.schemas.ts';
import { PepSanctionsRequestSchema, PepSanctionsResponseSchema } from './pep-sanctions.schemas.ts';
import { PhoneOwnershipRequestSchema, PhoneOwnershipResponseSchema } from './phone-ownership.schemas.ts';
import { PhoneTrustRequestSchema, PhoneTrustResponseSchema } from './phone-trust.schemas.ts';
import { TitleCheckRequestSchema, TitleCheckResponseSchema } from './title-check.schemas.ts';

const TAGS = ['Screening'];

const requestBody = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });
const ok = <T extends z.ZodType>(description: string, schema: T) => ({ description, content: { 'application/json': { schema } } });

export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1, 'idempotency-key must not be empty: send a unique string per request, e.g. a UUID')
    .max(255, 'idempotency-key is too long: send at most 255 characters')
    .optional()
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      description: 'A replay with the same key and body within 24 h returns the original job (200); the same key with another body is 409.',
      example: '8e0f7a58-3d9b-4c51-a5b4-2f6c1d7e9a03',
    }),
});

export const adverseMediaRoute = apiRoute({
  method: 'post',
  path: '/v1/screening/adverse-media',
  operationId: 'screenAdverseMedia',
  tags: TAGS,
  summary: 'Queue an adverse media screening (asynchronous)',
  description: 'Poll GET /v1/async-jobs/{jobId} for the result. Magic names force each risk level and a failed job (GET /__sandbox/catalog).',
  request: { headers: IdempotencyHeadersSchema, ...requestBody(AdverseMediaRequestSchema) },
  responses: {
    202: ok('A new job was queued', AdverseMediaQueuedSchema),
    200: ok('The job created earlier with this Idempotency-Key', AdverseMediaQueuedSchema),
    409: { description: 'The Idempotency-Key was already used with a different body.', content: { 'application/json': { schema: ErrorSchema } } },
  },
});

export const pepSanctionsRoute = apiRoute({
  method: 'post',
  path: '/v1/screening/pep-sanctions',
  operationId: 'screenPepSanctions',
  tags: TAGS,
  summary: 'Screen a person against PEP and sanctions lists',
  request: requestBody(PepSanctionsRequestSchema),
  responses: { 200: ok('Matches grouped by list kind', PepSanctionsResponseSchema) },
});

export const titleCheckRoute = apiRoute({
  method: 'post',
  path: '/v1/screening/title-check',
  operationId: 'checkTitle',
  tags: TAGS,
  summary: 'Property title record of a US address',
  description: 'Synchronous; the result is one of four variants discriminated by status (unsupported_region is a result, not an error).',
  request: requestBody(TitleCheckRequestSchema),
  responses: { 200: ok('The title record or why there is none', TitleCheckResponseSchema), 402: extraErrors[402] },
});

const phoneErrors = { 402: extraErrors[402], 404: extraErrors[404], 503: extraErrors[503] };

export const phoneOwnershipRoute = apiRoute({
  method: 'post',
  path: '/v1/screening/phone-ownership',
  operationId: 'checkPhoneOwnership',
  tags: TAGS,
  summary: 'How well a name matches the carrier subscriber of a phone number',
  description: 'With sessionId, phone and names default to the applicant and the result is written to analysis_data.phone_checks.ownership.',
  request: requestBody(PhoneOwnershipRequestSchema),
  responses: { 200: ok('Name, address and date-of-birth scores and the outcome', PhoneOwnershipResponseSchema), ...phoneErrors },
});

export const phoneTrustRoute = apiRoute({
  method: 'post',
  path: '/v1/screening/phone-trust',
  operationId: 'checkPhoneTrust',
  tags: TAGS,
  summary: 'SIM swap and call forwarding signals of a phone number',
  description: 'With sessionId, the phone defaults to the applicant’s and the result is written to analysis_data.phone_checks.trust.',
  request: requestBody(PhoneTrustRequestSchema),
  responses: { 200: ok('The signals and whether they trip at the sensitivity', PhoneTrustResponseSchema), ...phoneErrors },
});

export const carrierAgeGateRoute = apiRoute({
  method: 'post',
  path: '/v1/screening/carrier-age-gate',
  operationId: 'checkCarrierAgeGate',
  tags: TAGS,
  summary: 'Whether the carrier subscriber of a phone number is of age',
  description: 'With sessionId, the phone defaults to the applicant’s and the result is written to analysis_data.phone_checks.carrier_age_gate.',
  request: requestBody(CarrierAgeGateRequestSchema),
  responses: { 200: ok('The age check outcome', CarrierAgeGateResponseSchema), ...phoneErrors },
});
