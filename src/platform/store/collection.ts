/**
 * An in-memory collection of records keyed by id, with declared secondary indexes so reads never scan.
 * Every change is reported to the store's change sink (the durability journal).
 *
 * An index may be ordered (`orderBy`): each bucket then keeps its records sorted by (order value, id), so
 * a list reads one page newest first from a keyset position or a window of order values with two binary
 * searches, whatever the bucket's size, instead of collecting and sorting every match. A bucket is two
 * parallel arrays (order values, ids), not an object per record: fewer objects to build and to collect.
 *
 * An index is built on its first use (a read through it, or a write once it is built): a start serves
 * reads by id without building any, and an index nothing uses costs nothing. Until it is built a write has
 * nothing to keep up to date in it: the build reads the records as they are then.
 *
 * Records loaded from a snapshot with a valid cache stay unread (a place in the JSON file, in the columns
 * of `RawColumns`: no object and no Map entry per record) until first read; they are found by id through
 * the columns' own hash table, and their index keys come from the cache (snapshot-cache.ts), checked
 * against the index's functions. A record read or replaced keeps its place in the columns' order; one
 * written anew goes after them, so the order is the insertion order a Map of every record would keep.
 */
import { WorkSlices } from '../background/work-slices.ts';
import { type CachedIndex, cachedKey, indexFingerprint, type RawColumns, RawRecord } from './snapshot-cache.ts';

export interface Identified {
  id: string;
}

/** A secondary index: the key(s) a record is filed under, or undefined to leave it out. */
export type IndexKey<T> = (record: T) => string | undefined;

/** Where an ordered read starts and what it covers: order values in [from, to], strictly before `after`. */
export interface OrderWindow {
  from?: number;
  to?: number;
  /** A keyset position: only records ordered before it (smaller value, or the same value and a smaller id). */
  after?: { value: number; id: string };
}

/** The records filed under one key of an ordered index, ascending by (value, id): entry i is (values[i], ids[i]). */
interface OrderedBucket {
  values: number[];
  ids: string[];
}

interface IndexState<T> {
  name: string;
  key: IndexKey<T>;
  /** Whether the buckets hold the records (built on first use). */
  built: boolean;
  /** Unordered indexes: the ids in insertion order. */
  buckets: Map<string, Set<string>>;
  /** Ordered indexes: the buckets ascending by (value, id). */
  orderBy?: (record: T) => number;
  sorted: Map<string, OrderedBucket>;
}

export interface CollectionChange {
  op: 'put' | 'del';
  collection: string;
  id: string;
  value?: unknown;
  /** When a put was made, on the namespace's virtual clock (epoch ms), when the collection has a clock. */
  at?: number;
}

/** Records of a cached snapshot checked against an index's functions before its cached keys are used. */
const CACHE_SAMPLES = 32;

/**
 * What became of each record of the raw columns: still unread, held in `placed` (replaced, or written
 * elsewhere than at this position), deleted, or held in `placed` as its JSON at this position in the file
 * says (read, or written there by the last snapshot): a snapshot copies that text instead of serializing.
 */
const UNREAD = 0;
const PLACED = 1;
const GONE = 2;
const AS_IN_FILE = 3;

/** Records written since the older columns moved to the new ones between two turns of the event loop (`useSnapshot`). */
const ADOPT_SLICE = 2_000;

/** A record as held: the record, or the position of an unread one in the raw columns. */
type Held<T> = T | number;

export class Collection<T extends Identified> {
  /** The records written since the raw columns were loaded (all of them without columns), in insertion order. */
  private readonly records = new Map<string, T>();
  /** The records of the raw columns that were read, replaced or written there (they keep their place in the columns' order). */
  private readonly placed = new Map<string, T>();
  /** The records of the snapshot the store started from (or last wrote), unread until first use. */
  private raw: RawColumns | undefined;
  /** UNREAD, PLACED, GONE or AS_IN_FILE for each position of the raw columns, and how many are still unread. */
  private rawState = new Uint8Array(0);
  private unread = 0;
  /** The ids deleted since the last `forSnapshot` (a snapshot being written), until `useSnapshot`. */
  private leftSinceHeld: Set<string> | null = null;
  /** The cached index keys of the raw records (by their `position`), by index name. */
  private cachedIndexes = new Map<string, CachedIndex>();
  private readonly indexes = new Map<string, IndexState<T>>();
  /**
   * When each record was last written, on the namespace's virtual clock (retention reads it); absent when
   * unknown. A raw record carries its own (`at`) until read.
   */
  private readonly stamps = new Map<string, number>();

