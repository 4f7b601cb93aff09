/**
 * An in-memory collection of records keyed by id, with declared secondary indexes so reads never scan.
 * Every change is reported to the store's change sink (the durability journal).
 */

export interface Identified {
  id: string;
}

/** A secondary index: the key(s) a record is filed under, or undefined to leave it out. */
export type IndexKey<T> = (record: T) => string | undefined;

export interface CollectionChange {
  op: 'put' | 'del';
  collection: string;
  id: string;
  value?: unknown;
}

export class Collection<T extends Identified> {
  private readonly records = new Map<string, T>();
  private readonly indexes = new Map<string, { key: IndexKey<T>; buckets: Map<string, Set<string>> }>();

  constructor(
    readonly name: string,
    private readonly onChange: (change: CollectionChange) => void,
  ) {}

  /** Declares an index (idempotent); it is built from the records already present. */
  index(name: string, key: IndexKey<T>): this {
    if (this.indexes.has(name)) return this;
    const buckets = new Map<string, Set<string>>();
    this.indexes.set(name, { key, buckets });
    for (const record of this.records.values()) this.file(buckets, key(record), record.id);
    return this;
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  get size(): number {
    return this.records.size;
  }

  /** All records, in insertion order. */
  all(): T[] {
    return [...this.records.values()];
  }

  /** Records filed under `value` in the named index, in insertion order. */
  where(indexName: string, value: string): T[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`collection ${this.name} has no index ${indexName}`);
    const ids = index.buckets.get(value);
    if (!ids) return [];
    const out: T[] = [];
    for (const id of ids) {
      const record = this.records.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  /** Inserts or replaces a record. The record must not be mutated afterwards: put a new object instead. */
  put(record: T): T {
    // Journalled first: a record the store refuses (too big) is never applied.
    this.onChange({ op: 'put', collection: this.name, id: record.id, value: record });
    this.apply(record);
    return record;
  }

  delete(id: string): boolean {
    if (!this.records.has(id)) return false;
    this.applyDelete(id);
    this.onChange({ op: 'del', collection: this.name, id });
    return true;
  }

  /** Applies a change without journalling it (replay at start-up). */
  apply(record: T): void {
    const previous = this.records.get(record.id);
    for (const { key, buckets } of this.indexes.values()) {
      const before = previous ? key(previous) : undefined;
      const after = key(record);
      if (before === after && previous) continue;
      if (before !== undefined) buckets.get(before)?.delete(record.id);
      this.file(buckets, after, record.id);
    }
    this.records.set(record.id, record);
  }

  applyDelete(id: string): void {
    const previous = this.records.get(id);
    if (!previous) return;
    for (const { key, buckets } of this.indexes.values()) {
      const before = key(previous);
      if (before !== undefined) buckets.get(before)?.delete(id);
    }
    this.records.delete(id);
  }

  private file(buckets: Map<string, Set<string>>, value: string | undefined, id: string): void {
    if (value === undefined) return;
    let bucket = buckets.get(value);
    if (!bucket) buckets.set(value, (bucket = new Set()));
    bucket.add(id);
  }
}
