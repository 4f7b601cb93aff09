/**
 * GET /v1/sessions filtering and paging: the spec's query-mode priority, the creation-date window, and the
 * query scope that next_token is bound to. Order and tokens are the platform's keyset paging
 * (src/platform/paging/keyset-paging.ts): newest first, then id; opaque, signed, refused on another query.
 *
 * LIMITATIONS:
 * - Tokens do not expire.
 * - The default (sender-based) query matches sessions whose sender_user_id is the caller's sender user;
 *   in the sandbox every session of an organization has the same sender, so it equals by_organization.
 */
import { keysetPaging } from '../platform/paging/keyset-paging.ts';
import { dateRange, type ListSessionsQuery } from './sessions.schemas.ts';

export type ListQueryMode = 'external_id' | 'workflow_id' | 'organization' | 'sender';

/** Query mode priority: external_id, then workflow_id, then by_organization, then sender-based. */
export function listQueryMode(query: Pick<ListSessionsQuery, 'external_id' | 'workflow_id' | 'by_organization'>): ListQueryMode {
  if (query.external_id !== undefined) return 'external_id';
  if (query.workflow_id !== undefined) return 'workflow_id';
  if (query.by_organization) return 'organization';
  return 'sender';
}

export interface ListCaller {
  organizationId: string;
  /** The caller's sender user (the default query lists the sessions it sent). */
  senderUserId: string;
}

interface Listable {
  id: string;
  organization_id: string;
  sender_user_id: string;
  created_at: string;
  external_id?: string;
  workflow_id?: string;
}

/**
 * Whether a record belongs in the answer to `query` for `caller` (mode filter plus date window): the mode
 * and the window are worked out once per query, not once per record read.
 */
export function listQueryFilter(query: ListSessionsQuery, caller: ListCaller): (record: Listable) => boolean {
  const { fromMs, toMs } = dateRange(query.start_date, query.end_date);
  const unbounded = fromMs === Number.NEGATIVE_INFINITY && toMs === Number.POSITIVE_INFINITY;
  // Without dates every record is inside: no date is parsed per record read.
  const inWindow = (record: Listable): boolean => {
    if (unbounded) return true;
    const created = Date.parse(record.created_at);
    return created >= fromMs && created <= toMs;
  };
  const own = (record: Listable): boolean => record.organization_id === caller.organizationId;
  switch (listQueryMode(query)) {
    case 'external_id':
      return (record) => own(record) && record.external_id === query.external_id && inWindow(record);
    case 'workflow_id':
      return (record) => own(record) && record.workflow_id === query.workflow_id && inWindow(record);
    case 'organization':
      return (record) => own(record) && inWindow(record);
    case 'sender':
      return (record) => own(record) && record.sender_user_id === caller.senderUserId && inWindow(record);
  }
}

/** What a token is bound to: the organization and every filter of the query (not limit). */
export function listQueryScope(query: ListSessionsQuery, caller: ListCaller): string {
  const mode = listQueryMode(query);
  return JSON.stringify([
    caller.organizationId,
    mode,
    mode === 'external_id' ? query.external_id : mode === 'workflow_id' ? query.workflow_id : mode === 'sender' ? caller.senderUserId : '',
    query.start_date ?? '',
    query.end_date ?? '',
  ]);
}

/**
 * The list's paging: newest first, next_token signed and bound to listQueryScope. A bad token throws
 * PageTokenError (400) naming next_token.
 */
export const sessionPaging = keysetPaging<{ id: string; created_at: string }>({
  purpose: 'sessions',
  tokenParam: 'next_token',
  scopeHint: 'other filters or dates',
  idOf: (record) => record.id,
  createdAtOf: (record) => record.created_at,
});