  constructor(
    readonly name: string,
    private readonly onChange: (change: CollectionChange) => void,
    /** The namespace's virtual clock, once a world is bound to the partition. */
    private readonly now: () => number | undefined = () => undefined,
  ) {}

  /**
   * Declares an index (idempotent); it is built from the records present at its first use. With `orderBy`,
   * each bucket is kept sorted by (that value, id) and can be read with `ordered`.
   */
  index(name: string, key: IndexKey<T>, options: { orderBy?: (record: T) => number } = {}): this {
    if (this.indexes.has(name)) return this;
    this.indexes.set(name, { name, key, built: false, buckets: new Map(), sorted: new Map(), ...(options.orderBy ? { orderBy: options.orderBy } : {}) });
    return this;
  }

  /** Files every record in a declared index; raw records by their cached keys once a sample confirms them. */
  private build(index: IndexState<T>): void {
    if (!this.cachedKeysHold(index)) {
      // Keys cached by other functions (another version of the area): every record is read once.
      this.cachedIndexes.delete(index.name);
      this.all();
    }
    index.built = true;
    if (!index.orderBy) {
      for (const [id, record] of this.inOrder()) this.file(index, id, record);
      return;
    }
    const cached = this.cachedIndexes.get(index.name);
    for (const [id, record] of this.inOrder()) {
      let value: string | undefined;
      let order: number;
      if (typeof record === 'number') {
        const held = cached as CachedIndex;
        value = cachedKey(held, record);
        order = (held.orders as Float64Array)[record] as number;
      } else {
        value = index.key(record);
        order = value === undefined ? 0 : index.orderBy(record);
      }
      if (value === undefined) continue;
      let bucket = index.sorted.get(value);
      if (!bucket) index.sorted.set(value, (bucket = { values: [], ids: [] }));
      bucket.values.push(order);
      bucket.ids.push(id);
    }
    // Records are usually held in creation order already: a bucket is sorted only when it is not.
    for (const bucket of index.sorted.values()) if (!isSorted(bucket)) sortBucket(bucket);
  }

  get(id: string): T | undefined {
    const value = this.peek(id);
    return typeof value === 'number' ? this.materialize(value) : value;
  }

  has(id: string): boolean {
    return this.peek(id) !== undefined;
  }

  get size(): number {
    return this.records.size + this.placed.size + this.unread;
  }

  /** All records, in insertion order. */
  all(): T[] {
    return Array.from(this.inOrder(), ([, value]) => (typeof value === 'number' ? this.materialize(value) : value));
  }

  /** How many records are still unread in the snapshot file (held as a place in it, not as an object). */
  get unreadCount(): number {
    return this.unread;
  }

  /**
   * The records as a snapshot writes them, as they are now, with when each was written: a record held as
   * its JSON lies in the file (unread, read, or written there by the last snapshot) is a raw record,
   * copied instead of serialized. Taken at once (typed columns, no object per raw record: a million took
   * 190 ms and a full garbage collection); `useSnapshot` follows once that snapshot is written.
   */
  forSnapshot(): SnapshotRecords<T> {
    this.leftSinceHeld = new Set();
    const raw = this.raw;
    const kept = new Int32Array(this.rawState.length);
    const replaced = new Map<number, T>();
    let count = 0;
    for (let position = 0; position < this.rawState.length; position++) {
      const state = this.rawState[position];
      if (state === GONE) continue;
      kept[count++] = position;
      if (state === PLACED) replaced.set(position, this.placed.get((raw as RawColumns).ids.at(position)) as T);
    }
    const positions = kept.subarray(0, count);
    const written = [...this.records.values()];
    const at = new Float64Array(count + written.length);
    for (let i = 0; i < count; i++) {
      const position = positions[i] as number;
      const record = replaced.get(position);
      at[i] = record === undefined ? ((raw as RawColumns).at[position] as number) : (this.stamps.get(record.id) ?? Number.NaN);
    }
    for (const [i, record] of written.entries()) at[count + i] = this.stamps.get(record.id) ?? Number.NaN;
    return new SnapshotRecords(raw, positions, replaced, written, at);
  }

