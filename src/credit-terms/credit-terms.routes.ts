import { clientRoute } from '../platform/http/client-route.ts';
import { extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  CreateCreditTermsBodySchema,
  CreateCreditTermsResponseSchema,
  CreditTermsExternalIdParamsSchema,
  CreditTermsIdParamsSchema,
  CreditTermsListQuerySchema,
  CreditTermsListResponseSchema,
  CreditTermsRecordSchema,
} from './credit-terms.schemas.ts';

const TAGS = ['Credit terms'];

export const createCreditTermsRoute = clientRoute('creditTerms.create', {
  method: 'post',
  path: '/v1/credit-terms',
  operationId: 'createCreditTerms',
  tags: TAGS,
  summary: 'Ask a business for a credit application',
  description:
    'Creates a pending record and the business’s hosted page (creditTermsUrl), where it starts, submits or declines the application. One token; 402 when the balance is empty.',
  request: { body: jsonBody(CreateCreditTermsBodySchema) },
  responses: { 200: jsonResponse(CreateCreditTermsResponseSchema, 'The request and its hosted page'), 402: extraErrors[402] },
});

export const listCreditTermsRoute = clientRoute('creditTerms.list', {
  method: 'get',
  path: '/v1/credit-terms',
  operationId: 'listCreditTerms',
  tags: TAGS,
  summary: 'List the organization’s credit terms records',
  description: 'Newest first; nextToken is opaque and signed (null on the last page).',
  request: { query: CreditTermsListQuerySchema },
  responses: { 200: jsonResponse(CreditTermsListResponseSchema, 'One page of records') },
});

export const listCreditTermsByExternalIdRoute = clientRoute('creditTerms.listByExternalId', {
  method: 'get',
  path: '/v1/credit-terms/externalId/{externalId}',
  operationId: 'listCreditTermsByExternalId',
  tags: TAGS,
  summary: 'List the credit terms records with an externalId',
  description: 'Same shape and paging as the list; no match is an empty page.',
  request: { params: CreditTermsExternalIdParamsSchema, query: CreditTermsListQuerySchema },
  responses: { 200: jsonResponse(CreditTermsListResponseSchema, 'One page of records') },
});

export const getCreditTermsRoute = clientRoute('creditTerms.retrieve', {
  method: 'get',
  path: '/v1/credit-terms/{id}',
  operationId: 'getCreditTerms',
  tags: TAGS,
  summary: 'Retrieve a credit terms record',
  request: { params: CreditTermsIdParamsSchema },
  responses: { 200: jsonResponse(CreditTermsRecordSchema, 'The record'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const CREDIT_TERMS_ROUTES = [createCreditTermsRoute, listCreditTermsRoute, listCreditTermsByExternalIdRoute, getCreditTermsRoute] as const;
