/**
 * What the store holds, per namespace: records, their size as JSON, and the oldest write (retention drops
 * records by it). Counted in slices like a purge, so a large store does not hold requests up.
 */
import type { Store } from '../store/store.ts';
import { WorkSlices } from '../background/work-slices.ts';
import { META, type Retention } from './retention.ts';

export interface CollectionStats {
  collection: string;
  records: number;
  bytes: number;
}

export interface NamespaceStats {
  namespace: string;
  records: number;
  /** The records as JSON, in UTF-8 bytes. */
  bytes: number;
  /** When the least recently written record was written (ISO), when any record's write is known. */
  oldestRecordAt?: string;
  /** The retention in force, in days, when records are not kept forever. */
  retentionDays?: number;
  collections: CollectionStats[];
}

export async function storeStats(store: Store, retention: Retention): Promise<{ namespaces: NamespaceStats[]; records: number; bytes: number }> {
  const namespaces: NamespaceStats[] = [];
  const slices = new WorkSlices();
  for (const namespace of store.namespaces()) {
    const collections: CollectionStats[] = [];
    let oldest = Number.POSITIVE_INFINITY;
    for (const collection of store.partition(namespace).filled()) {
      // The id counter and the namespace's settings are the sandbox's bookkeeping, not records.
      if (collection.name === META) continue;
      let bytes = 0;
      for (const id of collection.ids()) {
        bytes += collection.bytes(id);
        const at = collection.writtenAt(id);
        if (at !== undefined && at < oldest) oldest = at;
        if (slices.due()) await slices.next();
      }
      collections.push({ collection: collection.name, records: collection.size, bytes });
    }
    const { days } = retention.view(namespace);
    namespaces.push({
      namespace,
      records: sum(collections, 'records'),
      bytes: sum(collections, 'bytes'),
      ...(Number.isFinite(oldest) ? { oldestRecordAt: new Date(oldest).toISOString() } : {}),
      ...(days === undefined ? {} : { retentionDays: days }),
      collections,
    });
  }
  return { namespaces, records: sum(namespaces, 'records'), bytes: sum(namespaces, 'bytes') };
}

function sum<K extends string>(items: readonly Record<K, number>[], key: K): number {
  return items.reduce((total, item) => total + item[key], 0);
}
