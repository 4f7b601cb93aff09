import { describe, expect, it } from 'vitest';
import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import { AdverseMediaQueuedSchema, AdverseMediaRequestSchema, AdverseMediaResultSchema } from '../../src/screening/adverse-media.schemas.ts';
import { PepSanctionsRequestSchema, PepSanctionsResponseSchema } from '../../src/screening/pep-sanctions.schemas.ts';
import { PhoneOwnershipRequestSchema, PhoneOwnershipResponseSchema } from '../../src/screening/phone-ownership.schemas.ts';
import { PhoneTrustRequestSchema, PhoneTrustResponseSchema } from '../../src/screening/phone-trust.schemas.ts';
import { CarrierAgeGateRequestSchema, CarrierAgeGateResponseSchema } from '../../src/screening/carrier-age-gate.schemas.ts';
import { TitleCheckRequestSchema, TitleCheckResponseSchema } from '../../src/screening/title-check.schemas.ts';

function post(path: string, body: z.ZodType, response: z.ZodType) {
  return createRoute({
    method: 'post',
    path,
    request: { body: { required: true, content: { 'application/json': { schema: body } } } },
    responses: { 200: { description: 'ok', content: { 'application/json': { schema: response } } } },
  });
}

describe('screening schemas in an OpenAPI document', () => {
  it('render as named components with the request fields the spec lists', () => {
    const app = new OpenAPIHono();
    const routes = [
      post('/v1/screening/adverse-media', AdverseMediaRequestSchema, AdverseMediaQueuedSchema),
      post('/v1/screening/pep-sanctions', PepSanctionsRequestSchema, PepSanctionsResponseSchema),
      post('/v1/screening/phone-ownership', PhoneOwnershipRequestSchema, PhoneOwnershipResponseSchema),
      post('/v1/screening/phone-trust', PhoneTrustRequestSchema, PhoneTrustResponseSchema),
      post('/v1/screening/carrier-age-gate', CarrierAgeGateRequestSchema, CarrierAgeGateResponseSchema),
      post('/v1/screening/title-check', TitleCheckRequestSchema, TitleCheckResponseSchema),
      post('/v1/internal/adverse-media-result', AdverseMediaRequestSchema, AdverseMediaResultSchema),
    ];
    for (const route of routes) app.openapi(route, (c) => c.json({} as never, 200));
    const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'test', version: '0.1.0' } });
    const schemas = document.components?.schemas ?? {};
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'AdverseMediaRequest',
        'AdverseMediaResult',
        'PepSanctionsResponse',
        'PhoneOwnershipRequest',
        'PhoneTrustResponse',
        'CarrierAgeGateResponse',
        'TitleCheckResponse',
        'TitleSubjectProperty',
      ]),
    );
    const adverse = schemas.AdverseMediaRequest as { required?: string[]; properties?: Record<string, { format?: string }> };
    expect(adverse.required?.sort()).toEqual(['dateOfBirth', 'firstName', 'lastName']);
    expect(adverse.properties?.dateOfBirth?.format).toBe('date');
    const exposures = schemas.AdverseMediaExposuresByCategory as { required?: string[] };
    expect(exposures.required).toHaveLength(9);
  });
});
