import { z } from '@hono/zod-openapi';
import { ErrorSchema, apiRoute, controlRoute, extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  BotIdParamSchema,
  EnrolMonitoredUserBodySchema,
  ListMonitoredUsersQuerySchema,
  MonitoredUserListSchema,
  MonitoredUserParamsSchema,
  MonitoredUserSchema,
  OrganizationParamSchema,
  QuotaExceededSchema,
  QuotaStatusSchema,
  RemoveMonitoredUserResponseSchema,
  SaveTransactionsBodySchema,
  SaveTransactionsResponseSchema,
  SetQuotaBodySchema,
} from './aml.schemas.ts';

const TAGS = ['AML monitoring'];

export const enrolMonitoredUserRoute = apiRoute({
  method: 'post',
  path: '/v1/aml/bots/{bot_id}/monitored-users',
  operationId: 'addMonitoredUser',
  tags: TAGS,
  summary: 'Enrol a customer under ongoing monitoring by a bot (idempotent)',
  description:
    'A sandbox key gets the full validation and a realistic enrolment; nothing is stored. Removing an enrolment is a control-plane call: DELETE /__sandbox/organizations/{id}/aml/bots/{bot_id}/monitored-users/{subject_user_id}.',
  // The one write a sandbox key may call (spec). A missing key is 403 on every AML route (route table).
  guard: { allowSandboxWrites: true },
  request: { params: BotIdParamSchema, body: jsonBody(EnrolMonitoredUserBodySchema) },
  responses: {
    201: jsonResponse(MonitoredUserSchema, 'Newly enrolled (or a removed enrolment reactivated)'),
    200: jsonResponse(MonitoredUserSchema, 'Already enrolled: the existing enrolment, unchanged'),
    404: extraErrors[404],
  },
});

export const saveTransactionsRoute = apiRoute({
  method: 'post',
  path: '/v1/aml/transactions',
  operationId: 'saveTransactions',
  tags: TAGS,
  summary: 'Save transactions for monitoring (per-record outcomes)',
  description:
    'Spec: referenced as "Save transactions", contract not shown; shape from the real client. Subjects seen for the first time are enrolled under the bot.',
  request: { body: jsonBody(SaveTransactionsBodySchema) },
  responses: {
    200: jsonResponse(SaveTransactionsResponseSchema, 'Counts and one result per record, even when some are rejected'),
    404: extraErrors[404],
    // The per-key rate limit answers here too, with the plain error body.
    429: jsonResponse(z.union([QuotaExceededSchema, ErrorSchema]), 'Monthly transaction quota exceeded (code QUOTA_EXCEEDED), or the rate limit'),
  },
});

export const listMonitoredUsersRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/organizations/{id}/aml/monitored-users',
  operationId: 'sandboxListMonitoredUsers',
  summary: "An organization's AML enrolments (the real API has no listing yet)",
  request: { params: OrganizationParamSchema, query: ListMonitoredUsersQuerySchema },
  responses: { 200: jsonResponse(MonitoredUserListSchema, 'Enrolments in creation order'), 404: extraErrors[404] },
});

export const removeMonitoredUserRoute = controlRoute({
  method: 'delete',
  path: '/__sandbox/organizations/{id}/aml/bots/{bot_id}/monitored-users/{subject_user_id}',
  operationId: 'sandboxRemoveMonitoredUser',
  summary: 'Remove an AML enrolment (status removed; enrolling again reactivates it)',
  request: { params: MonitoredUserParamsSchema },
  responses: { 200: jsonResponse(RemoveMonitoredUserResponseSchema, 'The enrolment, now removed'), 404: extraErrors[404] },
});

export const getTransactionQuotaRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/organizations/{id}/aml/transaction-quota',
  operationId: 'sandboxGetTransactionQuota',
  summary: "An organization's monthly Save-transactions quota and use",
  request: { params: OrganizationParamSchema },
  responses: { 200: jsonResponse(QuotaStatusSchema, 'Quota of the current month'), 404: extraErrors[404] },
});

export const setTransactionQuotaRoute = controlRoute({
  method: 'put',
  path: '/__sandbox/organizations/{id}/aml/transaction-quota',
  operationId: 'sandboxSetTransactionQuota',
  summary: "Set an organization's monthly Save-transactions quota (default 100,000)",
  request: { params: OrganizationParamSchema, body: jsonBody(SetQuotaBodySchema) },
  responses: { 200: jsonResponse(QuotaStatusSchema, 'Quota of the current month'), 404: extraErrors[404] },
});
