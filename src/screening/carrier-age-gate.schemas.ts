/**
 * Carrier age gate: request body and response (facts §6.4; not in api.md, so the shape is the real
 * client's).
 */
import { z } from '@hono/zod-openapi';
import { EmailSchema, nameField, PhoneSchema, SessionIdSchema } from './screening.schemas.ts';

export const CarrierAgeGateRequestSchema = z.lazy(() =>
  z
    .object({
      phone: PhoneSchema.optional(),
      sessionId: SessionIdSchema.optional(),
      email: EmailSchema.optional(),
      firstName: nameField('firstName', 'Jane').optional(),
      lastName: nameField('lastName', 'Doe').optional(),
    })
    .superRefine((body, ctx) => {
      if (body.sessionId === undefined && body.phone === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['phone'],
          message: 'phone or sessionId is required: send an E.164 number such as +447700900011 or the id of a session',
        });
      }
    })
    .openapi('CarrierAgeGateRequest', { anyOf: [{ required: ['phone'] }, { required: ['sessionId'] }] }),
);
export type CarrierAgeGateRequest = z.infer<typeof CarrierAgeGateRequestSchema>;

export const CarrierAgeGateResponseSchema = z.lazy(() =>
  z
    .object({
      outcome: z.enum(['PASS', 'FAIL', 'NO_DATA']),
      ageVerified: z.enum(['VERIFIED', 'NOT_VERIFIED', 'NO_DATA']),
      requiredAge: z.number().int(),
      statusMessage: z.string(),
      checkedAt: z.string(),
      carrierThreshold: z.number().int().optional(),
      correlationId: z.string().optional(),
      sessionId: z.string().optional(),
    })
    .openapi('CarrierAgeGateResponse'),
);
export type CarrierAgeGateResponse = z.infer<typeof CarrierAgeGateResponseSchema>;
