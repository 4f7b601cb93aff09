/**
 * The snapshot cache (`<file>.cache`): what start-up needs to serve a large store without parsing it, kept
 * beside the JSON snapshot, which stays the store. Per collection it holds the records' ids in snapshot
 * order, where each record's line lies in the JSON file, when each was written, a hash table that finds a
 * record's place by id, and the keys of every index the areas declared (with the version of the sandbox
 * that computed them).
 *
 * A start whose cache describes the very snapshot on disk (same device, inode, size and modification time,
 * same generation) keeps every record unread (`RawColumns`: a place in the JSON file), read and parsed on
 * first use; indexes are built from the cached keys. Anything else — no cache, an unreadable one, one written for
 * an older snapshot — is ignored: the JSON file is read and checked whole, as without a cache, and a new
 * cache is written by the next snapshot write or at close. The cache may be deleted at any time.
 */
import { close, fstatSync, openSync, readSync, type BigIntStats } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import packageJson from '../../../package.json' with { type: 'json' };
import { WorkSlices } from '../background/work-slices.ts';

const CACHE_FORMAT = 'idv-sandbox-store-cache';
const CACHE_VERSION = 3;

/**
 * Bytes of a snapshot or its cache written between two fdatasyncs of it: left to the kernel, a store's
 * worth of dirty pages made every journal fdatasync meanwhile wait for them (a gigabyte: up to 300 ms per
 * acknowledged write; flushed every 32 MB, at most 40 ms).
 */
export const SYNC_EVERY_BYTES = 32 * 1024 * 1024;

/** One version of the snapshot file, held open so its records can be read after a newer one replaced it. */
export class SnapshotText {
  private constructor(
    private readonly fd: number,
    readonly file: string,
  ) {}

  /** `file` opened, named `named` (a snapshot written to a temporary file is read under its final name). */
  static open(file: string, named = file): SnapshotText {
    return new SnapshotText(openSync(file, 'r'), named);
  }

  /** The file's identity: what a cache must name to be trusted (a rename keeps it). */
  identity(): string {
    return identityOf(fstatSync(this.fd, { bigint: true }));
  }

  size(): number {
    return fstatSync(this.fd).size;
  }

  text(offset: number, length: number): string {
    return this.bytes(offset, length).toString('utf8');
  }

  /** The bytes at [offset, offset + length), fewer where the file ends first. */
  bytes(offset: number, length: number): Buffer {
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const got = readSync(this.fd, bytes, read, length - read, offset + read);
      if (got === 0) break;
      read += got;
    }
    return bytes.subarray(0, read);
  }

  /**
   * On libuv's thread pool: closing the last descriptor of a snapshot a compaction replaced frees the file's
   * blocks, which for a million records' 1.2 GB took 260 ms here, and held the event loop as long.
   */
  close(): void {
    close(this.fd, ignoreCloseError);
  }
}

/** Nothing reads a closed snapshot again; a descriptor the kernel refused to close is the process's until exit. */
const ignoreCloseError = () => undefined;

function identityOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}

/**
 * A record not read yet, as a snapshot about to be written holds it: where its JSON lies in a snapshot
 * file. `position`: its place in its collection's cached columns; `at`: when it was written (NaN: unknown).
 */
export class RawRecord {
  constructor(
    readonly id: string,
    readonly source: SnapshotText,
    readonly offset: number,
    readonly length: number,
    readonly position: number,
    readonly at: number,
  ) {}

  /** The record, parsed from its JSON in the file. */
  parse(): { id: string } {
    return parseAt(this.source, this.offset, this.length, this.id);
  }
}

function parseAt(source: SnapshotText, offset: number, length: number, id: string): { id: string } {
  const record = JSON.parse(source.text(offset, length)) as { id?: unknown };
  if (record?.id !== id) {
    throw new Error(`The store file ${source.file} changed under the running sandbox: record ${id} is no longer where it was. Restart the sandbox.`);
  }
  return record as { id: string };
}

/** A shift that puts every position of a text held whole in its one piece. */
const ONE_PIECE_SHIFT = 31;

