/**
 * Zod schemas of credit terms (real client: creditTerms.create, list, retrieve, listByExternalId; not in the
 * API spec). Records have the bank-statement record's shape (camelCase, capital `Config`), with type
 * `credit-terms`; lists answer `{ creditTerms, nextToken }`.
 */
import { z } from '@hono/zod-openapi';
import { email, flag, identifier, mustBe, personName } from '../platform/validation/request-fields.ts';
import { CREDIT_TERMS_EVENTS, CREDIT_TERMS_STATUSES } from './credit-terms.machine.ts';

export const CREDIT_PERIODS = ['30', '60', '90'] as const;

export const CreateCreditTermsBodySchema = z
  .object({
    firstName: personName('firstName', "the business contact's first name"),
    lastName: personName('lastName', "the business contact's last name"),
    businessName: identifier('businessName', "the business's legal name"),
    businessEmail: email('businessEmail'),
    businessAddress: z
      .string({ error: mustBe('businessAddress', "the business's address, 1-500 characters") })
      .trim()
      .min(1, { error: 'businessAddress must not be empty: send the business address, 1-500 characters' })
      .max(500, { error: mustBe('businessAddress', 'at most 500 characters long') }),
    requestedCreditAmount: z
      .number({ error: mustBe('requestedCreditAmount', 'a number of at least 0 (the credit asked for)') })
      .min(0, { error: mustBe('requestedCreditAmount', 'at least 0') }),
    requestedCreditPeriod: z.enum(CREDIT_PERIODS, { error: mustBe('requestedCreditPeriod', 'one of the strings "30", "60", "90" (days)') }).default('30'),
    externalId: identifier('externalId', 'your own reference for the business').optional(),
    sendEmailInvite: flag('sendEmailInvite').default(true),
  })
  .openapi('CreateCreditTermsBody');
export type CreateCreditTermsBody = z.infer<typeof CreateCreditTermsBodySchema>;

export const CreditTermsLinkSchema = z.object({ rel: z.enum(['admin_console', 'credit_terms_details']), href: z.string(), description: z.string() });

export const CreateCreditTermsResponseSchema = z
  .object({
    creditTermsId: z.string(),
    creditTermsUrl: z.string().openapi({ description: 'The business’s hosted page, where it starts and submits the application.' }),
    externalId: z.string().optional(),
    links: z.array(CreditTermsLinkSchema),
  })
  .openapi('CreateCreditTermsResponse');
export type CreateCreditTermsResponse = z.infer<typeof CreateCreditTermsResponseSchema>;

export const CreditTermsConfigSchema = z.object({
  period: z.enum(CREDIT_PERIODS),
  requestedCreditAmount: z.number(),
  businessName: z.string(),
  businessEmail: z.string(),
  businessAddress: z.string(),
});

export const CreditTermsRecordSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    userId: z.string(),
    senderUserId: z.string(),
    externalId: z.string().optional(),
    status: z.enum(CREDIT_TERMS_STATUSES),
    type: z.literal('credit-terms'),
    Config: CreditTermsConfigSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('CreditTermsRecord');
export type CreditTermsRecord = z.infer<typeof CreditTermsRecordSchema>;

export const CreditTermsListResponseSchema = z
  .object({ creditTerms: z.array(CreditTermsRecordSchema), nextToken: z.string().nullable() })
  .openapi('CreditTermsListResponse');

export const CreditTermsListQuerySchema = z.object({
  nextToken: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'nextToken', in: 'query' }, description: 'The nextToken of the previous page, as returned.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, description: 'Sandbox extension (the real client sends none): records per page, 1-100, default 10.' }),
});

export const CreditTermsIdParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(255)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
export const CreditTermsExternalIdParamsSchema = z.object({
  externalId: z
    .string()
    .min(1)
    .max(255, 'must be at most 255 characters')
    .openapi({ param: { name: 'externalId', in: 'path' } }),
});

/** What the store keeps: the wire record plus the applicant's name and invitation flag. */
export interface StoredCreditTerms extends CreditTermsRecord {
  contact: { firstName: string; lastName: string };
  sendEmailInvite: boolean;
}

/** The form the hosted page posts. */
export const CreditTermsPageFormSchema = z.object({ action: z.enum(CREDIT_TERMS_EVENTS) });
