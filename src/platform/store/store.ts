/**
 * The store: every namespace's collections live in memory; durability comes from an append-only journal
 * of changes beside a lowdb JSON snapshot.
 *
 * - A write is applied in memory at once and appended to the journal; concurrent writes share one
 *   append + fdatasync (group commit). A request's response waits for the append that carries its
 *   writes (`durable()`), so an answered write survives `kill -9`.
 * - The cost of a durable write does not depend on the store's size. When the journal grows past a
 *   threshold it is compacted: appends move to a new journal generation, the state is written as the
 *   snapshot atomically (lowdb/steno: temp file + rename), and the old journal is deleted.
 * - Start-up loads the snapshot, replays the journals, and compacts; a clean close compacts too, so the
 *   JSON file alone then holds the whole state.
 * - A corrupt, foreign or newer-version file stops start-up and is never overwritten.
 *
 * - One process per data file: `<file>.lock` (see lock.ts) is taken before the file is read.
 *
 * LIMITATIONS: records must be treated as immutable
 * (replace them with `put`, never mutate) because the snapshot captures references.
 */
import { mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { Collection, type CollectionChange, type Identified } from './collection.ts';
import { StoreOpenError } from './errors.ts';
import { DataLock } from './lock.ts';

export { StoreOpenError };

export const STORE_FORMAT = 'idv-sandbox-store';
export const STORE_VERSION = 1;
const DEFAULT_COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

interface Snapshot {
  format: typeof STORE_FORMAT;
  version: number;
  generation: number;
  namespaces: Record<string, Record<string, Identified[]>>;
}

interface JournalEntry {
  ns: string;
  op: 'put' | 'del' | 'drop';
  c?: string;
  id?: string;
  v?: unknown;
}

export interface StoreOptions {
  /** JSON file; omit for a memory-only store. */
  file?: string;
  compactAfterBytes?: number;
  /** The HTTP port this process serves, written into the lock file for whoever is refused. */
  port?: number | null;
}

/** The collections of one namespace. */
export class Partition {
  private readonly collections = new Map<string, Collection<Identified>>();

  constructor(
    readonly namespace: string,
    private readonly sink: (ns: string, change: CollectionChange) => void,
  ) {}

  collection<T extends Identified>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new Collection<Identified>(name, (change) => this.sink(this.namespace, change));
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** name → records, for the snapshot. */
  dump(): Record<string, Identified[]> {
    const out: Record<string, Identified[]> = {};
    for (const [name, collection] of this.collections) if (collection.size > 0) out[name] = collection.all();
    return out;
  }
}

export class Store {
  private readonly partitionsByName = new Map<string, Partition>();
  private pending: string[] = [];
  private pendingFlush: Promise<void> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private journal: FileHandle | null = null;
  private journalBytes = 0;
  private generation = 0;
  private compacting: Promise<void> | null = null;
  private failure: Error | null = null;
  private closed = false;

  private constructor(
    readonly file: string | undefined,
    private readonly db: Low<Snapshot> | undefined,
    private readonly compactAfterBytes: number,
    private readonly lock: DataLock | undefined,
  ) {}

  /** Takes the data file's lock before anything else touches it; a refused open leaves no trace. */
  static async open(options: StoreOptions = {}): Promise<Store> {
    if (!options.file) return new Store(undefined, undefined, Infinity, undefined);
    const file = options.file;
    mkdirSync(dirname(file), { recursive: true });
    const lock = DataLock.acquire(file, options.port ?? null);
    try {
      return await Store.load(file, options, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static async load(file: string, options: StoreOptions, lock: DataLock): Promise<Store> {
    const db = new Low<Snapshot>(new JSONFile<Snapshot>(file), emptySnapshot(0));
    const store = new Store(file, db, options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES, lock);
    const snapshot = readSnapshot(file);
    store.generation = snapshot.generation;
    for (const [ns, collections] of Object.entries(snapshot.namespaces)) {
      const partition = store.partition(ns);
      for (const [name, records] of Object.entries(collections)) {
        const collection = partition.collection(name);
        for (const record of records) collection.apply(record);
      }
    }
    for (const { generation, path } of journalFiles(file)) {
      if (generation < snapshot.generation) continue;
      for (const entry of readJournal(path)) store.replay(entry);
      store.generation = Math.max(store.generation, generation);
    }
    await store.compact();
    return store;
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

  /** Removes every collection of a namespace (reset). */
  dropPartition(namespace: string): void {
    if (!this.partitionsByName.delete(namespace)) return;
    this.append({ ns: namespace, op: 'drop' });
  }

  /** Resolves once every change made so far is on disk. */
  durable(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.length > 0) return this.scheduleFlush();
    return this.flushing;
  }

  /** Flushes, writes the whole state as the snapshot, removes the journals, then releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.durable().catch(() => undefined);
      if (this.persistent) await this.compact();
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
    // Every acknowledged write waited for its fdatasync; this also writes what was not yet acknowledged.
    await this.flushing;
    if (this.pending.length > 0) await this.scheduleFlush().catch(() => undefined);
    await this.journal?.close().catch(() => undefined);
    this.journal = null;
    this.lock?.release();
  }

  private record(ns: string, change: CollectionChange): void {
    const entry: JournalEntry = { ns, op: change.op, c: change.collection, id: change.id };
    if (change.op === 'put') entry.v = change.value;
    this.append(entry);
  }

  private append(entry: JournalEntry): void {
    if (!this.persistent) return;
    if (this.closed) throw new Error('the store is closed');
    this.pending.push(JSON.stringify(entry));
    void this.scheduleFlush();
  }

  private replay(entry: JournalEntry): void {
    if (entry.op === 'drop') {
      this.partitionsByName.delete(entry.ns);
      return;
    }
    if (!entry.c || !entry.id) return;
    const collection = this.partition(entry.ns).collection(entry.c);
    if (entry.op === 'put') collection.apply(entry.v as Identified);
    else collection.applyDelete(entry.id);
  }

  /** One append + fdatasync for every change queued before it starts. */
  private scheduleFlush(): Promise<void> {
    if (this.pendingFlush) return this.pendingFlush;
    const flush = this.flushing.then(async () => {
      this.pendingFlush = null;
      const lines = this.pending;
      this.pending = [];
      if (lines.length === 0) return;
      const data = lines.join('\n') + '\n';
      const handle = await this.journalHandle();
      await handle.appendFile(data, 'utf8');
      await handle.datasync();
      this.journalBytes += Buffer.byteLength(data);
      if (this.journalBytes >= this.compactAfterBytes && !this.compacting) void this.compactInBackground();
    });
    this.pendingFlush = flush;
    this.flushing = flush.catch((error: unknown) => {
      this.failure = error instanceof Error ? error : new Error(String(error));
    });
    return flush;
  }

  private async journalHandle(): Promise<FileHandle> {
    if (!this.journal) {
      this.journal = await open(journalPath(this.file as string, this.generation), 'a');
      this.journalBytes = 0;
    }
    return this.journal;
  }

  private compactInBackground(): Promise<void> {
    this.compacting = this.compact().finally(() => {
      this.compacting = null;
    });
    return this.compacting;
  }

  /**
   * Moves appends to a new journal generation, writes the state as of that instant as the snapshot,
   * then deletes the older journals. A crash at any point leaves snapshot + journals that replay to the
   * same state.
   */
  private async compact(): Promise<void> {
    if (!this.db || !this.file) return;
    await this.flushing;
    const oldJournal = this.journal;
    const oldGeneration = this.generation;
    this.generation += 1;
    this.journal = null;
    const namespaces: Snapshot['namespaces'] = {};
    for (const [ns, partition] of this.partitionsByName) namespaces[ns] = partition.dump();
    this.db.data = { format: STORE_FORMAT, version: STORE_VERSION, generation: this.generation, namespaces };
    await oldJournal?.close();
    await this.db.write();
    for (const { generation, path } of journalFiles(this.file)) {
      if (generation <= oldGeneration) await unlink(path).catch(() => undefined);
    }
  }
}

function emptySnapshot(generation: number): Snapshot {
  return { format: STORE_FORMAT, version: STORE_VERSION, generation, namespaces: {} };
}

function journalPath(file: string, generation: number): string {
  return join(dirname(file), `${basename(file)}.journal-${generation}.ndjson`);
}

function journalFiles(file: string): { generation: number; path: string }[] {
  const prefix = `${basename(file)}.journal-`;
  return readdirSync(dirname(file))
    .filter((name) => name.startsWith(prefix) && name.endsWith('.ndjson'))
    .map((name) => ({ generation: Number(name.slice(prefix.length, -'.ndjson'.length)), path: join(dirname(file), name) }))
    .filter(({ generation }) => Number.isInteger(generation))
    .sort((a, b) => a.generation - b.generation);
}

const FIX = 'Point --data (IDV_SANDBOX_DATA) at another file, use --memory, or move the file away to start fresh.';

function readSnapshot(file: string): Snapshot {
  if (!existsSync(file)) return emptySnapshot(0);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new StoreOpenError(`The data file ${file} is not valid JSON (${(error as Error).message}); it was left untouched. ${FIX}`);
  }
  if (!isRecord(parsed) || parsed.format !== STORE_FORMAT) {
    throw new StoreOpenError(`The data file ${file} is not an idv-sandbox store (no "format": "${STORE_FORMAT}"); it was left untouched. ${FIX}`);
  }
  if (typeof parsed.version !== 'number' || parsed.version > STORE_VERSION) {
    throw new StoreOpenError(
      `The data file ${file} has store version ${String(parsed.version)}, newer than this sandbox understands (${STORE_VERSION}); it was left untouched. Upgrade idv-sandbox, or ${FIX}`,
    );
  }
  if (!isRecord(parsed.namespaces) || typeof parsed.generation !== 'number') {
    throw new StoreOpenError(`The data file ${file} is damaged (namespaces or generation missing); it was left untouched. ${FIX}`);
  }
  return parsed as unknown as Snapshot;
}

/** Journal lines; a torn last line (crash mid-append, never acknowledged) is ignored. */
function readJournal(path: string): JournalEntry[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const entries: JournalEntry[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      const isLast = lines.slice(index + 1).every((rest) => rest.trim() === '');
      if (!isLast) throw new StoreOpenError(`The journal ${path} is damaged at line ${index + 1}; it was left untouched. ${FIX}`);
    }
  });
  return entries;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