/**
 * The ids of a collection's cached records, newline-separated as the cache holds them, and where each one
 * starts: an id is cut out of the text when asked for. Splitting the text at a start made a string per
 * record (100k ids: some 50 ms, most of it collecting them, and 4 MB held). The text may be held in pieces
 * of 2^pieceShift ids each (`joinIds`), newline-separated too: joining a million ids into one string took
 * 87 ms in one step, held off every request (a snapshot written after a purge of a 1M store).
 */
export class JoinedIds {
  static readonly NONE = JoinedIds.of('', 0);

  /** The ids in one text (as the cache file holds them); `length` when the count is known. */
  static of(text: string, length = lineCount(text)): JoinedIds {
    const starts = new Int32Array(length + 1);
    let start = 0;
    for (let position = 0; position < length; position++) {
      starts[position] = start;
      const end = text.indexOf('\n', start);
      start = (end < 0 ? text.length : end) + 1;
    }
    starts[length] = start;
    return new JoinedIds([text], ONE_PIECE_SHIFT, length, starts);
  }

  /**
   * `pieces`: the text, cut after every 2^pieceShift ids (the newline between two pieces left out);
   * `starts`: where each id starts in the whole text, and after the last, one past the text's end.
   */
  constructor(
    readonly pieces: readonly string[],
    private readonly pieceShift: number,
    readonly length: number,
    private readonly starts: Int32Array,
  ) {}

  /** The id at a position. */
  at(position: number): string {
    const [piece, start, end] = this.place(position);
    return piece.slice(start, end);
  }

  /** Whether the id at a position is `id` (without cutting it out). */
  is(position: number, id: string): boolean {
    const [piece, start, end] = this.place(position);
    return end - start === id.length && piece.startsWith(id, start);
  }

  /** The piece holding the id at a position, and where the id starts and ends in it. */
  private place(position: number): [string, number, number] {
    const piece = position >>> this.pieceShift;
    const base = this.starts[piece << this.pieceShift] as number;
    return [this.pieces[piece] as string, (this.starts[position] as number) - base, (this.starts[position + 1] as number) - 1 - base];
  }
}

/** The lines of a text, as many as `split('\n')` gives. */
function lineCount(text: string): number {
  let lines = 1;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', end + 1)) lines++;
  return lines;
}

/**
 * A collection's records in a snapshot file, unread, as columns (position i is the i-th record): no object
 * per record, and instead of a Map of every id (slow to fill with a million) an open-addressing table of
 * positions by a hash of the id (`joinIds`), which the cache holds.
 */
export class RawColumns {
  constructor(
    readonly source: SnapshotText,
    readonly ids: JoinedIds,
    /** Where each record's JSON starts in the file, its length in bytes, and when it was written (NaN: unknown). */
    readonly offsets: ArrayLike<number>,
    readonly lengths: ArrayLike<number>,
    readonly at: ArrayLike<number>,
    /** position + 1 at the slot of the id's hash (or a later one, linear probing); 0: empty. */
    private readonly slots: Int32Array,
  ) {}

  /** The position of the record with this id, or -1. */
  find(id: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashId(id) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot] as number;
      if (held === 0) return -1;
      if (this.ids.is(held - 1, id)) return held - 1;
    }
  }

  /** The record at a position, parsed from its JSON in the file. */
  read(position: number): { id: string } {
    return parseAt(this.source, this.offsets[position] as number, this.lengths[position] as number, this.ids.at(position));
  }
}

/** At most this many ids hashed between two turns of the event loop while a table is filled (one takes tens of nanoseconds). */
const HASH_SLICE = 20_000;
/** Ids joined into one piece of the text (2^this): a million ids are some 250 pieces of ~120 KB. */
const IDS_PER_PIECE_SHIFT = 12;
const IDS_PER_PIECE = 1 << IDS_PER_PIECE_SHIFT;
/** Numbers copied into a column between two turns of the event loop (a copy takes a few nanoseconds). */
const COPY_SLICE = 100_000;

