import { apiRoute, extraErrors } from '../platform/http/routing.ts';
import {
  CreateFinancialBodySchema,
  CreateFinancialResponseSchema,
  FinancialExternalIdParamsSchema,
  FinancialIdParamsSchema,
  FinancialListQuerySchema,
  FinancialListResponseSchema,
  FinancialRecordSchema,
} from './financial.schemas.ts';

const TAGS = ['Bank statements'];

export const createFinancialRoute = apiRoute({
  method: 'post',
  path: '/v1/financial',
  operationId: 'createBankStatementRequest',
  tags: TAGS,
  summary: 'Request bank statements from an applicant',
  description:
    'Creates a bank statement request (type request, status PENDING) and returns the applicant’s hosted page. The applicant links a sandbox bank there; the record then advances IN_PROGRESS → FLINKS_IN_PROGRESS (2 s) → COMPLETED (5 s) on the sandbox clock. Billable: 402 when the token balance is empty.',
  request: { body: { required: true, content: { 'application/json': { schema: CreateFinancialBodySchema } } } },
  responses: {
    200: { description: 'The request and its hosted page', content: { 'application/json': { schema: CreateFinancialResponseSchema } } },
    402: extraErrors[402],
  },
});

export const listFinancialRoute = apiRoute({
  method: 'get',
  path: '/v1/financial',
  operationId: 'listBankStatements',
  tags: TAGS,
  summary: 'List the organization’s bank statement records',
  description: 'Newest first. nextToken is opaque and signed; pass it back unchanged for the next page (null on the last page).',
  request: { query: FinancialListQuerySchema },
  responses: { 200: { description: 'One page of records', content: { 'application/json': { schema: FinancialListResponseSchema } } } },
});

export const listFinancialByExternalIdRoute = apiRoute({
  method: 'get',
  path: '/v1/financial/externalId/{externalId}',
  operationId: 'listBankStatementsByExternalId',
  tags: TAGS,
  summary: 'List the bank statement records with an externalId',
  description: 'Same shape and paging as the list. No match is an empty page with status 200 (the real client treats a 404 the same way).',
  request: { params: FinancialExternalIdParamsSchema, query: FinancialListQuerySchema },
  responses: { 200: { description: 'One page of records', content: { 'application/json': { schema: FinancialListResponseSchema } } } },
});

export const getFinancialRoute = apiRoute({
  method: 'get',
  path: '/v1/financial/{id}',
  operationId: 'getBankStatement',
  tags: TAGS,
  summary: 'Retrieve a bank statement record',
  description:
    'The record at the sandbox clock’s now; `statement` only when COMPLETED and type request. With a sandbox key: test_completed (and the other test identifiers of the catalog) answer their fixture, any other id a completed record built from the id.',
  request: { params: FinancialIdParamsSchema },
  responses: {
    200: { description: 'The record', content: { 'application/json': { schema: FinancialRecordSchema } } },
    403: extraErrors[403],
    404: extraErrors[404],
  },
});
