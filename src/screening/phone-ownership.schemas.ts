/**
 * Phone ownership match: request body and response (spec POST /v1/screening/phone-ownership; facts §6.4).
 */
import { z } from '@hono/zod-openapi';
import { dateField, EmailSchema, nameField, PhoneSchema, SessionIdSchema } from './screening.schemas.ts';

export const STRICTNESS_LEVELS = ['relaxed', 'medium', 'strict'] as const;
export const StrictnessSchema = z
  .enum(STRICTNESS_LEVELS, { error: 'strictness must be one of relaxed, medium, strict (default medium)' })
  .openapi({ example: 'medium' });
export type Strictness = z.infer<typeof StrictnessSchema>;

export const PhoneOwnershipRequestSchema = z.lazy(() =>
  z
    .object({
      phone: PhoneSchema.optional(),
      firstName: nameField('firstName', 'Jane').optional(),
      lastName: nameField('lastName', 'Doe').optional(),
      sessionId: SessionIdSchema.optional(),
      address: z
        .string({ error: 'address must be a string of 1-500 characters' })
        .min(1, 'address must not be empty: send 1-500 characters or leave it out')
        .max(500, 'address is too long: send at most 500 characters')
        .optional()
        .openapi({ example: '10 Example Road, London, SW1A 1AA' }),
      dateOfBirth: dateField('dateOfBirth', '1980-04-23').optional(),
      strictness: StrictnessSchema.default('medium'),
      email: EmailSchema.optional(),
    })
    .superRefine((body, ctx) => {
      // With a sessionId the route fills phone and names from the applicant and reports what is missing.
      if (body.sessionId !== undefined) return;
      if (body.phone === undefined) {
        ctx.addIssue({ code: 'custom', path: ['phone'], message: 'phone is required unless sessionId is given: send an E.164 number such as +447700900001' });
      }
      if (body.firstName === undefined && body.lastName === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['firstName'],
          message: 'firstName or lastName is required unless sessionId is given: send the name to match against the subscriber',
        });
      }
    })
    .openapi('PhoneOwnershipRequest', {
      anyOf: [{ required: ['sessionId'] }, { required: ['phone'], anyOf: [{ required: ['firstName'] }, { required: ['lastName'] }] }],
    }),
);
export type PhoneOwnershipRequest = z.infer<typeof PhoneOwnershipRequestSchema>;

const ScoreSchema = z.lazy(() => z.number().int().min(-1).max(100));

export const PhoneOwnershipResponseSchema = z.lazy(() =>
  z
    .object({
      outcome: z.enum(['MATCH', 'NO_MATCH', 'NO_DATA']),
      nameScore: ScoreSchema.optional().openapi({ description: '-1 no data, 0 held but no match, 1-99 partial, 100 exact' }),
      firstNameScore: ScoreSchema.optional(),
      lastNameScore: ScoreSchema.optional(),
      dobScore: ScoreSchema.optional(),
      addressScore: ScoreSchema.optional(),
      strictness: StrictnessSchema,
      threshold: z.number().int(),
      statusMessage: z.string(),
      checkedAt: z.string().openapi({ example: '2026-01-01T00:00:00.000Z' }),
      correlationId: z.string().optional(),
      sessionId: z.string().optional(),
    })
    .openapi('PhoneOwnershipResponse'),
);
export type PhoneOwnershipResponse = z.infer<typeof PhoneOwnershipResponseSchema>;