/**
 * The ids of `count` records (`idAt`), joined as the cache holds them but kept in pieces, with where each
 * starts and the hash table of `RawColumns` (a power of two of at least twice as many slots), built a slice
 * at a time: for a million ids, joining them and finding their starts at once took some 60 ms.
 */
export async function joinIds(count: number, idAt: (position: number) => string): Promise<{ ids: JoinedIds; slots: Int32Array }> {
  const slots = new Int32Array(slotCount(count));
  const mask = slots.length - 1;
  const starts = new Int32Array(count + 1);
  const pieces: string[] = [];
  let piece: string[] = [];
  let start = 0;
  const slices = new WorkSlices(HASH_SLICE);
  for (let position = 0; position < count; position++) {
    const id = idAt(position);
    starts[position] = start;
    start += id.length + 1;
    let slot = hashId(id) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = position + 1;
    piece.push(id);
    if (piece.length === IDS_PER_PIECE) {
      pieces.push(piece.join('\n'));
      piece = [];
    }
    if (slices.due()) await slices.next();
  }
  if (piece.length > 0) pieces.push(piece.join('\n'));
  starts[count] = start;
  return { ids: count === 0 ? JoinedIds.NONE : new JoinedIds(pieces, IDS_PER_PIECE_SHIFT, count, starts), slots };
}

/**
 * A copy of `values` as a column, a slice at a time: a million numbers copied at once (a snapshot's record
 * places) took some 20 ms on a loaded server.
 */
export async function columnOf(values: ArrayLike<number>): Promise<Float64Array> {
  const column = new Float64Array(values.length);
  const slices = new WorkSlices(COPY_SLICE);
  for (let i = 0; i < values.length; i++) {
    column[i] = values[i] as number;
    if (slices.due()) await slices.next();
  }
  return column;
}

function slotCount(records: number): number {
  let size = 8;
  while (size < records * 2) size *= 2;
  return size;
}

/** 32-bit FNV-1a of the id's UTF-16 code units. */
function hashId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The keys one index gives the records of a collection, in snapshot order: each record's key as its place
 * in `values` (-1: not filed), and for an ordered index its order value.
 */
export interface CachedIndex {
  fingerprint: string;
  values: string[];
  keys: Int32Array;
  orders?: Float64Array;
}

export interface CachedCollection {
  /** The ids, newline-separated (one string reads back faster than many), in pieces (`JoinedIds.pieces`). */
  ids: readonly string[];
  /** Where each record's JSON starts in the snapshot file, and its length in bytes (no separator). */
  offsets: Float64Array;
  lengths: Float64Array;
  /** When each was written on the namespace's clock, NaN where unknown. */
  at: Float64Array;
  /** The table that finds a record's position by id (`idSlots`). */
  slots: Int32Array;
  indexes: [string, CachedIndex][];
}

/** A column of index keys, each distinct key kept once. */
export function keyColumn(count: number): { keys: Int32Array; values: string[]; set(i: number, key: string | undefined): void } {
  const keys = new Int32Array(count);
  const values: string[] = [];
  const places = new Map<string, number>();
  return {
    keys,
    values,
    set(i, key) {
      if (key === undefined) {
        keys[i] = -1;
        return;
      }
      let place = places.get(key);
      if (place === undefined) {
        place = values.length;
        values.push(key);
        places.set(key, place);
      }
      keys[i] = place;
    },
  };
}

/** The key of record `position` in a cached index. */
export function cachedKey(index: CachedIndex, position: number): string | undefined {
  const place = index.keys[position] as number;
  return place < 0 ? undefined : index.values[place];
}

export interface SnapshotCache {
  format: typeof CACHE_FORMAT;
  version: typeof CACHE_VERSION;
  /** The snapshot file it describes (`snapshotIdentity`) and that file's generation. */
  snapshot: string;
  generation: number;
  namespaces: [string, [string, CachedCollection][]][];
}

export function cachePath(file: string): string {
  return `${file}.cache`;
}

/** Where a cache is written before it is renamed into place. */
export function cacheTempPath(file: string): string {
  return `${cachePath(file)}.tmp`;
}

