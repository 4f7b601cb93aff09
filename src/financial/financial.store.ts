/**
 * Where bank-statement requests are kept: the namespace's 'bank-statements' collection (immutable puts),
 * indexed for the organization's lists. Only this area's service imports it.
 */
import type { World } from '../platform/namespaces/world.ts';
import type { StoredFinancialRecord } from './financial.schemas.ts';

export const BANK_STATEMENTS_COLLECTION = 'bank-statements';

/** Each index bucket in the lists' keyset order. */
const byCreation = { orderBy: (record: StoredFinancialRecord) => Date.parse(record.createdAt) };

export function bankStatements(world: World) {
  return world.data
    .collection<StoredFinancialRecord>(BANK_STATEMENTS_COLLECTION)
    .index('byOrganization', (record) => record.organizationId, byCreation)
    .index(
      'byOrganizationExternalId',
      (record) => (record.externalId === undefined ? undefined : `${record.organizationId}\u0000${record.externalId}`),
      byCreation,
    );
}
