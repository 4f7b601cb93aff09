/**
 * The store: every namespace's collections live in memory; durability comes from an append-only journal
 * of changes beside a lowdb JSON snapshot.
 *
 * - A write is applied in memory at once and appended to the journal; concurrent writes share one
 *   append + fdatasync (group commit). A request's response waits for the append that carries its
 *   writes (`durable()`), so an answered write survives `kill -9`.
 * - The cost of a durable write does not depend on the store's size. When the journal grows past a
 *   threshold (by default 8 MB or half the snapshot, whichever is larger, so rewriting a big store stays a
 *   fixed share of the bytes written) it is compacted: appends move to a new journal generation, the state is written as the
 *   snapshot atomically (lowdb/steno: temp file + rename), and the old journal is deleted.
 * - Start-up only reads: it loads the snapshot and replays the journals (a torn, never acknowledged last
 *   line is cut off first). Journals found there are folded into a new snapshot in the background while
 *   requests are served, once they are worth a rewrite (`foldsAtStart`); below that, appends go on into the
 *   newest. An unchanged snapshot is never rewritten. A clean close compacts when anything
 *   changed, so the JSON file alone then holds the whole state.
 * - A corrupt, foreign or newer-version file stops start-up and is never overwritten; so does a 0-byte
 *   snapshot or a record of the wrong shape (`recordShapes`). `repair` sets damage aside (repair.ts).
 * - A full disk: a failed append is cut back to the last whole line and answered 507 (StorageError); its
 *   lines go first with the next append, which every write retries before it runs. A failed compaction
 *   removes its temporary file, keeps the journals and is retried.
 *
 * - One process per data file: `<file>.lock` (see lock.ts) is taken before the file is read.
 * - A large store starts without parsing the snapshot: `<file>.cache` (snapshot-cache.ts), written beside
 *   each snapshot (and at close when it was missing), says where each record lies in the JSON file and
 *   holds the index keys; records are read on first use. Without a cache that matches the file, start-up
 *   reads and checks the JSON file whole, as always.
 *
 * LIMITATIONS: records must be treated as immutable
 * (replace them with `put`, never mutate) because the snapshot captures references.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { open, stat, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { WorkSlices } from '../background/work-slices.ts';
import { ApiError } from '../errors/api-error.ts';
import { Collection, type CollectionChange, type Identified, SnapshotRecords } from './collection.ts';
import { DamagedFileError, StoreOpenError } from './errors.ts';
import { unwritableDirectoryError } from './unwritable-directory.ts';
import { Repair } from './repair.ts';
import { DataLock, type LockWaiting } from './lock.ts';
import {
  type CachedCollection,
  type CachedIndex,
  cachedKey,
  keyColumn,
  cachePath,
  JoinedIds,
  joinIds,
  columnOf,
  RawColumns,
  type RawRecord,
  readCache,
  type SnapshotCache,
  SnapshotText,
  type StagedCache,
  stageCache,
} from './snapshot-cache.ts';
import {
  damaged,
  emptySnapshot,
  MAX_RECORD_BYTES,
  readJournal,
  recordProblem,
  removeUnfinishedWrites,
  snapshotTempPath,
  SnapshotFile,
  STORE_FORMAT,
  STORE_VERSION,
  syncDirectory,
  type JournalEntry,
  type PausePoint,
  type PreparedCompanion,
  type RecordShapes,
  type RecordSequence,
  type Snapshot,
  type SnapshotLayout,
  type StoredSnapshot,
  WRITTEN_AT,
  WrittenAt,
  WrittenAtColumn,
} from './store-files.ts';

export { StoreOpenError };

const DEFAULT_COMPACT_AFTER_BYTES = 8 * 1024 * 1024;
/** A snapshot smaller than this is read whole at start-up (quick enough): no cache is written beside it. */
const DEFAULT_CACHE_FROM_BYTES = 1024 * 1024;
/** How long a failed background compaction waits before it is tried again. */
const COMPACTION_RETRY_MS = 30_000;
/**
 * Characters of journal text written per append: the changes queued behind one flush can add up to more
 * than the longest string V8 holds (about 512 MB), so they are joined and written in pieces of this size.
 */
const JOURNAL_CHUNK_CHARS = 32 * 1024 * 1024;

/** The queued journal lines as newline-terminated texts of at most JOURNAL_CHUNK_CHARS (or one longer line). */
function* journalChunks(lines: readonly string[]): Generator<string> {
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let chars = 0;
    do chars += (lines[end++] as string).length + 1;
    while (end < lines.length && chars + (lines[end] as string).length + 1 <= JOURNAL_CHUNK_CHARS);
    yield `${lines.slice(start, end).join('\n')}\n`;
    start = end;
  }
}