/**
 * The cache file (format 3): each collection's columns as their bytes, in the order `columnsOf` gives,
 * each padded to 8 bytes, then the v8-serialized cache with every column replaced by its length
 * (`CacheHeader`), then that header's length (8 bytes). Written from the columns' own memory, not as one
 * serialized copy: a million records' 117 MB took 75 ms to serialize at once, held off every request.
 */
interface CacheHeader extends Omit<SnapshotCache, 'namespaces'> {
  namespaces: [
    string,
    [string, { count: number; idsBytes: number; slotCount: number; indexes: [string, Omit<CachedIndex, 'keys' | 'orders'> & { ordered: boolean }][] }][],
  ][];
}

const TRAILER_BYTES = 8;

/** The columns of a cached collection as the file holds them, in order (the ids as UTF-8 text). */
function columnsOf(columns: CachedCollection): (readonly string[] | Float64Array | Int32Array)[] {
  return [
    columns.ids,
    columns.offsets,
    columns.lengths,
    columns.at,
    columns.slots,
    ...columns.indexes.flatMap(([, index]) => (index.orders ? [index.keys, index.orders] : [index.keys])),
  ];
}

const padded = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** Characters of the ids encoded at a time: a million ids (36 MB) took some 40 ms to encode at once. */
const TEXT_PIECE_CHARS = 1 << 20;

