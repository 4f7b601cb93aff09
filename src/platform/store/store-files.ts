/**
 * The store's files and their schemas: the snapshot (one JSON document, one record per line, no
 * indentation, written streamed so no string ever holds the whole store) and the journals (one change per
 * line). Reading validates every line against the schemas below; anything else than a torn last line of
 * the newest journal refuses start-up with a message naming the file, the place and the fix.
 */
import { createReadStream, existsSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import { z } from 'zod';
import { DamagedFileError, StoreOpenError } from './errors.ts';
import { cacheTempPath, RawRecord, SYNC_EVERY_BYTES } from './snapshot-cache.ts';

export const STORE_FORMAT = 'idv-sandbox-store';
export const STORE_VERSION = 1;

/** The largest record the store keeps (its JSON): a bigger one is refused before it is stored. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

const FIX = 'Point --data (IDV_SANDBOX_DATA) at another file, use --memory, or move the file away to start fresh.';
const REPAIR =
  'Restore the data directory from a backup, or start once with --repair: it sets aside what cannot be read and keeps a copy of every file it changes (<file>.before-repair).';

const Name = z.string().min(1);
const StoredRecord = z.looseObject({ id: Name });

const SnapshotHeader = z.object({
  format: z.literal(STORE_FORMAT),
  version: z.number().int().min(1).max(STORE_VERSION),
  generation: z.number().int().nonnegative(),
});
/**
 * StoredRecord's rule checked directly: a snapshot line is read once per record at start-up, where the
 * schema's parse (and the copy it makes) was a third of the read. The schema still words a refusal.
 */
function isStoredRecord(value: unknown): value is { id: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0;
}
const Snapshot = SnapshotHeader.extend({ namespaces: z.record(Name, z.record(Name, z.array(StoredRecord))) });
/**
 * A collection's records in snapshot order: an array as read, or a collection's records as a snapshot
 * being written takes them (`SnapshotRecords`), which may hold raw records (copied from the older file
 * unread) and write instants as columns.
 */
export interface RecordSequence {
  readonly length: number;
  at(index: number): { id: string } | RawRecord | WrittenAtColumn | undefined;
}

/** namespace → collection → records, in Maps: a namespace may be called `__proto__` or `constructor`. */
export type Snapshot = z.infer<typeof SnapshotHeader> & { namespaces: Map<string, Map<string, RecordSequence>> };
/** A snapshot as read from its file. */
export type StoredSnapshot = z.infer<typeof SnapshotHeader> & { namespaces: Map<string, Map<string, { id: string }[]>> };

/** Where each record's JSON lies in a snapshot file (bytes), per namespace and collection, in record order. */
export type SnapshotLayout = Map<string, Map<string, { offsets: ArrayLike<number>; lengths: ArrayLike<number> }>>;

/** Epoch milliseconds on a namespace's virtual clock. */
const Instant = z.number().int().nonnegative();

export const JournalEntry = z.discriminatedUnion('op', [
  z.object({ op: z.literal('put'), ns: Name, c: Name, id: Name, v: StoredRecord, at: Instant.optional() }).refine((entry) => entry.v.id === entry.id, {
    message: 'the record id (v.id) differs from the entry id',
    path: ['v', 'id'],
  }),
  z.object({ op: z.literal('del'), ns: Name, c: Name, id: Name }),
  z.object({ op: z.literal('drop'), ns: Name }),
]);
export type JournalEntry = z.infer<typeof JournalEntry>;

/**
 * The snapshot's one collection that holds no records of an area: per collection, when each of its records
 * was last written on the namespace's virtual clock (retention reads it), in the order of the records,
 * null where unknown (a store written before the stamps existed).
 */
export const WRITTEN_AT = '__written_at';
export const WrittenAt = z.object({ id: Name, at: z.array(Instant.nullable()) });
export type WrittenAt = z.infer<typeof WrittenAt>;

/**
 * A collection's write instants as a snapshot being written holds them (NaN: unknown), written as its
 * WrittenAt line a slice of instants at a time: a million of them made one JSON text of 14 MB at once.
 */
export class WrittenAtColumn {
  constructor(
    readonly id: string,
    readonly at: Float64Array,
  ) {}
}

/** Instants written between two chances for the writer to yield (one chunk of text holds about 18,000). */
const INSTANTS_PER_PIECE = 16_384;

/** Where a snapshot is written before it is renamed into place. */
export function snapshotTempPath(file: string): string {
  return `${file}.tmp`;
}

/**
 * Removes what a snapshot write that never finished left beside the data file: its temporary snapshot and
 * cache. A stop cut by the shutdown bound while a large store wrote its snapshot leaves them (a million
 * sessions: 1.3 GB). Called with the file's lock held, so no other process is writing them.
 */
export async function removeUnfinishedWrites(file: string): Promise<void> {
  await Promise.all([snapshotTempPath(file), cacheTempPath(file)].map((path) => unlink(path).catch(() => undefined)));
}

export function emptySnapshot(generation: number): StoredSnapshot {
  return { format: STORE_FORMAT, version: STORE_VERSION, generation, namespaces: new Map() };
}

/** Where a write may stop so the fault tests can SIGKILL it there (env IDV_SANDBOX_FAULT_PAUSE). */
export type PausePoint = 'snapshot-partial' | 'snapshot-renamed';

/**
 * What goes beside a snapshot (its cache): prepared once the snapshot is written to its temporary file
 * (`temp`, whose records lie at `layout`), before it takes the file's name; placed right after the rename,
 * or discarded when the rename fails.
 */
export type SnapshotCompanion = (temp: string, layout: SnapshotLayout, data: Snapshot) => Promise<PreparedCompanion>;
export interface PreparedCompanion {
  place(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * The snapshot as a lowdb adapter: `write` streams the state to a temp file in chunks (the event loop
 * runs between them), fsyncs it, prepares its companion, renames it over the file, places the companion
 * and fsyncs the directory; `read` validates.
 */
export class SnapshotFile implements Adapter<Snapshot> {
  /** Where the records of the file last read or written lie in it (a document not in the streamed layout: none). */
  layout: SnapshotLayout | undefined;

  constructor(
    readonly file: string,
    private readonly pauseAt: (point: PausePoint) => Promise<void> = async () => undefined,
    private readonly companion?: SnapshotCompanion,
  ) {}

  async read(): Promise<StoredSnapshot | null> {
    if (!existsSync(this.file)) return null;
    const lines = readLines(this.file);
    const first = await lines.next();
    // Never read as an empty store: the next compaction would then overwrite what the journals hold.
    if (first.done) throw damaged(this.file, 'its start', 'the file is empty (0 bytes), as a crash or a full disk can leave it');
    this.layout = undefined;
    if (first.value.text.endsWith(HEADER_END)) {
      this.layout = new Map();
      return readStreamedLayout(this.file, first.value.text, lines, this.layout);
    }
    await lines.return(undefined);
    return parseWholeDocument(this.file, await readFile(this.file, 'utf8'));
  }

  async write(data: Snapshot): Promise<void> {
    const temp = snapshotTempPath(this.file);
    let companion: PreparedCompanion | undefined;
    try {
      await this.writeTemp(temp, data);
      // Before the rename, however long it takes (a million records' cache: seconds): a crash then finds
      // the old snapshot with its own cache, and one after finds the new one with its own, but for the
      // instant between the two renames.
      if (this.companion && this.layout) companion = await this.companion(temp, this.layout, data);
      await rename(temp, this.file);
    } catch (error) {
      // A full disk or any other failure: the old snapshot stays as it was, and no temporary file is left.
      await companion?.discard();
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await companion?.place();
    await this.pauseAt('snapshot-renamed');
    await syncDirectory(this.file);
  }

  private async writeTemp(temp: string, data: Snapshot): Promise<void> {
    const handle = await open(temp, 'w');
    const layout: SnapshotLayout = new Map();
    try {
      let chunk = '';
      let paused = false;
      let bytes = 0;
      let unsynced = 0;
      const write = async (data: string | Buffer) => {
        await handle.writeFile(data);
        if (!paused) await this.pauseAt('snapshot-partial');
        paused = true;
        unsynced += data.length;
        if (unsynced < SYNC_EVERY_BYTES) return;
        unsynced = 0;
        await handle.datasync();
      };
      const put = async (text: string, length = Buffer.byteLength(text)) => {
        bytes += length;
        chunk += text;
        if (chunk.length < CHUNK_CHARS) return;
        const full = chunk;
        chunk = '';
        await write(full);
      };
      /** Bytes written as they are (after the text gathered before them); a short piece joins the text. */
      const putBytes = async (data: Buffer) => {
        if (data.length < COPY_AS_TEXT_BYTES) return put(data.toString('utf8'), data.length);
        const gathered = chunk;
        chunk = '';
        if (gathered !== '') await write(gathered);
        bytes += data.length;
        await write(data);
      };
      /** The text JSON.stringify gives a WrittenAt, put a slice of instants at a time. */
      const putWrittenAt = async ({ id, at }: WrittenAtColumn) => {
        await put(`{"id":${JSON.stringify(id)},"at":[`);
        for (let start = 0; start < at.length; start += INSTANTS_PER_PIECE) {
          const piece: string[] = [];
          for (let i = start; i < Math.min(at.length, start + INSTANTS_PER_PIECE); i++) piece.push(Number.isNaN(at[i]) ? 'null' : String(at[i]));
          await put(`${start === 0 ? '' : ','}${piece.join(',')}`);
        }
        await put(']}');
      };
      const { namespaces, ...header } = data;
      await put(`${JSON.stringify(header).slice(0, -1)}${HEADER_END}\n`);
      const spaces = [...namespaces];
      for (const [n, [ns, collections]] of spaces.entries()) {
        await put(`${JSON.stringify(ns)}:{\n`);
        const named = [...collections];
        const places = new Map<string, { offsets: number[]; lengths: number[] }>();
        layout.set(ns, places);
        for (const [c, [name, records]] of named.entries()) {
          await put(`${JSON.stringify(name)}:[\n`);
          const offsets: number[] = [];
          const lengths: number[] = [];
          places.set(name, { offsets, lengths });
          const separator = (i: number) => (i < records.length - 1 ? ',\n' : '\n');
          for (let i = 0; i < records.length; ) {
            const record = records.at(i);
            if (record instanceof WrittenAtColumn) {
              offsets.push(bytes);
              await putWrittenAt(record);
              lengths.push(bytes - (offsets.at(-1) as number));
              await put(separator(i), separator(i).length);
              i += 1;
              continue;
            }
            if (!(record instanceof RawRecord)) {
              const text = JSON.stringify(record);
              const length = Buffer.byteLength(text);
              offsets.push(bytes);
              lengths.push(length);
              await put(`${text}${separator(i)}`, length + separator(i).length);
              i += 1;
              continue;
            }
            // Raw records are copied unread as they lie in the older file; a run of them that lie one after
            // the other there (",\n" between them) is copied in one read, separators included.
            const run = [record];
            let span = record.length;
            while (i + run.length < records.length && span < CHUNK_CHARS) {
              const next = records.at(i + run.length);
              if (!(next instanceof RawRecord) || next.source !== record.source || next.offset !== record.offset + span + 2) break;
              span = next.offset + next.length - record.offset;
              run.push(next);
            }
            for (const copied of run) {
              offsets.push(bytes + copied.offset - record.offset);
              lengths.push(copied.length);
            }
            const end = i + run.length;
            await putBytes(record.source.bytes(record.offset, span));
            await put(separator(end - 1), separator(end - 1).length);
            i = end;
          }
          await put(c < named.length - 1 ? '],\n' : ']\n');
        }
        await put(n < spaces.length - 1 ? '},\n' : '}\n');
      }
      await handle.writeFile(`${chunk}}}\n`);
      await handle.sync();
      this.layout = layout;
    } finally {
      await handle.close();
    }
  }
}

/**
 * Every entry of a journal; `newest` tolerates a torn last line (a crash mid-append, never acknowledged),
 * whose size in bytes goes to `onTornTail` so the caller can cut it off.
 */
export interface JournalReading {
  /** Tolerates a torn last line (the newest journal), whose size goes to `onTornTail`. */
  newest: boolean;
  onTornTail?: (bytes: number) => void;
  /** The shapes records must have (a put of another shape is damage). */
  shapes?: RecordShapes;
  /** `--repair`: a damaged line is told here and skipped instead of refusing the file. */
  onDamage?: (error: DamagedFileError) => void;
}

export async function* readJournal(path: string, reading: JournalReading): AsyncGenerator<JournalEntry> {
  const { newest, onTornTail = () => undefined, shapes, onDamage } = reading;
  const refuse = (error: DamagedFileError) => {
    if (!onDamage) throw error;
    onDamage(error);
  };
  let torn: { number: number; reason: string; bytes: number } | undefined;
  for await (const { text, number, terminated } of readLines(path)) {
    if (torn) {
      refuse(damaged(path, `line ${torn.number}`, torn.reason));
      torn = undefined;
    }
    if (text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      if (newest && !terminated) {
        torn = { number, reason: (error as Error).message, bytes: Buffer.byteLength(text) };
        continue;
      }
      refuse(damaged(path, `line ${number}`, `not JSON (${(error as Error).message})`));
      continue;
    }
    const entry = JournalEntry.safeParse(parsed);
    if (!entry.success) {
      if (newest && !terminated) {
        torn = { number, reason: 'incomplete', bytes: Buffer.byteLength(text) };
        continue;
      }
      refuse(damaged(path, `line ${number}${pathOf(entry.error.issues[0]?.path)}`, describe(entry.error)));
      continue;
    }
    const wrongShape = entry.data.op === 'put' ? recordProblem(shapes, entry.data.c, entry.data.v) : undefined;
    if (wrongShape) {
      refuse(damaged(path, `line ${number}.v${wrongShape.path}`, `not a stored ${(entry.data as { c: string }).c} record (${wrongShape.problem})`));
      continue;
    }
    yield entry.data;
  }
  if (torn) onTornTail(torn.bytes);
}

/** Makes a rename or an unlink in the directory durable. */
export async function syncDirectory(file: string): Promise<void> {
  const directory = await open(dirname(file), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

export function damaged(file: string, place: string, problem: string): DamagedFileError {
  return new DamagedFileError(`The store file ${file} is damaged at ${place}: ${problem}; it was left untouched. ${REPAIR} ${FIX}`, file, place, problem);
}

/** The shape a collection's stored records must have to be served (declared by the area that owns it). */
export type RecordShapes = ReadonlyMap<string, z.ZodType>;

/** Why a record does not fit its collection's declared shape, or undefined. */
export function recordProblem(shapes: RecordShapes | undefined, collection: string, record: unknown): { path: string; problem: string } | undefined {
  const shape = shapes?.get(collection);
  if (!shape) return undefined;
  const checked = shape.safeParse(record);
  return checked.success ? undefined : { path: pathOf(checked.error.issues[0]?.path), problem: describe(checked.error) };
}

const HEADER_END = ',"namespaces":{';
const CHUNK_CHARS = 1 << 18;
/** Copied bytes shorter than this join the text being gathered instead of being written on their own. */
const COPY_AS_TEXT_BYTES = 1 << 14;

interface Line {
  text: string;
  /** Counted from 1. */
  number: number;
  /** Ends with a newline (else it is the file's torn last line). */
  terminated: boolean;
  /** Where it starts in the file and how long it is, in bytes (newline not counted). */
  offset: number;
  bytes: number;
}

/** Lines of a file read in chunks (no string of the whole file). */
async function* readLines(path: string): AsyncGenerator<Line> {
  // The bytes of the line begun in earlier chunks, and where it starts in the file.
  let begun: Buffer[] = [];
  let offset = 0;
  let number = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_CHARS }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const line = begun.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...begun, chunk.subarray(start, end)]);
      begun = [];
      yield { text: line.toString('utf8'), number: ++number, terminated: true, offset, bytes: line.length };
      offset += line.length + 1;
      start = end + 1;
    }
    if (start < chunk.length) begun.push(chunk.subarray(start));
  }
  if (begun.length > 0) {
    const line = Buffer.concat(begun);
    yield { text: line.toString('utf8'), number: ++number, terminated: false, offset, bytes: line.length };
  }
}

/** The layout `write` produces: header line, then `"ns":{`, `"collection":[`, one record per line, closers. */
async function readStreamedLayout(file: string, headerLine: string, lines: AsyncGenerator<Line>, layout: SnapshotLayout): Promise<StoredSnapshot> {
  const snapshot: StoredSnapshot = { ...checkHeader(file, parseLine(file, 1, `${headerLine.slice(0, -HEADER_END.length)}}`)), namespaces: new Map() };
  let namespace: Map<string, { id: string }[]> | undefined;
  let records: { id: string }[] | undefined;
  let namespacePlaces = new Map<string, { offsets: number[]; lengths: number[] }>();
  let places: { offsets: number[]; lengths: number[] } | undefined;
  let place = 'namespaces';
  let ended = false;
  for await (const { text, number, offset, bytes } of lines) {
    if (ended) {
      if (text.trim() === '') continue;
      throw damaged(file, `line ${number}`, 'text after the end of the document');
    }
    const at = `line ${number} (${place})`;
    if (records) {
      if (text === ']' || text === '],') {
        records = undefined;
        place = place.replace(/\.[^.]+$/, '');
        continue;
      }
      const separated = text.endsWith(',');
      const value = parseLine(file, number, separated ? text.slice(0, -1) : text);
      if (!isStoredRecord(value)) {
        const { error } = StoredRecord.safeParse(value);
        throw damaged(file, `${at}${pathOf(error?.issues[0]?.path)}`, error ? describe(error) : 'not a record');
      }
      records.push(value);
      places?.offsets.push(offset);
      places?.lengths.push(separated ? bytes - 1 : bytes);
    } else if (namespace) {
      if (text === '}' || text === '},') {
        namespace = undefined;
        place = 'namespaces';
      } else if (text.endsWith(':[')) {
        const name = memberName(file, number, at, text);
        records = [];
        namespace.set(name, records);
        places = { offsets: [], lengths: [] };
        namespacePlaces.set(name, places);
        place += `.${name}`;
      } else throw damaged(file, at, `expected a collection ("name":[) or the end of the namespace, found ${preview(text)}`);
    } else if (text === '}}') {
      ended = true;
    } else if (text.endsWith(':{')) {
      const name = memberName(file, number, at, text);
      namespace = new Map();
      snapshot.namespaces.set(name, namespace);
      namespacePlaces = new Map();
      layout.set(name, namespacePlaces);
      place = `namespaces.${name}`;
    } else throw damaged(file, at, `expected a namespace ("name":{) or the end of the document, found ${preview(text)}`);
  }
  if (!ended) throw damaged(file, 'its end', 'the document stops early (truncated)');
  return snapshot;
}

function parseWholeDocument(file: string, text: string): StoredSnapshot {
  const parsed = parseLine(file, undefined, text);
  checkHeader(file, parsed);
  const snapshot = Snapshot.safeParse(parsed);
  if (!snapshot.success) throw damaged(file, pathOf(snapshot.error.issues[0]?.path).slice(1) || 'its top level', describe(snapshot.error));
  // From the parsed JSON, not zod's copy: its plain objects would turn a `__proto__` key into a prototype.
  const raw = parsed as { namespaces: Record<string, Record<string, { id: string }[]>> };
  const namespaces = new Map(Object.entries(raw.namespaces).map(([ns, collections]) => [ns, new Map(Object.entries(collections))]));
  return { ...snapshot.data, namespaces };
}

/** Format first (a foreign file), then version (a newer sandbox), then the rest. */
function checkHeader(file: string, parsed: unknown): z.infer<typeof SnapshotHeader> {
  const record = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  if (record.format !== STORE_FORMAT) {
    throw new StoreOpenError(`The data file ${file} is not an idv-sandbox store (no "format": "${STORE_FORMAT}"); it was left untouched. ${FIX}`);
  }
  if (typeof record.version === 'number' && record.version > STORE_VERSION) {
    throw new StoreOpenError(
      `The data file ${file} has store version ${record.version}, newer than this sandbox understands (${STORE_VERSION}); it was left untouched. Upgrade idv-sandbox, or ${FIX}`,
    );
  }
  const header = SnapshotHeader.safeParse(record);
  if (!header.success) throw damaged(file, pathOf(header.error.issues[0]?.path).slice(1), describe(header.error));
  return header.data;
}

function parseLine(file: string, number: number | undefined, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (number === undefined) throw new StoreOpenError(`The data file ${file} is not valid JSON (${(error as Error).message}); it was left untouched. ${FIX}`);
    throw damaged(file, `line ${number}`, `not JSON (${(error as Error).message})`);
  }
}

function memberName(file: string, number: number, at: string, text: string): string {
  const name = Name.safeParse(parseLine(file, number, text.slice(0, -2)));
  if (!name.success) throw damaged(file, at, `a namespace or collection name must be a non-empty string, found ${preview(text)}`);
  return name.data;
}

function pathOf(path: readonly PropertyKey[] | undefined): string {
  return (path ?? []).map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? issue.message : 'invalid';
}

function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