  /** The record's size as JSON, in UTF-8 bytes (a raw record is not read for it). */
  bytes(id: string): number {
    const value = this.peek(id);
    if (value === undefined) return 0;
    return typeof value === 'number' ? ((this.raw as RawColumns).lengths[value] as number) : Buffer.byteLength(JSON.stringify(value));
  }

  /** When the record was last written (epoch ms on the namespace's clock), or undefined when unknown. */
  writtenAt(id: string): number | undefined {
    const value = this.peek(id);
    if (typeof value !== 'number') return this.stamps.get(id);
    const at = (this.raw as RawColumns).at[value] as number;
    return Number.isNaN(at) ? undefined : at;
  }

  /** The ids of the records, in insertion order (a live view: safe to read while records change). */
  *ids(): IterableIterator<string> {
    for (const [id] of this.inOrder()) yield id;
  }

  /** Records filed under `value` in the named index: in insertion order, or ascending for an ordered index. */
  where(indexName: string, value: string): T[] {
    const index = this.requireIndex(indexName);
    const ids = index.orderBy ? (index.sorted.get(value)?.ids ?? []) : (index.buckets.get(value) ?? []);
    const out: T[] = [];
    for (const id of ids) {
      const record = this.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  /**
   * The records filed under `value` in an ordered index, descending by (order value, id) — newest first
   * when the order value is a creation instant — limited to the window: each one's order value lies in
   * [from, to]. `count` is how many lie in [from, to] (ignoring `after`); `records` is lazy, so taking one
   * page costs the page, not the bucket.
   */
  ordered(indexName: string, value: string, window: OrderWindow = {}): { count: number; records: Iterable<T> } {
    const index = this.requireIndex(indexName);
    if (!index.orderBy) throw new Error(`index ${indexName} of collection ${this.name} is not ordered`);
    const bucket = index.sorted.get(value) ?? { values: [], ids: [] };
    const start = window.from === undefined ? 0 : firstAtOrAbove(bucket, window.from, '');
    let end = window.to === undefined ? bucket.ids.length : firstAbove(bucket, window.to);
    const count = Math.max(0, end - start);
    if (window.after !== undefined) end = Math.min(end, firstAtOrAbove(bucket, window.after.value, window.after.id));
    const get = (id: string) => this.get(id);
    // A bounded window holds only entries whose value lies in it: one that is not a number (NaN) never does.
    const low = window.from ?? Number.NEGATIVE_INFINITY;
    const high = window.to ?? Number.POSITIVE_INFINITY;
    const bounded = low !== Number.NEGATIVE_INFINITY || high !== Number.POSITIVE_INFINITY;
    return {
      count,
      records: {
        *[Symbol.iterator]() {
          for (let i = end - 1; i >= start; i--) {
            if (bounded && !((bucket.values[i] as number) >= low && (bucket.values[i] as number) <= high)) continue;
            const record = get(bucket.ids[i] as string);
            if (record) yield record;
          }
        },
      },
    };
  }

  /** Inserts or replaces a record. The record must not be mutated afterwards: put a new object instead. */
  put(record: T): T {
    const at = this.now();
    // Journalled first: a record the store refuses (too big) is never applied.
    this.onChange({ op: 'put', collection: this.name, id: record.id, value: record, ...(at === undefined ? {} : { at }) });
    this.apply(record, at);
    return record;
  }

  delete(id: string): boolean {
    if (!this.has(id)) return false;
    this.applyDelete(id);
    this.onChange({ op: 'del', collection: this.name, id });
    return true;
  }

  /**
   * Deletes several records at once (a retention purge): each ordered bucket they leave loses each run of
   * neighbouring entries in one splice, so a slice costs about its own size, not its buckets'. Ids not
   * present are skipped; returns how many were deleted.
   */
  deleteMany(ids: readonly string[]): number {
    const gone: [string, Held<T>][] = [];
    for (const id of ids) {
      const record = this.peek(id);
      if (record !== undefined) gone.push([id, record]);
    }
    for (const index of this.indexes.values()) {
      if (!index.built) continue;
      if (!index.orderBy) {
        for (const [id, record] of gone) this.unfile(index, id, record);
        continue;
      }
      const leaving = new Map<string, number[]>();
      for (const [id, record] of gone) {
        const value = this.keyOf(index, record);
        const bucket = value === undefined ? undefined : index.sorted.get(value);
        if (value === undefined || !bucket) continue;
        const at = firstAtOrAbove(bucket, this.orderOf(index, record), id);
        if (bucket.ids[at] !== id) continue;
        let places = leaving.get(value);
        if (!places) leaving.set(value, (places = []));
        places.push(at);
      }
      for (const [value, places] of leaving) {
        const bucket = index.sorted.get(value) as OrderedBucket;
        places.sort((a, b) => b - a);
        // From the last run to the first, so the places still to remove do not move.
        for (let i = 0; i < places.length; ) {
          let run = 1;
          while (places[i + run] === (places[i] as number) - run) run++;
          bucket.values.splice((places[i] as number) - run + 1, run);
          bucket.ids.splice((places[i] as number) - run + 1, run);
          i += run;
        }
        if (bucket.ids.length === 0) index.sorted.delete(value);
      }
    }
    for (const [id] of gone) {
      this.remove(id);
      this.onChange({ op: 'del', collection: this.name, id });
    }
    return gone.length;
  }

  /** Applies a change without journalling it (replay at start-up); `at`: when it was written, if known. */
  apply(record: T, at?: number): void {
    if (at === undefined) this.stamps.delete(record.id);
    else this.stamps.set(record.id, at);
    const previous = this.peek(record.id);
    for (const index of this.indexes.values()) {
      if (!index.built) continue;
      if (previous !== undefined) {
        const unchanged = this.keyOf(index, previous) === index.key(record) && (!index.orderBy || this.orderOf(index, previous) === index.orderBy(record));
        if (unchanged) continue;
        this.unfile(index, record.id, previous);
      }
      this.file(index, record.id, record);
    }
    if (typeof previous === 'number') this.place(previous, record, PLACED);
    else if (this.placed.has(record.id)) {
      this.placed.set(record.id, record);
      // No longer what the file holds at its position.
      this.rawState[(this.raw as RawColumns).find(record.id)] = PLACED;
    } else this.records.set(record.id, record);
  }

  applyDelete(id: string): void {
    const previous = this.peek(id);
    if (previous === undefined) return;
    for (const index of this.indexes.values()) if (index.built) this.unfile(index, id, previous);
    this.remove(id);
  }

  /**
   * Loads a cached snapshot's records unread (before any index is declared).
   * The cached index keys are used by `index` once a sample of records confirms them.
   */
  loadRaw(columns: RawColumns, indexes: Iterable<[string, CachedIndex]>): void {
    this.raw = columns;
    this.rawState = new Uint8Array(columns.ids.length);
    this.unread = columns.ids.length;
    this.cachedIndexes = new Map(indexes);
  }

  /** The cached keys in force, by index name (what a new cache carries over for raw records). */
  cachedKeys(): ReadonlyMap<string, CachedIndex> {
    return this.cachedIndexes;
  }

  /** The declared indexes' names and functions, for the cache written beside a snapshot. */
  declaredIndexes(): { name: string; fingerprint: string; key: IndexKey<T>; orderBy?: (record: T) => number }[] {
    return [...this.indexes.values()].map(({ name, key, orderBy }) => ({
      name,
      fingerprint: indexFingerprint(orderBy !== undefined),
      key,
      ...(orderBy ? { orderBy } : {}),
    }));
  }

  /**
   * After a new snapshot and its cache are written (`dump`: the records it holds as `held()` gave them,
   * `columns`: where they lie in it, `indexes`: their keys): the records still unread are read from it
   * from now on. Each record of the new columns is what became of it at its place in the old ones
   * (unread, placed or deleted since); a record the old ones did not hold stays where it is, after them.
   *
   * The columns are taken at once; the records written since the old columns (tens of thousands in a store
   * taking creates: moved one by one, they held a server with a million records for 100-135 ms) stay held
   * as objects, after every record of the columns, and move to their places in the new ones a slice at a
   * time, in their order, each as it is then: the promise ends when all have. Meanwhile a record is always
   * in one place (`records`, or its new position), so reads, writes and deletes between two slices see the
   * store as it is; a new snapshot is not taken before it ends (a store compacts once at a time).
   */
  useSnapshot(dump: SnapshotRecords<T>, columns: RawColumns, indexes: Map<string, CachedIndex>): Promise<void> {
    const { states, unread, readSince } = dump.rawStates(this.rawState);
    const left = this.leftSinceHeld ?? new Set<string>();
    // The file now holds it as it is: let it go, and read it again on next use, as after a restart. A store
    // growing in one process then holds no more records than one started from its snapshot.
    const letGo = (i: number, id: string) => {
      this.placed.delete(id);
      this.stamps.delete(id);
      states[i] = UNREAD;
    };
    // Raw records read since (few).
    for (const i of readSince) letGo(i, dump.id(i));
    let unreadNow = unread + readSince.length;
    // Placed in the older columns (few are): its old position tells what became of it.
    dump.forEachReplaced((i, held) => {
      const old = (this.raw as RawColumns).find(held.id);
      const state = old < 0 ? GONE : this.placed.get(held.id) === held ? AS_IN_FILE : (this.rawState[old] as number);
      if (state === AS_IN_FILE) {
        letGo(i, held.id);
        unreadNow++;
      } else states[i] = state;
    });
    this.raw = columns;
    this.rawState = states;
    this.unread = unreadNow;
    this.cachedIndexes = indexes;
    return this.adoptWrittenSince(dump, columns, left);
  }

  /**
   * The records written since the older columns, to their places in the new ones (`useSnapshot`): each as
   * written still is let go (read again from the file on next use), one replaced since is held at its place,
   * one deleted since stays out (if put again, it stays after them).
   */
  private async adoptWrittenSince(dump: SnapshotRecords<T>, columns: RawColumns, left: Set<string>): Promise<void> {
    const slices = new WorkSlices(ADOPT_SLICE);
    const written = dump.writtenSince;
    for (let k = 0, i = dump.firstWritten; k < written.length; k++, i++) {
      if (this.raw !== columns) return;
      const held = written[k] as T;
      const now = this.records.get(held.id);
      if (now !== undefined && !left.has(held.id)) {
        this.records.delete(held.id);
        if (now === held) {
          this.stamps.delete(held.id);
          this.rawState[i] = UNREAD;
          this.unread++;
        } else {
          this.placed.set(held.id, now);
          this.rawState[i] = PLACED;
        }
      }
      if (slices.due()) await slices.next();
    }
    if (this.raw === columns) this.leftSinceHeld = null;
  }

  /** The record, the position of an unread one, or undefined. */
  private peek(id: string): Held<T> | undefined {
    const value = this.records.get(id) ?? this.placed.get(id);
    if (value !== undefined || this.unread === 0) return value;
    const position = (this.raw as RawColumns).find(id);
    return position >= 0 && this.rawState[position] === UNREAD ? position : undefined;
  }

  /** Every record as held, in insertion order: the raw columns' (unread or placed), then those written since. */
  private *inOrder(): Generator<[string, Held<T>]> {
    const raw = this.raw;
    if (raw) {
      for (let position = 0; position < raw.ids.length; position++) {
        const state = this.rawState[position];
        const id = raw.ids.at(position);
        if (state === UNREAD) yield [id, position];
        else if (state !== GONE) yield [id, this.placed.get(id) as T];
      }
    }
    yield* this.records;
  }

  private materialize(position: number): T {
    const raw = this.raw as RawColumns;
    const record = raw.read(position) as T;
    const at = raw.at[position] as number;
    if (!Number.isNaN(at)) this.stamps.set(record.id, at);
    this.place(position, record, AS_IN_FILE);
    return record;
  }

  /** Holds `record` at a position of the raw columns that was unread: as read there, or replacing it. */
  private place(position: number, record: T, state: typeof PLACED | typeof AS_IN_FILE): void {
    this.placed.set(record.id, record);
    this.rawState[position] = state;
    this.unread--;
  }

  private remove(id: string): void {
    this.stamps.delete(id);
    this.leftSinceHeld?.add(id);
    if (this.records.delete(id)) return;
    const position = this.raw ? this.raw.find(id) : -1;
    if (position < 0) return;
    if (this.rawState[position] === UNREAD) this.unread--;
    this.placed.delete(id);
    this.rawState[position] = GONE;
  }

  /** The cached keys of this index were made by the same functions, and a sample of raw records agrees. */
  private cachedKeysHold(index: IndexState<T>): boolean {
    const cached = this.cachedIndexes.get(index.name);
    const raws: number[] = [];
    for (let position = 0; position < this.rawState.length; position++) if (this.rawState[position] === UNREAD) raws.push(position);
    if (raws.length === 0) return true;
    if (!cached || cached.fingerprint !== indexFingerprint(index.orderBy !== undefined) || (index.orderBy !== undefined) !== (cached.orders !== undefined))
      return false;
    const step = Math.max(1, Math.floor(raws.length / CACHE_SAMPLES));
    for (let i = 0; i < raws.length; i += step) {
      const position = raws[i] as number;
      const record = (this.raw as RawColumns).read(position) as T;
      if (index.key(record) !== cachedKey(cached, position)) return false;
      if (index.orderBy && index.orderBy(record) !== cached.orders?.[position]) return false;
    }
    return true;
  }

  private keyOf(index: IndexState<T>, value: Held<T>): string | undefined {
    if (typeof value !== 'number') return index.key(value);
    return cachedKey(this.cachedIndexes.get(index.name) as CachedIndex, value);
  }

  private orderOf(index: IndexState<T>, value: Held<T>): number {
    if (typeof value !== 'number') return (index.orderBy as (record: T) => number)(value);
    return ((this.cachedIndexes.get(index.name) as CachedIndex).orders as Float64Array)[value] as number;
  }

  private requireIndex(name: string): IndexState<T> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`collection ${this.name} has no index ${name}`);
    if (!index.built) this.build(index);
    return index;
  }

