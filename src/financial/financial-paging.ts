/**
 * Paging of GET /v1/financial and GET /v1/financial/externalId/{externalId}: the page sizes and the query
 * scope that `nextToken` is bound to. Order and tokens are the platform's keyset paging
 * (src/platform/paging/keyset-paging.ts): newest first (createdAt, then id); opaque, signed, refused on
 * another query.
 *
 * LIMITATIONS:
 * - Tokens do not expire.
 * - The real client sends no page size; the sandbox accepts an optional `limit` (1-100, default 10).
 */
import { keysetPaging } from '../platform/paging/keyset-paging.ts';

export const DEFAULT_FINANCIAL_PAGE_SIZE = 10;
export const MAX_FINANCIAL_PAGE_SIZE = 100;

/** What a token is bound to: the organization and the externalId filter. */
export function financialQueryScope(organizationId: string, externalId: string | undefined): string {
  return JSON.stringify([organizationId, externalId === undefined ? 'all' : 'externalId', externalId ?? '']);
}

/** The lists' paging; a bad nextToken throws PageTokenError (400) naming nextToken. */
export const financialPaging = keysetPaging<{ id: string; createdAt: string }>({
  purpose: 'financial',
  tokenParam: 'nextToken',
  scopeHint: 'another organization or externalId',
  idOf: (record) => record.id,
  createdAtOf: (record) => record.createdAt,
});
