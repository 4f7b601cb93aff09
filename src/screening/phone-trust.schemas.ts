/**
 * Phone trust (SIM swap and call forwarding): request body and response (spec POST
 * /v1/screening/phone-trust; facts §6.4).
 */
import { z } from '@hono/zod-openapi';
import { EmailSchema, nameField, PhoneSchema, SessionIdSchema } from './screening.schemas.ts';

export const SENSITIVITIES = ['low', 'medium', 'high'] as const;
export const SensitivitySchema = z
  .enum(SENSITIVITIES, { error: 'sensitivity must be one of low, medium, high (default medium)' })
  .openapi({ example: 'medium' });
export type Sensitivity = z.infer<typeof SensitivitySchema>;

export const SIM_SWAP_RISKS = ['HIGH_RISK', 'MEDIUM_RISK', 'LOW_RISK', 'NO_DATA'] as const;
export const SimSwapRiskSchema = z.enum(SIM_SWAP_RISKS);
export type SimSwapRisk = z.infer<typeof SimSwapRiskSchema>;

export const FORWARDING_RISKS = ['HIGH_RISK', 'NO_RISK', 'NO_DATA'] as const;
export const ForwardingRiskSchema = z.enum(FORWARDING_RISKS);
export type ForwardingRisk = z.infer<typeof ForwardingRiskSchema>;

export const TRIP_REASONS = ['SIM_SWAP_HIGH_RISK', 'SIM_SWAP_MEDIUM_RISK', 'CALL_FORWARDING_ACTIVE'] as const;
export const TripReasonSchema = z.enum(TRIP_REASONS);
export type TripReason = z.infer<typeof TripReasonSchema>;

export const PhoneTrustRequestSchema = z.lazy(() =>
  z
    .object({
      phone: PhoneSchema.optional(),
      sessionId: SessionIdSchema.optional(),
      sensitivity: SensitivitySchema.default('medium'),
      email: EmailSchema.optional(),
      firstName: nameField('firstName', 'Jane').optional(),
      lastName: nameField('lastName', 'Doe').optional(),
    })
    .superRefine((body, ctx) => {
      if (body.sessionId === undefined && body.phone === undefined) {
        ctx.addIssue({ code: 'custom', path: ['phone'], message: 'phone is required unless sessionId is given: send an E.164 number such as +447700900003' });
      }
    })
    .openapi('PhoneTrustRequest', { anyOf: [{ required: ['phone'] }, { required: ['sessionId'] }] }),
);
export type PhoneTrustRequest = z.infer<typeof PhoneTrustRequestSchema>;

export const PhoneTrustResponseSchema = z.lazy(() =>
  z
    .object({
      tripped: z.boolean(),
      tripReasons: z.array(TripReasonSchema),
      simSwappedRisk: SimSwapRiskSchema,
      simChangedDate: z.string().optional().openapi({ example: '2026-01-01T00:00:00.000Z' }),
      forwardingRisk: ForwardingRiskSchema,
      sensitivity: SensitivitySchema,
      statusMessage: z.string(),
      checkedAt: z.string(),
      correlationId: z.string().optional(),
      sessionId: z.string().optional(),
    })
    .openapi('PhoneTrustResponse'),
);
export type PhoneTrustResponse = z.infer<typeof PhoneTrustResponseSchema>;
