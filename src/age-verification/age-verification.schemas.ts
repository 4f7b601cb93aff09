/**
 * Zod schemas of age verification (real client: ageVerification.create, listParentConnectRequests,
 * retrieveParentConnectRequest, getBoundaries; not in the API spec). The create body is camelCase, every
 * answer snake_case; a Parent Connect request has every key present (null where not known yet).
 */
import { z } from '@hono/zod-openapi';
import { e164Phone, email, expiresInHours, flag, httpsUrl, identifier, mustBe, personName } from '../platform/validation/request-fields.ts';
import { PARENT_CONNECT_EVENTS, PARENT_CONNECT_STATUSES } from './age-verification.machine.ts';

export const AGE_METHODS = ['quiz', 'credit-card', 'parent-connect'] as const;
export type AgeMethod = (typeof AGE_METHODS)[number];
export const RESTRICTION_TYPES = ['toggle', 'number', 'select', 'minutes'] as const;

const BoundaryValueSchema = z.union([z.boolean(), z.number(), z.string()]);

export const PlatformRestrictionSchema = z
  .object({
    key: z
      .string({ error: mustBe('key', 'a string of 1-64 characters') })
      .min(1)
      .max(64),
    label: z
      .string({ error: mustBe('label', 'a string of 1-255 characters') })
      .min(1)
      .max(255),
    type: z.enum(RESTRICTION_TYPES, { error: mustBe('type', `one of ${RESTRICTION_TYPES.join(', ')}`) }),
    category: z.enum(['feature', 'content'], { error: mustBe('category', 'feature or content') }).optional(),
    default: BoundaryValueSchema.optional(),
    required: z.boolean().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    options: z.array(z.string().min(1)).optional(),
  })
  .superRefine((restriction, ctx) => {
    if (restriction.type === 'select' && (restriction.options === undefined || restriction.options.length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: `options is required for a select restriction ("${restriction.key}"): list the choices` });
    }
    if (restriction.min !== undefined && restriction.max !== undefined && restriction.min > restriction.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['min'],
        message: `min must not exceed max (restriction "${restriction.key}": ${restriction.min} > ${restriction.max})`,
      });
    }
  });
export type PlatformRestriction = z.infer<typeof PlatformRestrictionSchema>;

export const CreateAgeVerificationBodySchema = z
  .object({
    email: email('email'),
    firstName: personName('firstName', "the child's first name"),
    lastName: personName('lastName', "the child's last name"),
    phone: e164Phone('phone'),
    method: z.enum(AGE_METHODS, { error: mustBe('method', `one of ${AGE_METHODS.join(', ')}`) }),
    externalId: identifier('externalId', 'your own reference for the user').optional(),
    sendEmailInvite: flag('sendEmailInvite').default(true),
    sendPhoneInvite: flag('sendPhoneInvite').default(true),
    redirectUrl: httpsUrl('redirectUrl').optional(),
    expiresInHours: expiresInHours('expiresInHours').optional(),
    ageBand: z
      .string({ error: mustBe('ageBand', 'a string such as 13-17') })
      .min(1)
      .max(32)
      .optional(),
    platformRestrictions: z
      .array(PlatformRestrictionSchema)
      .max(50)
      .refine((items) => new Set(items.map((item) => item.key)).size === items.length, { message: 'platformRestrictions keys must be unique' })
      .optional(),
    eulaUrl: httpsUrl('eulaUrl').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.method === 'parent-connect') return;
    for (const key of ['ageBand', 'platformRestrictions', 'eulaUrl'] as const) {
      if (body[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} is only for method parent-connect: remove it or use method parent-connect` });
    }
  })
  .openapi('CreateAgeVerificationBody');
export type CreateAgeVerificationBody = z.infer<typeof CreateAgeVerificationBodySchema>;

export const AgeVerificationLinkSchema = z.object({ rel: z.string(), href: z.string(), description: z.string() });

export const CreateAgeVerificationResponseSchema = z
  .object({
    id: z.string(),
    session_url: z.string(),
    method: z.string().openapi({ description: 'The method as the service names it: intel-quiz, credit-card or parent-connect.' }),
    external_id: z.string().optional(),
    expires_at: z.string().nullable().optional(),
    links: z.array(AgeVerificationLinkSchema),
  })
  .openapi('AgeVerification');
export type CreateAgeVerificationResponse = z.infer<typeof CreateAgeVerificationResponseSchema>;

const nullableString = z.string().nullable();

export const ParentConnectRequestSchema = z
  .object({
    id: nullableString,
    child_session_id: nullableString,
    parent_session_id: nullableString,
    status: z.enum(PARENT_CONNECT_STATUSES).nullable(),
    age_band: nullableString,
    contact_method: nullableString,
    platform_restrictions: z.array(PlatformRestrictionSchema),
    boundaries: z.record(z.string(), BoundaryValueSchema).nullable(),
    eula_url: nullableString,
    eula_accepted: z.boolean(),
    child_attestation_id: nullableString,
    parent_attestation_id: nullableString,
    boundaries_revision: z.number().nullable(),
    consent_given_at: nullableString,
    consent_expires_at: nullableString,
    reconsent_due_at: nullableString,
    invite_expires_at: nullableString,
    declined_at: nullableString,
    created_at: nullableString,
    updated_at: nullableString,
  })
  .openapi('ParentConnectRequest');
export type ParentConnectRequest = z.infer<typeof ParentConnectRequestSchema>;

export const ParentConnectListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, description: '1-100, default 20.' }),
  next_token: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'next_token', in: 'query' } }),
  child_session_id: identifier('child_session_id', "the child's age verification session id")
    .optional()
    .openapi({ param: { name: 'child_session_id', in: 'query' } }),
  status: z
    .enum(PARENT_CONNECT_STATUSES)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, description: 'Applied after the page is read: a page can be short, even empty, with a next_token.' }),
});

export const ParentConnectListResponseSchema = z
  .object({ parent_connect_requests: z.array(ParentConnectRequestSchema), next_token: z.string().nullable() })
  .openapi('ParentConnectRequestList');

export const ParentConnectIdParamsSchema = z.object({
  id: identifier('id', 'a parent_connect_id').openapi({ param: { name: 'id', in: 'path' } }),
});

export const BoundariesResponseSchema = z
  .object({
    child_attestation_id: nullableString,
    parent_attestation_id: nullableString,
    parent_connect_id: nullableString,
    age_band: nullableString,
    parental_consent: z.boolean(),
    eula_accepted: z.boolean(),
    boundaries: z.record(z.string(), BoundaryValueSchema),
    boundaries_revision: z.number(),
    boundaries_match_attestation: z.boolean(),
    consent_expires_at: nullableString,
    updated_at: nullableString,
  })
  .openapi('AgeBoundaries');
export type BoundariesResponse = z.infer<typeof BoundariesResponseSchema>;

export const ParentConnectEventBodySchema = z
  .object({
    event: z.enum(PARENT_CONNECT_EVENTS, { error: mustBe('event', `one of ${PARENT_CONNECT_EVENTS.join(', ')}`) }),
    boundaries: z
      .record(z.string(), BoundaryValueSchema)
      .optional()
      .openapi({ description: 'For give_consent and update_boundaries: values by restriction key (defaults fill the rest).' }),
    accept_eula: z.boolean().optional().openapi({ description: 'For give_consent when the request has an eula_url (default true).' }),
  })
  .openapi('ParentConnectEvent');
export type ParentConnectEventBody = z.infer<typeof ParentConnectEventBodySchema>;