/**
 * Writes all of `bytes` at the end of a file opened to append, in one write as a rule (a write that takes
 * fewer bytes than given is followed by the rest): a journal append is a few hundred bytes, which need none
 * of `appendFile`'s chunked loop, and their length is the journal's growth without measuring the text again.
 */
async function appendAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let written = 0; written < bytes.length; ) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
}

export interface StoreOptions {
  /** Told once when a background compaction fails (and once when it works again). */
  warn?: (message: string) => void;
  /** JSON file; omit for a memory-only store. */
  file?: string;
  /** Journal size that starts a compaction (env IDV_SANDBOX_COMPACT_AFTER_BYTES; default 8 MB or half the snapshot, whichever is larger). */
  compactAfterBytes?: number;
  /** Snapshot size from which a cache is kept beside it (env IDV_SANDBOX_CACHE_FROM_BYTES; default 1 MB). */
  cacheFromBytes?: number;
  /** The HTTP port this process serves, written into the lock file for whoever is refused. */
  port?: number | null;
  /** The shape each collection's stored records must have; a file holding another is refused at start-up. */
  recordShapes?: RecordShapes;
  /** Set aside what cannot be read instead of refusing to start, keeping a copy of every file it changes. */
  repair?: boolean;
  /** How start-up waits to see whether another host's lock is refreshed (tests pass their own; default real time). */
  lockWaiting?: Pick<LockWaiting, 'wait' | 'now'>;
}

/** The collections of one namespace. */
export class Partition {
  private readonly collections = new Map<string, Collection<Identified>>();
  /** The namespace's virtual clock: every write is stamped with it (retention). */
  private clock: (() => number) | undefined;
  private changeCount = 0;

  constructor(
    readonly namespace: string,
    private sink: (ns: string, change: CollectionChange) => void,
    /** Set on a detached partition: joins the store and gives the sink that keeps its writes. */
    private readonly joinStore?: (partition: Partition) => (ns: string, change: CollectionChange) => void,
  ) {}

  /** A detached partition (of a namespace that did not exist) joins the store: from now on its writes are kept. */
  attach(): void {
    if (this.joinStore) this.sink = this.joinStore(this);
  }

  /** Stamps every later write with the namespace's virtual clock (the world binds its clock here). */
  useClock(now: () => number): void {
    this.clock = now;
  }

  /**
   * How many changes were made to the namespace's records since it was loaded: an answer read from them
   * holds while this stays the same (a dropped namespace is a new partition).
   */
  get changes(): number {
    return this.changeCount;
  }

  collection<T extends Identified>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new Collection<Identified>(
        name,
        (change) => {
          this.changeCount += 1;
          this.sink(this.namespace, change);
        },
        () => this.clock?.(),
      );
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** The collections holding records. */
  filled(): Collection<Identified>[] {
    return [...this.collections.values()].filter((collection) => collection.size > 0);
  }

  /** name → records as a snapshot writes them, with when each was written (WRITTEN_AT) after them. */
  dump(): Map<string, RecordSequence> {
    const out = new Map<string, RecordSequence>();
    const written: WrittenAtColumn[] = [];
    for (const collection of this.filled()) {
      const records = collection.forSnapshot();
      out.set(collection.name, records);
      if (records.writtenAt.some((instant) => !Number.isNaN(instant))) written.push(new WrittenAtColumn(collection.name, records.writtenAt));
    }
    if (written.length > 0) out.set(WRITTEN_AT, written);
    return out;
  }
}

export class Store {
  private readonly partitionsByName = new Map<string, Partition>();
  /** Lines not yet on disk, oldest first: those of a failed append stay at the front and go with the next one. */
  private pending: string[] = [];
  private pendingFlush: Promise<void> | null = null;
  /** The chain of flushes and rotations (never rejects), and the last flush as it ends (may reject). */
  private flushing: Promise<void> = Promise.resolve();
  /** Whether `flushing` has settled: a request that queued nothing then has nothing to wait for. */
  private flushingSettled = true;
  private lastFlush: Promise<void> = Promise.resolve();
  /** Lines queued since open. */
  private queued = 0;
  /** Why the last append failed (a full disk): writes are answered 507 until an append succeeds. */
  private writeProblem: StorageError | null = null;
  private compactionProblem: string | null = null;
  private compactionRetry: NodeJS.Timeout | null = null;
  private journal: FileHandle | null = null;
  private journalBytes = 0;
  /** A failed append whose cut back to the last whole line failed too: the next append cuts first. */
  private journalCutPending = false;
  private snapshotBytes = 0;
  private generation = 0;
  private compacting: Promise<void> | null = null;
  /** Changes journaled since open (replayed journals count as one), and how many the snapshot holds. */
  private changes = 0;
  private snapshotChanges = 0;
  private closed = false;
  /** The snapshot file the raw records are read from, and where its records lie (unknown: no cache can be written). */
  private source: SnapshotText | undefined;
  private layout: SnapshotLayout | undefined;
  /** The cache on disk describes the snapshot, with the keys of the indexes named here (`ns`, collection, index). */
  private cachedIndexNames: Set<string> | null = null;
  private cacheFromBytes = DEFAULT_CACHE_FROM_BYTES;

