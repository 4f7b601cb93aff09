import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/platform/store/store.ts';
import { crash, tempDataFile } from '../helpers/data-dir.ts';

type Thing = { id: string; n: number };
const things = (store: Store) => store.partition('default').collection<Thing>('things');
const journals = (file: string) =>
  readdirSync(dirname(file))
    .filter((name) => name.includes('.journal-'))
    .sort();
const fileState = (file: string) => {
  const { ino, mtimeMs, size } = statSync(file);
  return { ino, mtimeMs, size, bytes: readFileSync(file, 'utf8') };
};

/** A closed store of `count` things: a snapshot and no journal. */
async function closedStore(count: number): Promise<string> {
  const file = tempDataFile();
  const store = await Store.open({ file });
  for (let i = 0; i < count; i++) things(store).put({ id: `t${i}`, n: i });
  await store.close();
  expect(journals(file)).toEqual([]);
  return file;
}

/** A store of three things killed after a fourth, `journaled`, went to its journal only. */
async function killedWithJournal(): Promise<string> {
  const file = await closedStore(3);
  const store = await Store.open({ file });
  things(store).put({ id: 'journaled', n: 1 });
  await store.durable();
  await crash(store, file);
  return file;
}

describe('opening a store', () => {
  it('reads an unchanged snapshot without rewriting it, at open and at a close with nothing written', async () => {
    const file = await closedStore(50);
    const before = fileState(file);
    const store = await Store.open({ file });
    expect(things(store).size).toBe(50);
    expect(fileState(file)).toEqual(before);
    await store.close();
    expect(fileState(file)).toEqual(before);
    expect(journals(file)).toEqual([]);
  });

  it('writes the first snapshot of a new data file at open, so the file exists from the first start', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'idv-sandbox-store', generation: 1, namespaces: {} });
    await store.close();
  });

  it('removes the temporary snapshot and cache a stop cut mid-write left, and serves what the snapshot and journals hold', async () => {
    const file = await killedWithJournal();
    // What a snapshot write cut by the shutdown bound leaves beside the file (a million sessions: 1.3 GB).
    writeFileSync(`${file}.tmp`, '{"format":"idv-sandbox-store","version":1,"generation":2,"namespaces":{"default":{"things":[\n{"id":"t0"');
    writeFileSync(`${file}.cache.tmp`, 'partial cache');
    const before = fileState(file);

    const reopened = await Store.open({ file });
    expect(readdirSync(dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(fileState(file)).toEqual(before);
    expect(things(reopened).size).toBe(4);
    expect(things(reopened).get('journaled')).toEqual({ id: 'journaled', n: 1 });
    await reopened.close();
  });

  it('answers before folding the journals in, then folds them into the snapshot in the background', async () => {
    const file = await killedWithJournal();
    const before = fileState(file);

    const reopened = await Store.open({ file });
    // Open returned with the old snapshot still on disk: the fold has not held it up.
    expect(fileState(file)).toEqual(before);
    expect(things(reopened).get('journaled')).toEqual({ id: 'journaled', n: 1 });
    things(reopened).put({ id: 'after-open', n: 2 });
    await reopened.durable();
    await reopened.close();
    expect(journals(file)).toEqual([]);
    const ids = (JSON.parse(readFileSync(file, 'utf8')) as { namespaces: { default: { things: Thing[] } } }).namespaces.default.things.map((t) => t.id);
    expect(ids.sort()).toEqual(['after-open', 'journaled', 't0', 't1', 't2']);
  });

  it('leaves journals far smaller than the snapshot in place at open and appends to them, until they are worth a fold', async () => {
    const file = await closedStore(2000);
    const snapshot = fileState(file);
    const store = await Store.open({ file });
    things(store).put({ id: 'before-crash', n: 1 });
    await store.durable();
    await crash(store, file);
    const [journal] = journals(file) as [string];

    const reopened = await Store.open({ file });
    things(reopened).put({ id: 'after-open', n: 2 });
    await reopened.durable();
    // No fold: the snapshot is untouched and the same journal holds both changes.
    expect(journals(file)).toEqual([journal]);
    expect(readFileSync(join(dirname(file), journal), 'utf8')).toMatch(/before-crash[^\n]*\n[^\n]*after-open/);
    expect(fileState(file)).toEqual(snapshot);
    await crash(reopened, file);

    // The threshold set smaller than the journal: this start folds it.
    const folding = await Store.open({ file, compactAfterBytes: 64 });
    expect(things(folding).get('after-open')).toEqual({ id: 'after-open', n: 2 });
    things(folding).put({ id: 'during-fold', n: 3 });
    await folding.durable();
    // The fold moved appends to the next generation's journal.
    const next = journals(file).filter((name) => name !== journal);
    expect(next).toHaveLength(1);
    expect(readFileSync(join(dirname(file), next[0] as string), 'utf8')).toContain('during-fold');
    await folding.close();
    expect(journals(file)).toEqual([]);
    const ids = (JSON.parse(readFileSync(file, 'utf8')) as { namespaces: { default: { things: Thing[] } } }).namespaces.default.things.map((t) => t.id);
    expect(ids).toHaveLength(2003);
    expect(ids).toEqual(expect.arrayContaining(['before-crash', 'after-open', 'during-fold']));
  });

  it('cuts a torn last journal line at open, so a fold interrupted by a crash leaves journals that replay', async () => {
    const file = await closedStore(2);
    const store = await Store.open({ file });
    things(store).put({ id: 'acknowledged', n: 1 });
    await store.durable();
    await crash(store, file);
    const [journal] = journals(file) as [string];
    const journalPath = join(dirname(file), journal);
    const complete = readFileSync(journalPath, 'utf8');
    writeFileSync(journalPath, `${complete}{"ns":"default","op":"put","c":"thi`);
    const snapshotBefore = readFileSync(file);

    const reopened = await Store.open({ file });
    expect(readFileSync(journalPath, 'utf8')).toBe(complete);
    // A crash before the fold's rename leaves the old snapshot, the cut journal and the next generation's.
    const crashed = join(mkdtempSync(join(tmpdir(), 'idv-store-open-')), 'store.json');
    writeFileSync(crashed, snapshotBefore);
    copyFileSync(journalPath, join(dirname(crashed), journal));
    things(reopened).put({ id: 'during-fold', n: 2 });
    await reopened.durable();
    const next = journals(file).filter((name) => name !== journal);
    expect(next).toHaveLength(1);
    for (const name of next) copyFileSync(join(dirname(file), name), join(dirname(crashed), name));
    await reopened.close();

    const recovered = await Store.open({ file: crashed });
    expect(
      things(recovered)
        .all()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['acknowledged', 'during-fold', 't0', 't1']);
    await recovered.close();
  });
});

describe('the default compaction threshold', () => {
  it('grows with the snapshot: half its size once that passes 8 MB, so a big store is not rewritten every 8 MB', async () => {
    const file = tempDataFile();
    const megabyte = 'm'.repeat(1 << 20);
    const blobs = (store: Store) => store.partition('default').collection<{ id: string; blob: string }>('blobs');
    const store = await Store.open({ file });
    for (let i = 0; i < 20; i++) blobs(store).put({ id: `old${i}`, blob: megabyte });
    await store.close();
    const generation = (JSON.parse(readFileSync(file, 'utf8')) as { generation: number }).generation;
    const journalOf = (n: number) => `store.json.journal-${n}.ndjson`;

    const reopened = await Store.open({ file });
    const writeMegabytes = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++) blobs(reopened).put({ id: `new${i}`, blob: megabyte });
      await reopened.durable();
      // A small write after the big ones shows which journal appends go to.
      blobs(reopened).put({ id: `marker${from}`, blob: '' });
      await reopened.durable();
    };
    await writeMegabytes(0, 9);
    expect(journals(file)).toEqual([journalOf(generation)]);
    await writeMegabytes(9, 2);
    expect(journals(file)).toContain(journalOf(generation + 1));
    await reopened.close();
  });
});
