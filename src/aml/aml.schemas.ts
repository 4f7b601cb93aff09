/**
 * Zod schemas of AML monitoring: the monitored-user enrolment (spec: 'Monitored user enrolment',
 * POST /v1/aml/bots/{bot_id}/monitored-users), Save transactions (spec: referenced only; shape from
 * real-client-facts §6.13), its quota error, and the control plane's enrolment and quota calls.
 *
 * Transactions are validated record by record in aml-transactions.ts (each record gets its own outcome,
 * HTTP 200 even when some are rejected), so the route schema checks only the envelope.
 */
import { z } from '@hono/zod-openapi';
import { aliasedBody } from '../platform/validation/aliased-body.ts';
import { mustBe } from '../platform/validation/request-fields.ts';

/** Bot ids: letters, digits, "_" and "-" (fixture bots are bot_daily, agt-1a2b3c4d style ids also fit). */
export const BOT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const BotIdParamSchema = z.object({
  bot_id: z
    .string()
    .regex(BOT_ID_PATTERN, { error: 'bot_id must be 1-64 letters, digits, "_" or "-" (e.g. bot_daily)' })
    .openapi({ param: { name: 'bot_id', in: 'path' }, example: 'bot_daily' }),
});

const subjectUserId = (key: string) =>
  z
    .string({ error: mustBe(key, 'your own identifier of the customer, 1-255 characters', 'send your own identifier of the customer (e.g. cust_001)') })
    .trim()
    .min(1, { error: `${key} must not be empty: send your own identifier of the customer (e.g. cust_001)` })
    .max(255, { error: mustBe(key, 'at most 255 characters long') });

export const EnrolMonitoredUserBodySchema = aliasedBody(
  { subjectUserId: { snake: 'subject_user_id', schema: subjectUserId, required: true } },
  { name: 'EnrolMonitoredUserBody', description: 'The customer to monitor: a fixture subject or the external_id of one of your sessions.' },
);
export type EnrolMonitoredUserBody = z.infer<typeof EnrolMonitoredUserBodySchema>;

export const MONITORED_USER_STATUSES = ['active', 'removed'] as const;

export const MonitoredUserSchema = z
  .object({
    org_id: z.string(),
    bot_id: z.string(),
    subject_user_id: z.string(),
    subject_user_name: z.string().nullable(),
    subject_country: z.string().length(2).openapi({ description: 'ISO 3166-1 alpha-2, or XX when unknown' }),
    status: z.enum(MONITORED_USER_STATUSES),
    cadence_days: z.number().openapi({ description: '0 means real time' }),
    next_check_at: z.string(),
    last_checked_at: z.string().nullable(),
    added_at: z.string(),
    added_by: z.string().nullable().openapi({ description: 'Id of the API key that created it' }),
    updated_at: z.string(),
  })
  .openapi('MonitoredUser');
export type MonitoredUser = z.infer<typeof MonitoredUserSchema>;

// ─── Save transactions ──────────────────────────────────────────────────────────────────────────────

export const TRANSACTIONS_PER_REQUEST = { min: 1, max: 500 } as const;

/** Each record must at least be an object (a batch of anything else is malformed); its fields are checked one record at a time. */
const records = z
  .array(z.looseObject({}, { error: 'each transaction must be a JSON object with subject_user_id, timestamp, direction, amount and type' }), {
    error: mustBe('transactions', 'an array of 1-500 transaction objects'),
  })
  .min(TRANSACTIONS_PER_REQUEST.min, { error: 'transactions must not be empty: send 1-500 transaction records' })
  .max(TRANSACTIONS_PER_REQUEST.max, { error: mustBe('transactions', 'at most 500 records per request (split the batch)') });

/** A bare array is read as `{ transactions: [...] }`, so both envelopes get the same messages. */
export const SaveTransactionsBodySchema = z
  .preprocess(
    (body) => (Array.isArray(body) ? { transactions: body } : body),
    z.object(
      {
        bot_id: z.string().regex(BOT_ID_PATTERN, { error: 'bot_id must be 1-64 letters, digits, "_" or "-" (e.g. bot_daily)' }).optional(),
        transactions: records,
      },
      { error: 'the request body must be a JSON array of transactions, or an object { bot_id?, transactions }' },
    ),
  )
  .openapi('SaveTransactionsBody', { description: 'A bare array of 1-500 transactions, or { bot_id?, transactions }. Each record is validated on its own.' });
export type SaveTransactionsBody = z.infer<typeof SaveTransactionsBodySchema>;

export const TransactionErrorSchema = z.object({ code: z.string(), field: z.string().nullable(), message: z.string() });
export type TransactionError = z.infer<typeof TransactionErrorSchema>;

export const TransactionResultSchema = z.object({
  index: z.number().int(),
  client_txn_id: z.string().nullable(),
  status: z.enum(['accepted', 'warned', 'rejected']),
  warnings: z.array(z.string()).optional(),
  errors: z.array(TransactionErrorSchema).optional(),
});
export type TransactionResult = z.infer<typeof TransactionResultSchema>;

export const SaveTransactionsResponseSchema = z
  .object({ accepted: z.number().int(), warned: z.number().int(), rejected: z.number().int(), results: z.array(TransactionResultSchema) })
  .openapi('SaveTransactionsResponse');
export type SaveTransactionsResponse = z.infer<typeof SaveTransactionsResponseSchema>;

export const QuotaStatusSchema = z.object({
  quota: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  month: z.string().openapi({ example: '2026-01' }),
  resets_at: z.string(),
});
export type QuotaStatus = z.infer<typeof QuotaStatusSchema>;

export const QuotaExceededSchema = QuotaStatusSchema.extend({ error: z.string(), code: z.literal('QUOTA_EXCEEDED') }).openapi('AmlQuotaExceeded');

// ─── Control plane ──────────────────────────────────────────────────────────────────────────────────

export const OrganizationParamSchema = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'org_demo' }) });

export const MonitoredUserParamsSchema = OrganizationParamSchema.extend({
  bot_id: z.string().openapi({ param: { name: 'bot_id', in: 'path' }, example: 'bot_daily' }),
  subject_user_id: z.string().openapi({ param: { name: 'subject_user_id', in: 'path' }, example: 'cust_001' }),
});

export const ListMonitoredUsersQuerySchema = z.object({
  bot_id: z
    .string()
    .optional()
    .openapi({ param: { name: 'bot_id', in: 'query' } }),
  status: z
    .enum(MONITORED_USER_STATUSES, { error: 'status must be active or removed' })
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
});

export const MonitoredUserListSchema = z.object({ monitored_users: z.array(MonitoredUserSchema) }).openapi('MonitoredUserList');

export const RemoveMonitoredUserResponseSchema = z
  .object({ removed: z.boolean().openapi({ description: 'false when it was already removed' }), monitored_user: MonitoredUserSchema })
  .openapi('RemoveMonitoredUserResponse');

export const SetQuotaBodySchema = z.object({
  quota: z.number({ error: 'quota must be a whole number of transactions per month, 0-10000000' }).int().min(0).max(10_000_000),
});