/** The text of `pieces` joined by newlines, in strings of about TEXT_PIECE_CHARS, never cut inside a surrogate pair. */
function* textPieces(pieces: readonly string[]): Generator<string> {
  let pending = '';
  for (let i = 0; i < pieces.length; i++) {
    pending += i === 0 ? pieces[i] : `\n${pieces[i]}`;
    const last = i === pieces.length - 1;
    while (pending.length >= TEXT_PIECE_CHARS || (last && pending.length > 0)) {
      let end = Math.min(pending.length, TEXT_PIECE_CHARS);
      const code = pending.charCodeAt(end - 1);
      if (end < pending.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
      yield pending.slice(0, end);
      pending = pending.slice(end);
    }
  }
}

/** The cache of `file` when it describes the snapshot on disk now and is whole, else null (it is then ignored). */
export async function readCache(file: string, identity: string): Promise<SnapshotCache | null> {
  let handle: FileHandle;
  try {
    handle = await open(cachePath(file), 'r');
  } catch {
    return null;
  }
  try {
    const size = (await handle.stat()).size;
    const readAt = async (bytes: Uint8Array, position: number) => {
      if (position + bytes.length > size) throw new Error('the cache is shorter than its header says');
      for (let read = 0; read < bytes.length; ) read += (await handle.read(bytes, read, bytes.length - read, position + read)).bytesRead;
    };
    const trailer = Buffer.alloc(TRAILER_BYTES);
    await readAt(trailer, size - TRAILER_BYTES);
    const headerBytes = Buffer.alloc(Number(trailer.readBigUInt64LE()));
    await readAt(headerBytes, size - TRAILER_BYTES - headerBytes.length);
    const header = deserialize(headerBytes) as CacheHeader;
    if (header?.format !== CACHE_FORMAT || header.version !== CACHE_VERSION || header.snapshot !== identity || !Array.isArray(header.namespaces)) return null;
    let position = 0;
    const column = async <C extends Float64Array | Int32Array>(make: new (length: number) => C, length: number): Promise<C> => {
      const values = new make(length);
      await readAt(new Uint8Array(values.buffer), position);
      position += padded(values.byteLength);
      return values;
    };
    const cache: SnapshotCache = { ...header, namespaces: [] };
    for (const [ns, collections] of header.namespaces) {
      const cachedCollections: [string, CachedCollection][] = [];
      cache.namespaces.push([ns, cachedCollections]);
      for (const [name, { count, idsBytes, slotCount, indexes }] of collections) {
        const idsText = Buffer.allocUnsafe(idsBytes);
        await readAt(idsText, position);
        position += padded(idsBytes);
        const ids = [idsText.toString('utf8')];
        const offsets = await column(Float64Array, count);
        const lengths = await column(Float64Array, count);
        const at = await column(Float64Array, count);
        const slots = await column(Int32Array, slotCount);
        const cachedIndexes: [string, CachedIndex][] = [];
        for (const [index, { ordered, ...rest }] of indexes) {
          const keys = await column(Int32Array, count);
          cachedIndexes.push([index, { ...rest, keys, ...(ordered ? { orders: await column(Float64Array, count) } : {}) }]);
        }
        cachedCollections.push([name, { ids, offsets, lengths, at, slots, indexes: cachedIndexes }]);
      }
    }
    return isWhole(cache) ? cache : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

function isWhole(cache: SnapshotCache): boolean {
  if (!Number.isInteger(cache.generation)) return false;
  return cache.namespaces.every(
    ([ns, collections]) =>
      typeof ns === 'string' &&
      collections.every(([name, c]) => {
        const n = c.offsets.length;
        return (
          typeof name === 'string' &&
          c.slots.length === slotCount(n) &&
          c.slots.every((held) => held >= 0 && held <= n) &&
          c.indexes.every(([, index]) => Array.isArray(index.values))
        );
      }),
  );
}

/** Written whole beside the snapshot, then renamed into place; a failure leaves no cache, never a torn one. */
export async function writeCache(file: string, cache: SnapshotCache): Promise<void> {
  await (await stageCache(file, cache)).place();
}

/** A cache written whole to a temporary file beside its place: put there by `place`, or removed by `discard`. */
export interface StagedCache {
  place(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Writes the cache to a temporary file beside its place (fdatasynced every SYNC_EVERY_BYTES); a failure
 * leaves no file. The event loop turns between two columns.
 */
export async function stageCache(file: string, cache: SnapshotCache): Promise<StagedCache> {
  const path = cachePath(file);
  const temp = cacheTempPath(file);
  const discard = () => unlink(temp).catch(() => undefined);
  const place = async () => {
    try {
      await rename(temp, path);
    } catch (error) {
      await discard();
      throw error;
    }
  };
  try {
    const handle = await open(temp, 'w');
    try {
      let written = 0;
      let unsynced = 0;
      const put = async (bytes: Uint8Array) => {
        for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
        written += bytes.length;
        unsynced += bytes.length;
        if (unsynced < SYNC_EVERY_BYTES) return;
        unsynced = 0;
        await handle.datasync();
      };
      const header: CacheHeader = { ...cache, namespaces: [] };
      for (const [ns, collections] of cache.namespaces) {
        const described: CacheHeader['namespaces'][number][1] = [];
        header.namespaces.push([ns, described]);
        for (const [name, columns] of collections) {
          let idsBytes = 0;
          for (const values of columnsOf(columns)) {
            if (ArrayBuffer.isView(values)) await put(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
            else {
              const from = written;
              for (const piece of textPieces(values)) await put(Buffer.from(piece, 'utf8'));
              idsBytes = written - from;
            }
            await put(new Uint8Array(padded(written) - written));
          }
          const indexes = columns.indexes.map(([index, { keys, orders, ...rest }]): CacheHeader['namespaces'][number][1][number][1]['indexes'][number] => [
            index,
            { ...rest, ordered: orders !== undefined },
          ]);
          described.push([name, { count: columns.offsets.length, idsBytes, slotCount: columns.slots.length, indexes }]);
        }
      }
      const headerBytes = serialize(header);
      const trailer = Buffer.alloc(TRAILER_BYTES);
      trailer.writeBigUInt64LE(BigInt(headerBytes.length));
      await put(headerBytes);
      await put(trailer);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await discard();
    throw error;
  }
  return { place, discard };
}

/**
 * What a cached index's keys were computed by: this version of the sandbox (the areas' index functions are
 * part of it; their source text differs between the built and the TypeScript code, so it cannot serve).
 * Within a version, `Collection.index` still checks a sample of records against the cached keys.
 */
export function indexFingerprint(ordered: boolean): string {
  return `${packageJson.version}${ordered ? ' ordered' : ''}`;
}
