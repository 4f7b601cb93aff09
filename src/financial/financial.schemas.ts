/**
 * Zod schemas of the bank-statement area: the record of GET /v1/financial/{id} exactly as the spec gives it
 * ('Bank statement record', camelCase with a capital `Config`), the statement inside it (the bank data
 * provider's account-detail layout, PascalCase), and the real client's create / list operations
 * (POST /v1/financial, GET /v1/financial, GET /v1/financial/externalId/{externalId}).
 *
 * LIMITATIONS:
 * - The <BANKDATA> placeholder of the spec is rendered as FLINKS_IN_PROGRESS: the statement layout
 *   (HttpStatusCode, Institution, Accounts[].Holder.Address.POBox...) is that provider's account-detail
 *   payload. Change BANK_DATA_PROVIDER_STATUS in financial.machine.ts if the real literal differs.
 * - `Statements` (the provider's PDF statements) is always an empty array: no documents are produced.
 */
import { z } from '@hono/zod-openapi';
import { e164Phone, email, flag, identifier, personName } from '../platform/validation/request-fields.ts';
import { FINANCIAL_STATUSES, FINANCIAL_TYPES } from './financial.machine.ts';
import { DEFAULT_FINANCIAL_PAGE_SIZE, MAX_FINANCIAL_PAGE_SIZE } from './financial-paging.ts';

export const FinancialStatusSchema = z.enum(FINANCIAL_STATUSES);
export type FinancialStatus = z.infer<typeof FinancialStatusSchema>;

export const FinancialTypeSchema = z.enum(FINANCIAL_TYPES);
export type FinancialType = z.infer<typeof FinancialTypeSchema>;

/** Months of history requested, as a string (spec: "period as a string"). */
export const FinancialPeriodSchema = z.enum(['3', '6', '9']);
export type FinancialPeriod = z.infer<typeof FinancialPeriodSchema>;

export const FinancialConfigSchema = z.object({ period: FinancialPeriodSchema });

/**
 * Ids the sandbox issues are UUIDs; sandbox-key test identifiers look like `test_completed`. Anything else
 * is a malformed id (400), not an unknown one (404).
 */
// No regex flags: the pattern is copied into the OpenAPI document verbatim.
export const FINANCIAL_ID_PATTERN = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|test_[a-z0-9_]{1,60})$/;
export const FinancialIdSchema = z
  .string()
  .regex(FINANCIAL_ID_PATTERN, 'must be a bank statement id (a UUID) or a sandbox test identifier such as test_completed')
  .openapi({ param: { name: 'id', in: 'path' }, example: 'test_completed' });

// ---------------------------------------------------------------- statement (provider layout)

/** Amounts in dollars with at most two decimals (they are computed in integer cents). */
const MoneySchema = z.number().refine((value) => Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
  message: 'must be an amount with at most two decimals',
});

export const StatementTransactionSchema = z.object({
  Id: z.string(),
  Date: z.iso.date(),
  Description: z.string(),
  Debit: MoneySchema.nullable(),
  Credit: MoneySchema.nullable(),
  Balance: MoneySchema,
  Code: z.string().nullable(),
});
export type StatementTransaction = z.infer<typeof StatementTransactionSchema>;

export const StatementHolderSchema = z.object({
  Name: z.string(),
  Address: z.object({
    CivicAddress: z.string(),
    City: z.string(),
    Province: z.string(),
    PostalCode: z.string(),
    POBox: z.string().nullable(),
    Country: z.string(),
  }),
  Email: z.string(),
  PhoneNumber: z.string(),
});
export type StatementHolder = z.infer<typeof StatementHolderSchema>;

/** An account; transit and institution numbers are stripped (spec), so the object has no such keys. */
export const StatementAccountSchema = z.strictObject({
  Id: z.string(),
  Title: z.string(),
  AccountNumber: z.string(),
  LastFourDigits: z.string().nullable(),
  Category: z.string(),
  Type: z.string(),
  AccountType: z.string(),
  Currency: z.string(),
  Balance: z.object({ Available: MoneySchema, Current: MoneySchema, Limit: MoneySchema.nullable() }),
  Holder: StatementHolderSchema,
  Transactions: z.array(StatementTransactionSchema),
  Statements: z.array(z.unknown()),
  OverdraftLimit: MoneySchema,
});
export type StatementAccount = z.infer<typeof StatementAccountSchema>;