  private file(index: IndexState<T>, id: string, record: Held<T>): void {
    const value = this.keyOf(index, record);
    if (value === undefined) return;
    if (index.orderBy) {
      let bucket = index.sorted.get(value);
      if (!bucket) index.sorted.set(value, (bucket = { values: [], ids: [] }));
      const order = this.orderOf(index, record);
      // New records usually sort last (creation order): append without moving anything.
      const last = bucket.ids.length - 1;
      const at = last < 0 || compareEntry(bucket, last, order, id) < 0 ? last + 1 : firstAtOrAbove(bucket, order, id);
      if (at === last + 1) {
        bucket.values.push(order);
        bucket.ids.push(id);
      } else {
        bucket.values.splice(at, 0, order);
        bucket.ids.splice(at, 0, id);
      }
      return;
    }
    let bucket = index.buckets.get(value);
    if (!bucket) index.buckets.set(value, (bucket = new Set()));
    bucket.add(id);
  }

  private unfile(index: IndexState<T>, id: string, record: Held<T>): void {
    const value = this.keyOf(index, record);
    if (value === undefined) return;
    if (!index.orderBy) {
      index.buckets.get(value)?.delete(id);
      return;
    }
    const bucket = index.sorted.get(value);
    if (!bucket) return;
    const at = firstAtOrAbove(bucket, this.orderOf(index, record), id);
    if (bucket.ids[at] === id) {
      bucket.values.splice(at, 1);
      bucket.ids.splice(at, 1);
    }
    if (bucket.ids.length === 0) index.sorted.delete(value);
  }
}