  private constructor(
    readonly file: string | undefined,
    private readonly db: Low<Snapshot> | undefined,
    private readonly compactAfterBytes: number | undefined,
    private readonly lock: DataLock | undefined,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** Takes the data file's lock before anything else touches it; a refused open leaves no trace. */
  static async open(options: StoreOptions = {}): Promise<Store> {
    if (!options.file) return new Store(undefined, undefined, undefined, undefined);
    const file = options.file;
    let lock: DataLock;
    // The first writes of a start: a directory that cannot be written is refused naming why (EROFS, EACCES).
    try {
      mkdirSync(dirname(file), { recursive: true });
      lock = await DataLock.acquire(file, options.port ?? null, {
        say: options.warn ?? ((message) => console.warn(message)),
        ...options.lockWaiting,
      });
    } catch (error) {
      throw unwritableDirectoryError(file, error) ?? error;
    }
    try {
      return await Store.load(file, options, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static async load(file: string, options: StoreOptions, lock: DataLock): Promise<Store> {
    await removeUnfinishedWrites(file);
    const snapshotFile: SnapshotFile = new SnapshotFile(
      file,
      (point: PausePoint): Promise<void> => (store.compacting ? pauseForFaultTests(point) : Promise.resolve()),
      // The cache is written for the new snapshot before the rename, so no crash leaves it without one.
      (temp, layout, data): Promise<PreparedCompanion> => store.stageSnapshotCache(data.namespaces, layout, SnapshotText.open(temp, file)),
    );
    const db = new Low<Snapshot>(snapshotFile, emptySnapshot(0));
    const store = new Store(file, db, options.compactAfterBytes ?? envBytes('IDV_SANDBOX_COMPACT_AFTER_BYTES'), lock, options.warn);
    store.cacheFromBytes = options.cacheFromBytes ?? envBytes('IDV_SANDBOX_CACHE_FROM_BYTES') ?? DEFAULT_CACHE_FROM_BYTES;
    const repair = options.repair ? new Repair() : undefined;
    const setAside = (error: unknown) => {
      if (!repair || !(error instanceof DamagedFileError)) throw error;
      repair.note(error);
    };
    const cached = repair ? null : await store.openCached();
    let stored: StoredSnapshot | null = cached;
    if (!cached) {
      try {
        stored = await snapshotFile.read();
        store.layout = snapshotFile.layout;
      } catch (error) {
        setAside(error);
      }
    }
    // A snapshot set aside by --repair: the journals beside it are replayed from the oldest one.
    const snapshot = stored ?? emptySnapshot(repair?.touches(file) ? (journalFiles(file)[0]?.generation ?? 0) : 0);
    if (stored) store.snapshotBytes = (await stat(file)).size;
    const journals = journalsToReplay(file, snapshot.generation);
    store.generation = snapshot.generation;
    for (const [ns, collections] of cached ? [] : snapshot.namespaces) {
      const partition = store.partition(ns);
      const written = new Map<string, readonly (number | null)[]>();
      for (const [index, stamps] of (collections.get(WRITTEN_AT) ?? []).entries()) {
        const checked = WrittenAt.safeParse(stamps);
        if (checked.success) written.set(checked.data.id, checked.data.at);
        else
          setAside(damaged(file, `namespaces.${ns}.${WRITTEN_AT}[${index}]`, `not the write instants of a collection (${checked.error.issues[0]?.message})`));
      }
      for (const [name, records] of collections) {
        if (name === WRITTEN_AT) continue;
        const collection = partition.collection(name);
        const stamps = written.get(name);
        for (const [index, record] of records.entries()) {
          const wrong = recordProblem(options.recordShapes, name, record);
          if (wrong) setAside(damaged(file, `namespaces.${ns}.${name}[${index}]${wrong.path}`, `not a stored ${name} record (${wrong.problem})`));
          else collection.apply(record as Identified, stamps?.[index] ?? undefined);
        }
      }
    }
    db.data = emptySnapshot(snapshot.generation);
    let journalBytes = 0;
    for (const [index, { generation, path }] of journals.entries()) {
      journalBytes += (await stat(path)).size;
      let tornBytes = 0;
      const reading = {
        newest: index === journals.length - 1,
        onTornTail: (bytes: number) => (tornBytes = bytes),
        shapes: options.recordShapes,
        onDamage: repair && setAside,
      };
      for await (const entry of readJournal(path, reading)) store.replay(entry);
      // Cut now: should the fold below be interrupted, this journal is no longer the newest one.
      if (tornBytes > 0) await truncate(path, (await stat(path)).size - tornBytes);
      store.generation = generation;
    }
    if (repair?.needed) {
      const report = repair.keepCopies();
      store.changes = 1;
      await store.compact();
      store.warn(report);
    } else if (journals.length > 0) {
      store.changes = 1;
      // No flush is pending yet, so the fold moves appends to the next generation before any request writes.
      // Journals left in place are appended to: the newest one is the current generation's.
      if (store.foldsAtStart(journalBytes)) void store.compactInBackground();
    } else if (!stored) {
      // A first start writes the (empty) snapshot, so the data file exists from then on.
      await store.compact();
    }
    return store;
  }

  /**
   * The snapshot's records unread, from a cache that describes the snapshot on disk; null without one
   * (the snapshot is then read whole). The returned snapshot holds no records: they are in the partitions.
   */
  private async openCached(): Promise<StoredSnapshot | null> {
    const file = this.file as string;
    let source: SnapshotText;
    try {
      source = SnapshotText.open(file);
    } catch {
      return null;
    }
    const identity = source.identity();
    const cache = await readCache(file, identity);
    if (!cache) {
      source.close();
      return null;
    }
    this.source = source;
    this.cachedIndexNames = new Set();
    this.layout = new Map();
    for (const [ns, collections] of cache.namespaces) {
      const partition = this.partition(ns);
      const places = new Map<string, { offsets: ArrayLike<number>; lengths: ArrayLike<number> }>();
      this.layout.set(ns, places);
      for (const [name, columns] of collections) {
        const ids = columns.offsets.length === 0 ? JoinedIds.NONE : JoinedIds.of(columns.ids.join('\n'));
        partition.collection(name).loadRaw(new RawColumns(source, ids, columns.offsets, columns.lengths, columns.at, columns.slots), columns.indexes);
        places.set(name, { offsets: columns.offsets, lengths: columns.lengths });
        for (const [index] of columns.indexes) this.cachedIndexNames.add(cacheIndexName(ns, name, index));
      }
    }
    return emptySnapshot(cache.generation);
  }

  /**
   * Stages the cache of a snapshot (`fresh`, open; `dump`: the records it holds, in its order) with the keys
   * of every declared index, in a temporary file beside its place. Its `place`, run once that snapshot is
   * the data file, puts the cache in place and points the raw records at the file; its `discard`, run when
   * the snapshot never became it, lets both go. A cache that cannot be written is only a slower next
   * start: the failure is told, not thrown.
   */
  private async stageSnapshotCache(dump: Snapshot['namespaces'], layout: SnapshotLayout, fresh: SnapshotText): Promise<PreparedCompanion> {
    const file = this.file as string;
    const letGo = async () => {
      if (fresh !== this.source) fresh.close();
    };
    if (fresh.size() < this.cacheFromBytes) {
      return {
        place: async () => {
          await letGo();
          await unlink(cachePath(file)).catch(() => undefined);
        },
        discard: letGo,
      };
    }
    const cache: SnapshotCache = { format: 'idv-sandbox-store-cache', version: 3, snapshot: fresh.identity(), generation: this.generation, namespaces: [] };
    const indexNames = new Set<string>();
    const adoptions: (() => Promise<void> | undefined)[] = [];
    let whole = true;
    for (const [ns, collections] of dump) {
      const partition = this.partitionsByName.get(ns);
      const cachedCollections: [string, CachedCollection][] = [];
      cache.namespaces.push([ns, cachedCollections]);
      for (const [name, records] of collections) {
        if (name === WRITTEN_AT) continue;
        const places = layout.get(ns)?.get(name);
        if (!places || !(records instanceof SnapshotRecords)) {
          // Not in the file described, or not a dump (cannot happen: the dump is what was written or read):
          // no cache, and the raw records keep both files open.
          whole = false;
          continue;
        }
        const collection = partition?.collection(name);
        const indexes = collection ? await snapshotIndexKeys(collection, records) : [];
        const { ids, slots } = await joinIds(records.length, (i) => records.id(i));
        const columns: CachedCollection = {
          ids: ids.pieces,
          offsets: await columnOf(places.offsets),
          lengths: await columnOf(places.lengths),
          at: records.writtenAt,
          slots,
          indexes,
        };
        cachedCollections.push([name, columns]);
        for (const [index] of indexes) indexNames.add(cacheIndexName(ns, name, index));
        // The records still unread then are read from the new file, at their place in this dump.
        adoptions.push(() =>
          collection?.useSnapshot(records, new RawColumns(fresh, ids, columns.offsets, columns.lengths, columns.at, columns.slots), new Map(indexes)),
        );
      }
    }
    let staged: StagedCache | undefined;
    if (whole) {
      try {
        staged = await stageCache(file, cache);
      } catch (error) {
        this.cacheNotWritten(error);
      }
    }
    return {
      place: async () => {
        if (staged) {
          try {
            await staged.place();
            this.cachedIndexNames = indexNames;
          } catch (error) {
            this.cacheNotWritten(error);
          }
        }
        // Each collection takes the new columns at once; the records written since move to them a slice at a time.
        const adopting = adoptions.map((adopt) => adopt());
        const old = this.source;
        this.source = fresh;
        if (whole && old !== fresh) old?.close();
        await Promise.all(adopting);
      },
      discard: async () => {
        await staged?.discard();
        await letGo();
      },
    };
  }

  private cacheNotWritten(error: unknown): void {
    this.cachedIndexNames = null;
    this.warn(`idv-sandbox: could not write the store cache beside ${this.file} (${(error as Error).message}); the next start reads the JSON file whole.`);
  }

  /** Whether a close with nothing changed should write the cache: none matches the snapshot, or it lacks a declared index. */
  private cacheBehind(): boolean {
    if (!this.layout || this.snapshotBytes < this.cacheFromBytes) return false;
    if (!this.cachedIndexNames) return true;
    for (const [ns, partition] of this.partitionsByName) {
      for (const collection of partition.filled()) {
        for (const { name } of collection.declaredIndexes()) if (!this.cachedIndexNames.has(cacheIndexName(ns, collection.name, name))) return true;
      }
    }
    return false;
  }

  get persistent(): boolean {
    return this.file !== undefined;
  }

  partition(namespace: string): Partition {
    let partition = this.partitionsByName.get(namespace);
    if (!partition) {
      partition = new Partition(namespace, (ns, change) => this.record(ns, change));
      this.partitionsByName.set(namespace, partition);
    }
    return partition;
  }

  namespaces(): string[] {
    return [...this.partitionsByName.keys()];
  }

  hasPartition(namespace: string): boolean {
    return this.partitionsByName.has(namespace);
  }

  /**
   * The partition of a namespace that does not exist, outside the store: reads find nothing and a write is
   * refused until `attach()` makes it the namespace's partition.
   */
  detachedPartition(namespace: string): Partition {
    const refuse = () => {
      throw new ApiError(404, `Namespace "${namespace}" does not exist: a request with an API key (or the control plane) creates it.`);
    };
    return new Partition(namespace, refuse, (partition) => {
      this.partitionsByName.set(namespace, partition);
      return (ns, change) => this.record(ns, change);
    });
  }

  /** Removes every collection of a namespace (reset). */
  dropPartition(namespace: string): void {
    if (!this.partitionsByName.delete(namespace)) return;
    this.appendLine(JSON.stringify({ ns: namespace, op: 'drop' }));
  }

  /** How many changes were queued so far: what `durable(since)` compares with. */
  get changeCount(): number {
    return this.queued;
  }

  /**
   * Why writes cannot be made durable right now (a full disk), or null. Writes are refused with it until
   * a retried append succeeds; reads go on.
   */
  get problem(): StorageError | null {
    return this.writeProblem;
  }

  /** Why the last background compaction failed (it is retried later), or null. */
  get compactionFailure(): string | null {
    return this.compactionProblem;
  }

  /**
   * Resolves once every change made so far is on disk; rejects with a StorageError (507) when the append
   * that carries them failed (nothing of it stays in the journal; its lines are retried with the next one).
   * `since`: the `changeCount` a request started at; when nothing was queued since, it waits for the
   * running flush without failing (a read answers even while the disk is full).
   */
  /**
   * Whether `durable(since)` would wait for nothing: no change queued since and no append or rotation
   * running. A read (most requests) then answers without an await of a settled promise.
   */
  durableAlready(since: number): boolean {
    return this.queued === since && this.flushingSettled;
  }

  durable(since?: number): Promise<void> {
    if (since !== undefined && this.queued === since) return this.flushing;
    if (this.pending.length > 0) return this.scheduleFlush();
    return this.lastFlush;
  }

  /** Flushes, writes the whole state as the snapshot, removes the journals, then releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stopCompactionRetry();
    try {
      await this.durable().catch(() => undefined);
      // A background compaction writes the same temporary file: let it finish before the last one.
      await this.compacting?.catch(() => undefined);
      if (this.changes !== this.snapshotChanges) await this.compact();
      else if (this.cacheBehind()) await this.cacheUnchangedSnapshot();
    } finally {
      await this.closeWithoutCompaction();
    }
  }

  /**
   * Flushes the journal and releases the lock, leaving any compaction unfinished (the next start replays
   * the journals): the stop of a second signal or of a passed shutdown bound.
   */
  async closeWithoutCompaction(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopCompactionRetry();
    // Every acknowledged write waited for its fdatasync; this also writes what was not yet acknowledged.
    await this.flushing;
    if (this.pending.length > 0) await this.scheduleFlush().catch(() => undefined);
    await this.journal?.close().catch(() => undefined);
    this.journal = null;
    this.source?.close();
    this.source = undefined;
    this.lock?.release();
  }

  /** Journals a change; a record too big for the store is refused before the collection applies it. */
  private record(ns: string, change: CollectionChange): void {
    if (!this.persistent) return;
    const entry =
      change.op === 'put'
        ? { ns, op: change.op, c: change.collection, id: change.id, v: change.value, at: change.at }
        : { ns, op: change.op, c: change.collection, id: change.id };
    const line = JSON.stringify(entry);
    if (line.length > MAX_RECORD_BYTES) {
      throw new ApiError(
        413,
        `The ${change.collection} record would take ${(line.length / 1_048_576).toFixed(1)} MB, more than the store keeps per record (${MAX_RECORD_BYTES / 1_048_576} MB): send less data in this request.`,
      );
    }
    this.appendLine(line);
  }

  private appendLine(line: string): void {
    if (!this.persistent) return;
    if (this.closed) throw new Error('the store is closed');
    this.pending.push(line);
    this.queued += 1;
    this.changes += 1;
    void this.scheduleFlush();
  }

  private replay(entry: JournalEntry): void {
    if (entry.op === 'drop') {
      this.partitionsByName.delete(entry.ns);
      return;
    }
    const collection = this.partition(entry.ns).collection(entry.c);
    if (entry.op === 'put') collection.apply(entry.v, entry.at);
    else collection.applyDelete(entry.id);
  }

  private chainFlushing(next: Promise<void>): void {
    this.flushing = next;
    this.flushingSettled = false;
    void next.then(() => {
      if (this.flushing === next) this.flushingSettled = true;
    });
  }

  /** One append + fdatasync for every change queued before it starts. */
  private scheduleFlush(): Promise<void> {
    if (this.pendingFlush) return this.pendingFlush;
    const flush = this.flushing.then(async () => {
      this.pendingFlush = null;
      const lines = this.pending;
      this.pending = [];
      if (lines.length === 0) return;
      try {
        await this.append(lines);
      } catch (error) {
        // In memory already: they go first in the next append, so memory and journal keep one order.
        this.pending = [...lines, ...this.pending];
        this.writeProblem = storageError(error, this.file as string, journalPath(this.file as string, this.generation));
        throw this.writeProblem;
      }
      // Room again after a full disk: a compaction waiting for its retry goes now.
      const retryNow = this.writeProblem !== null && this.compactionRetry !== null;
      this.writeProblem = null;
      if (!this.compacting && (retryNow || (this.journalBytes >= this.compactionThreshold() && !this.compactionRetry))) void this.compactInBackground();
    });
    this.pendingFlush = flush;
    this.lastFlush = flush;
    this.chainFlushing(flush.catch(() => undefined));
    return flush;
  }

  /** Appends whole lines and fdatasyncs; on any failure the journal is cut back to its last whole line. */
  private async append(lines: readonly string[]): Promise<void> {
    const handle = await this.journalHandle();
    const before = this.journalBytes;
    try {
      // A cut that failed last time (the disk refused even that) comes first. Only then: an fstat costs as
      // much CPU as the append itself.
      if (this.journalCutPending) {
        if ((await handle.stat()).size !== before) await handle.truncate(before);
        this.journalCutPending = false;
      }
      for (const data of journalChunks(lines)) {
        const bytes = Buffer.from(data, 'utf8');
        await appendAll(handle, bytes);
        this.journalBytes += bytes.length;
      }
      await handle.datasync();
    } catch (error) {
      this.journalBytes = before;
      await handle.truncate(before).then(
        () => {
          this.journalCutPending = false;
        },
        () => {
          this.journalCutPending = true;
        },
      );
      throw error;
    }
  }

  /**
   * Whether the journals a start found are folded into a new snapshot now. A fold rewrites the whole
   * snapshot: a small store's in a moment, a 1M store's over seconds of background work beside the requests.
   * Journals left in place cost a replay at each start instead (about 50 ms a megabyte, machine loaded). So a start folds
   * once they reach an eighth of the snapshot or the compaction threshold's default (8 MB; the threshold
   * set, when smaller), and a big store restarted after a kill -9 keeps its few MB of journal until then.
   */
  private foldsAtStart(journalBytes: number): boolean {
    return journalBytes >= Math.min(this.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES, this.snapshotBytes / 8);
  }

  private compactionThreshold(): number {
    return this.compactAfterBytes ?? Math.max(DEFAULT_COMPACT_AFTER_BYTES, this.snapshotBytes / 2);
  }

  private async journalHandle(): Promise<FileHandle> {
    if (!this.journal) {
      const handle = await open(journalPath(this.file as string, this.generation), 'a');
      this.journalBytes = (await handle.stat()).size;
      this.journal = handle;
    }
    return this.journal;
  }

  /**
   * A compaction that fails (a full disk) removes its temporary file, keeps the old snapshot and the
   * journals (they hold every change), says so once, and is tried again after COMPACTION_RETRY_MS.
   */
  private compactInBackground(): Promise<void> {
    this.stopCompactionRetry();
    this.compacting = this.compact()
      .then(
        () => {
          if (this.compactionProblem) this.warn(`idv-sandbox: compacting the store ${this.file} works again.`);
          this.compactionProblem = null;
        },
        (error: unknown) => {
          const problem = storageError(error, this.file as string, snapshotTempPath(this.file as string)).message;
          if (!this.compactionProblem)
            this.warn(`idv-sandbox: ${problem} (background compaction; the journal keeps every change, retried every ${COMPACTION_RETRY_MS / 1000} s)`);
          this.compactionProblem = problem;
          if (!this.closed) this.compactionRetry = setTimeout(() => void this.compactInBackground(), COMPACTION_RETRY_MS).unref();
        },
      )
      .finally(() => {
        this.compacting = null;
      });
    return this.compacting;
  }

  private stopCompactionRetry(): void {
    if (this.compactionRetry) clearTimeout(this.compactionRetry);
    this.compactionRetry = null;
  }

  /**
   * Moves appends to a new journal generation, writes the state as of that instant as the snapshot
   * (streamed, fsynced, renamed, directory fsynced), then deletes the older journals. A crash at any
   * point leaves snapshot + journals that replay to the same state.
   */
  private async compact(): Promise<void> {
    if (!this.db || !this.file) return;
    const file = this.file;
    // Counted now: changes made while the rotation waits may be in the snapshot too, and count as unsaved.
    const changes = this.changes;
    // In the flush chain, so no append runs while the journal changes. The current generation's journal is
    // created if nothing was written to it (an empty one): should this compaction fail, the journals on
    // disk still follow on one from another.
    const rotation = this.flushing.then(async () => {
      const oldJournal = this.journal ?? (await open(journalPath(file, this.generation), 'a'));
      const oldGeneration = this.generation;
      this.generation += 1;
      this.journal = null;
      // References to the records of this instant (records are immutable): the writer streams them later.
      const namespaces: Snapshot['namespaces'] = new Map();
      for (const [ns, partition] of this.partitionsByName) namespaces.set(ns, partition.dump());
      await oldJournal.close().catch(() => undefined);
      return { oldGeneration, namespaces };
    });
    this.chainFlushing(
      rotation.then(
        () => undefined,
        () => undefined,
      ),
    );
    const { oldGeneration, namespaces } = await rotation;
    this.db.data = { format: STORE_FORMAT, version: STORE_VERSION, generation: this.generation, namespaces };
    try {
      await this.db.write();
    } finally {
      this.db.data = emptySnapshot(this.generation);
    }
    this.snapshotBytes = (await stat(file)).size;
    this.snapshotChanges = changes;
    for (const { generation, path } of journalFiles(file)) {
      if (generation <= oldGeneration) await unlink(path).catch(() => undefined);
    }
    await syncDirectory(file);
    this.layout = (this.db.adapter as SnapshotFile).layout;
  }

  /** The cache of a snapshot nothing changed since it was read (its records are the partitions' now, in order). */
  private async cacheUnchangedSnapshot(): Promise<void> {
    const dump: Snapshot['namespaces'] = new Map();
    for (const [ns, partition] of this.partitionsByName) dump.set(ns, partition.dump());
    await (await this.stageSnapshotCache(dump, this.layout as SnapshotLayout, this.source ?? SnapshotText.open(this.file as string))).place();
  }
}

/** A change that could not be made durable: 507 with a sentence naming the data file and the fix. */
export class StorageError extends ApiError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(507, message);
  }
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

function storageError(error: unknown, file: string, path: string): StorageError {
  if (error instanceof StorageError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
  const where = `the data directory ${dirname(file)} (data file ${basename(file)})`;
  const message = DISK_FULL.has(code)
    ? `The sandbox could not save this change: the disk holding ${where} is full (${code} writing ${basename(path)}). Free space on that disk or give it a larger quota; writes work again as soon as there is room, without a restart, and reads go on meanwhile.`
    : `The sandbox could not save this change: writing ${path} failed (${code}: ${(error as Error | undefined)?.message ?? String(error)}). Check the disk holding ${where}; writes are tried again with the next request.`;
  return new StorageError(message, code);
}

function journalPath(file: string, generation: number): string {
  return join(dirname(file), `${basename(file)}.journal-${generation}.ndjson`);
}

function journalFiles(file: string): { generation: number; path: string }[] {
  const prefix = `${basename(file)}.journal-`;
  return readdirSync(dirname(file))
    .filter((name) => name.startsWith(prefix) && name.endsWith('.ndjson'))
    .map((name) => {
      const path = join(dirname(file), name);
      const generation = name.slice(prefix.length, -'.ndjson'.length);
      if (!/^\d+$/.test(generation))
        throw damaged(path, 'its name', `a journal generation is a whole number, not "${generation}"; move the file away if it is not the store's`);
      return { generation: Number(generation), path };
    })
    .sort((a, b) => a.generation - b.generation);
}

/**
 * The journals written since the snapshot: generations that follow on from the snapshot's, one by one.
 * Older ones are leftovers of a compaction that stopped before deleting them (the snapshot holds them).
 */
function journalsToReplay(file: string, snapshotGeneration: number): { generation: number; path: string }[] {
  const journals = journalFiles(file).filter(({ generation }) => generation >= snapshotGeneration);
  journals.forEach(({ generation, path }, index) => {
    const expected = snapshotGeneration + index;
    if (generation !== expected) {
      throw damaged(
        path,
        'its generation',
        `the snapshot is at generation ${snapshotGeneration}, so the journals must follow on from journal-${snapshotGeneration}, and journal-${expected} is missing; move the file away if it is not the store's`,
      );
    }
  });
  return journals;
}

function cacheIndexName(ns: string, collection: string, index: string): string {
  return `${ns}\u0000${collection}\u0000${index}`;
}

/** At most this many records between two turns of the event loop while index keys are computed for a cache. */
const KEYS_SLICE = 5000;

/**
 * The keys of a collection's indexes for the records of a dump, in its order: of every declared index
 * (computed, or for a raw record taken from the cache it was loaded with), and of every cached index not
 * declared in this run while all the records are still raw.
 */
async function snapshotIndexKeys(collection: Collection<Identified>, records: SnapshotRecords): Promise<[string, CachedIndex][]> {
  const out: [string, CachedIndex][] = [];
  const cachedKeys = collection.cachedKeys();
  const declared = collection.declaredIndexes();
  const carried = records.allRaw ? [...cachedKeys].filter(([name]) => !declared.some((index) => index.name === name)) : [];
  for (const [name, cached] of carried) declared.push({ name, fingerprint: cached.fingerprint, key: () => undefined });
  for (const { name, fingerprint, key, orderBy } of declared) {
    const cached = cachedKeys.get(name);
    const column = keyColumn(records.length);
    const orders = orderBy || cached?.orders ? new Float64Array(records.length) : undefined;
    const slices = new WorkSlices(KEYS_SLICE);
    for (let i = 0; i < records.length; i++) {
      const position = records.rawPosition(i);
      if (position >= 0 && cached?.fingerprint === fingerprint) {
        column.set(i, cachedKey(cached, position));
        if (orders) orders[i] = cached.orders?.[position] as number;
      } else {
        const record = position >= 0 ? (records.at(i) as RawRecord).parse() : (records.record(i) as Identified);
        column.set(i, key(record));
        if (orders && orderBy) orders[i] = orderBy(record);
      }
      if (slices.due()) await slices.next();
    }
    out.push([name, { fingerprint, values: column.values, keys: column.keys, ...(orders ? { orders } : {}) }]);
  }
  return out;
}

function envBytes(name: string): number | undefined {
  const value = process.env[name];
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Fault tests set IDV_SANDBOX_FAULT_PAUSE to a point where a background compaction's snapshot write stops
 * for good while the server goes on answering; then they SIGKILL the process there.
 */
function pauseForFaultTests(point: PausePoint): Promise<void> {
  if (process.env.IDV_SANDBOX_FAULT_PAUSE !== point) return Promise.resolve();
  console.error(`idv-sandbox: paused at ${point} (IDV_SANDBOX_FAULT_PAUSE)`);
  return new Promise(() => undefined);
}