export const BankStatementSchema = z
  .object({
    HttpStatusCode: z.number().int(),
    InstitutionName: z.string(),
    InstitutionId: z.number().int(),
    Institution: z.string(),
    Accounts: z.array(StatementAccountSchema),
  })
  .openapi('BankStatement');
export type BankStatement = z.infer<typeof BankStatementSchema>;

// ---------------------------------------------------------------- the record

export const FinancialRecordSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    userId: z.string(),
    senderUserId: z.string(),
    externalId: z.string().optional(),
    status: FinancialStatusSchema,
    type: FinancialTypeSchema,
    Config: FinancialConfigSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    statement: BankStatementSchema.optional(),
  })
  .superRefine((record, ctx) => {
    const expected = record.status === 'COMPLETED' && record.type === 'request';
    if (expected !== (record.statement !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['statement'],
        message: 'statement is present exactly when status is COMPLETED and type is request',
      });
    }
  })
  .openapi('FinancialRecord');
export type FinancialRecord = z.infer<typeof FinancialRecordSchema>;

// ---------------------------------------------------------------- real-client operations

/** POST /v1/financial (the real client sends camelCase only). */
export const CreateFinancialBodySchema = z
  .object({
    email: email('email'),
    firstName: personName('firstName', "the applicant's first name"),
    lastName: personName('lastName', "the applicant's last name"),
    phone: e164Phone('phone'),
    period: FinancialPeriodSchema.default('3'),
    externalId: identifier('externalId', 'your own reference for the applicant').optional(),
    sendEmailInvite: flag('sendEmailInvite').default(true),
    sendPhoneInvite: flag('sendPhoneInvite').default(true),
  })
  .openapi('CreateFinancialBody');
export type CreateFinancialBody = z.infer<typeof CreateFinancialBodySchema>;

export const FinancialLinkSchema = z.object({
  rel: z.enum(['admin_console', 'bank_statement_details']),
  href: z.string(),
  description: z.string(),
});

export const CreateFinancialResponseSchema = z
  .object({
    bankStatementId: z.string(),
    bankStatementUrl: z.string(),
    externalId: z.string().optional(),
    links: z.array(FinancialLinkSchema),
  })
  .openapi('CreateFinancialResponse');
export type CreateFinancialResponse = z.infer<typeof CreateFinancialResponseSchema>;

export const FinancialListQuerySchema = z.object({
  nextToken: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'nextToken', in: 'query' }, description: 'The nextToken of the previous page, as returned.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_FINANCIAL_PAGE_SIZE)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Sandbox extension (the real client sends none): records per page, 1-${MAX_FINANCIAL_PAGE_SIZE}, default ${DEFAULT_FINANCIAL_PAGE_SIZE}.`,
    }),
});
export type FinancialListQuery = z.infer<typeof FinancialListQuerySchema>;

export const FinancialIdParamsSchema = z.object({ id: FinancialIdSchema });

export const FinancialExternalIdParamsSchema = z.object({
  externalId: z
    .string()
    .min(1)
    .max(255, 'must be at most 255 characters')
    .openapi({ param: { name: 'externalId', in: 'path' }, example: 'loan-application-42' }),
});

export const FinancialListResponseSchema = z
  .object({ bankStatements: z.array(FinancialRecordSchema), nextToken: z.string().nullable() })
  .openapi('FinancialListResponse');
export type FinancialListResponse = z.infer<typeof FinancialListResponseSchema>;

// ---------------------------------------------------------------- stored state (not on the wire)

/**
 * What the store keeps. Status and updatedAt are not stored: they follow from the timestamps on the virtual
 * clock (financial.machine.ts), so a record advances when read, whatever the clock does.
 */
export const StoredFinancialRecordSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  senderUserId: z.string(),
  externalId: z.string().optional(),
  type: FinancialTypeSchema,
  Config: FinancialConfigSchema,
  createdAt: z.iso.datetime(),
  applicant: z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string() }),
  invites: z.object({ email: z.boolean(), phone: z.boolean() }),
  /** The applicant picked a bank (or chose to upload) on the hosted page. */
  startedAt: z.iso.datetime().optional(),
  /** The applicant finished linking the bank (or uploading). */
  linkedAt: z.iso.datetime().optional(),
  bankCode: z.string().optional(),
});
export type StoredFinancialRecord = z.infer<typeof StoredFinancialRecordSchema>;

/** The form the applicant's hosted page posts (application/x-www-form-urlencoded). */
export const BankStatementPageFormSchema = z.object({
  action: z.enum(['start', 'complete', 'upload']),
  bank: z.string().max(64).optional(),
});