/** Negative, zero or positive as entry `i` of the bucket sorts before, with or after (value, id). */
function compareEntry(bucket: OrderedBucket, i: number, value: number, id: string): number {
  const held = bucket.values[i] as number;
  if (held !== value) return held < value ? -1 : 1;
  const heldId = bucket.ids[i] as string;
  return heldId < id ? -1 : heldId > id ? 1 : 0;
}

/** The first position whose entry sorts at or after (value, id); '' sorts before every id. */
function firstAtOrAbove(bucket: OrderedBucket, value: number, id: string): number {
  let low = 0;
  let high = bucket.ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareEntry(bucket, middle, value, id) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first position whose order value is above `value`. */
function firstAbove(bucket: OrderedBucket, value: number): number {
  let low = 0;
  let high = bucket.ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((bucket.values[middle] as number) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function isSorted(bucket: OrderedBucket): boolean {
  for (let i = 1; i < bucket.ids.length; i++) {
    if (compareEntry(bucket, i - 1, bucket.values[i] as number, bucket.ids[i] as string) > 0) return false;
  }
  return true;
}

function sortBucket(bucket: OrderedBucket): void {
  const order = Array.from(bucket.ids, (_, i) => i).sort((a, b) => -compareEntry(bucket, b, bucket.values[a] as number, bucket.ids[a] as string));
  bucket.values = order.map((i) => bucket.values[i] as number);
  bucket.ids = order.map((i) => bucket.ids[i] as string);
}

/**
 * A collection's records as a snapshot holds them, fixed when it was taken and read from there on demand:
 * the kept positions of the raw columns (each a raw record, or the record that replaced it then), then the
 * records written since the columns were loaded; `writtenAt`: when each was written (NaN: unknown).
 */
export class SnapshotRecords<T extends Identified = Identified> {
  static readonly NONE = new SnapshotRecords(undefined, new Int32Array(0), new Map(), [], new Float64Array(0));

  constructor(
    private readonly raw: RawColumns | undefined,
    private readonly positions: Int32Array,
    private readonly replaced: ReadonlyMap<number, T>,
    private readonly written: readonly T[],
    readonly writtenAt: Float64Array,
  ) {}

  get length(): number {
    return this.positions.length + this.written.length;
  }

  /** Whether every record is raw (none replaced or written since the columns). */
  get allRaw(): boolean {
    return this.replaced.size === 0 && this.written.length === 0;
  }

  /** The record at `index` as a snapshot writes it. */
  at(index: number): T | RawRecord {
    const position = this.rawPosition(index);
    if (position < 0) return this.record(index) as T;
    const raw = this.raw as RawColumns;
    return new RawRecord(
      raw.ids.at(position),
      raw.source,
      raw.offsets[position] as number,
      raw.lengths[position] as number,
      position,
      raw.at[position] as number,
    );
  }

  /** The id of the record at `index` (without reading a raw one). */
  id(index: number): string {
    const position = this.rawPosition(index);
    return position < 0 ? (this.record(index) as T).id : (this.raw as RawColumns).ids.at(position);
  }

  /** The position in the raw columns of the raw record at `index`, or -1 for a record held as an object. */
  rawPosition(index: number): number {
    if (index >= this.positions.length) return -1;
    const position = this.positions[index] as number;
    return this.replaced.size > 0 && this.replaced.has(position) ? -1 : position;
  }

  /**
   * What became of each record since (`rawState`: by position in the raw columns), by index, in one pass:
   * a raw record's state at its position (those `readSince` are as in the file: read since), every other
   * record GONE until its caller settles it; and how many are unread.
   */
  rawStates(rawState: Uint8Array): { states: Uint8Array<ArrayBuffer>; unread: number; readSince: number[] } {
    const states = new Uint8Array(this.length).fill(GONE, this.positions.length);
    const readSince: number[] = [];
    let unread = 0;
    for (let i = 0; i < this.positions.length; i++) {
      const state = rawState[this.positions[i] as number] as number;
      states[i] = state;
      if (state === UNREAD) unread++;
      else if (state === AS_IN_FILE) readSince.push(i);
    }
    return { states, unread, readSince };
  }

  /** Each record replaced in the raw columns since, with its index. */
  forEachReplaced(visit: (index: number, record: T) => void): void {
    // The positions are ascending (`forSnapshot` keeps them in order): each replaced one is found by halving.
    for (const [position, record] of this.replaced) {
      let low = 0;
      let high = this.positions.length - 1;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((this.positions[middle] as number) < position) low = middle + 1;
        else high = middle;
      }
      visit(low, record);
    }
  }

  /** The records written since the raw columns, in order, from index `firstWritten` on. */
  get writtenSince(): readonly T[] {
    return this.written;
  }

  get firstWritten(): number {
    return this.positions.length;
  }

  /** The record held as an object at `index` (undefined for a raw one). */
  record(index: number): T | undefined {
    if (index >= this.positions.length) return this.written[index - this.positions.length];
    return this.replaced.get(this.positions[index] as number);
  }
}
