/**
 * The snapshot cache (src/platform/store/snapshot-cache.ts): a start with a cache that describes the JSON
 * file serves the same records and lists without parsing them up front; a missing, stale, foreign or
 * disagreeing cache is ignored and written again, and the JSON file stays the store.
 */
import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { serialize } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import type { Collection } from '../../src/platform/store/collection.ts';
import { JoinedIds, joinIds, readCache, type SnapshotCache, SnapshotText, writeCache } from '../../src/platform/store/snapshot-cache.ts';
import { Store } from '../../src/platform/store/store.ts';
import { SnapshotFile } from '../../src/platform/store/store-files.ts';
import { crash, tempDataFile } from '../helpers/data-dir.ts';

interface Thing {
  id: string;
  group: string;
  at: number;
}

const byGroup = (store: Store, key: (t: Thing) => string = (t) => t.group): Collection<Thing> =>
  store
    .partition('default')
    .collection<Thing>('things')
    .index('byGroup', key, { orderBy: (t) => t.at });
const newestFirst = (collection: Collection<Thing>, group: string) => [...collection.ordered('byGroup', group).records].map((t) => t.id);
const rawCount = (store: Store) => store.partition('default').collection<Thing>('things').unreadCount;

const THINGS: Thing[] = Array.from({ length: 60 }, (_, i) => ({ id: `t${String(i).padStart(2, '0')}`, group: i % 3 === 0 ? 'a' : 'b', at: 1000 - i }));

/** A closed store of THINGS written with the index declared: snapshot and cache, no journal. */
async function closedStore(): Promise<string> {
  const file = tempDataFile();
  const store = await Store.open({ file, cacheFromBytes: 0 });
  const things = byGroup(store);
  for (const thing of THINGS) things.put(thing);
  await store.close();
  return file;
}

/** The cache beside a closed store's snapshot, as a start reads it. */
async function cacheOf(file: string): Promise<SnapshotCache> {
  const snapshot = SnapshotText.open(file);
  const cache = await readCache(file, snapshot.identity());
  snapshot.close();
  if (!cache) throw new Error(`${file} has no cache that describes it`);
  return cache;
}

/**
 * Two stores of THINGS that compact at every chance: one with a cache, one read from its JSON file whole
 * (the reference); `both` makes a change to each, `expectSame` compares records, order, lists and write
 * instants, `closeAndRestart` compares them again after a restart of each.
 */
async function twinStores() {
  const file = await closedStore();
  const plain = tempDataFile();
  writeFileSync(plain, readFileSync(file));
  const cached = await Store.open({ file, cacheFromBytes: 0, compactAfterBytes: 1 });
  const reference = await Store.open({ file: plain, cacheFromBytes: Number.MAX_SAFE_INTEGER, compactAfterBytes: 1 });
  const both = (change: (things: Collection<Thing>) => void) => {
    change(byGroup(cached));
    change(byGroup(reference));
  };
  const expectSame = (mine: Collection<Thing>, theirs: Collection<Thing>) => {
    expect([...mine.ids()]).toEqual([...theirs.ids()]);
    expect(mine.all()).toEqual(theirs.all());
    for (const group of ['a', 'b', 'c']) expect(newestFirst(mine, group)).toEqual(newestFirst(theirs, group));
    for (const id of theirs.ids()) expect(mine.writtenAt(id)).toBe(theirs.writtenAt(id));
  };
  const closeAndRestart = async () => {
    await cached.close();
    await reference.close();
    const [reopened, again] = [await Store.open({ file, cacheFromBytes: 0 }), await Store.open({ file: plain, cacheFromBytes: Number.MAX_SAFE_INTEGER })];
    expect(rawCount(reopened)).toBe(byGroup(reopened).size);
    expectSame(byGroup(reopened), byGroup(again));
    await reopened.close();
    await again.close();
  };
  return { cached, reference, both, expectSame, closeAndRestart };
}

const expectedGroup = (group: string) =>
  THINGS.filter((t) => t.group === group)
    .sort((x, y) => y.at - x.at)
    .map((t) => t.id);

describe('the snapshot cache', () => {
  it('starts with every record unread, then serves records and ordered lists from the cached keys as from the JSON file', async () => {
    const file = await closedStore();
    expect(existsSync(`${file}.cache`)).toBe(true);
    const store = await Store.open({ file, cacheFromBytes: 0 });
    expect(rawCount(store)).toBe(THINGS.length);
    const things = byGroup(store);
    // Declaring the index reads only a sample of records to check the cached keys.
    expect(rawCount(store)).toBeGreaterThan(THINGS.length - 20);
    expect(newestFirst(things, 'a')).toEqual(expectedGroup('a'));
    expect(things.get('t07')).toEqual(THINGS[7]);
    expect(things.all()).toEqual(THINGS);
    await store.close();
  });

  it('starts from the JSON file when the cache was deleted, and writes it again at a close with nothing changed', async () => {
    const file = await closedStore();
    const snapshot = readFileSync(file);
    rmSync(`${file}.cache`);
    const store = await Store.open({ file, cacheFromBytes: 0 });
    expect(rawCount(store)).toBe(0);
    expect(newestFirst(byGroup(store), 'b')).toEqual(expectedGroup('b'));
    await store.close();
    expect(readFileSync(file)).toEqual(snapshot);
    expect(existsSync(`${file}.cache`)).toBe(true);
    const again = await Store.open({ file, cacheFromBytes: 0 });
    expect(rawCount(again)).toBe(THINGS.length);
    expect(newestFirst(byGroup(again), 'b')).toEqual(expectedGroup('b'));
    await again.close();
  });

  it('ignores a cache older than the JSON file, and one that is not a cache', async () => {
    const file = await closedStore();
    const oldCache = readFileSync(`${file}.cache`);
    const store = await Store.open({ file, cacheFromBytes: 0 });
    byGroup(store).put({ id: 'later', group: 'a', at: 5000 });
    byGroup(store).delete('t00');
    await store.close();
    for (const cache of [oldCache, Buffer.from('not a cache'), serialize({ format: 'idv-sandbox-store-cache', version: 1 })]) {
      writeFileSync(`${file}.cache`, cache);
      const reopened = await Store.open({ file, cacheFromBytes: 0 });
      expect(rawCount(reopened)).toBe(0);
      const things = byGroup(reopened);
      expect(things.get('later')).toEqual({ id: 'later', group: 'a', at: 5000 });
      expect(things.has('t00')).toBe(false);
      expect(newestFirst(things, 'a')).toEqual(['later', ...expectedGroup('a').filter((id) => id !== 't00')]);
      await reopened.close();
    }
  });

  it('replays the journals written after the cached snapshot', async () => {
    const file = await closedStore();
    const store = await Store.open({ file, cacheFromBytes: 0 });
    byGroup(store).put({ ...THINGS[4], group: 'a' } as Thing);
    byGroup(store).delete('t03');
    await store.durable();
    await crash(store, file);
    const reopened = await Store.open({ file, cacheFromBytes: 0 });
    const things = byGroup(reopened);
    expect(things.get('t04')?.group).toBe('a');
    expect(things.has('t03')).toBe(false);
    expect(newestFirst(things, 'a')).toEqual(
      expectedGroup('a')
        .filter((id) => id !== 't03')
        .concat('t04')
        .sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))),
    );
    await reopened.close();
  });

  it('does not use cached keys of another sandbox version, nor keys the records contradict (other index functions, a changed cache)', async () => {
    const file = await closedStore();
    const store = await Store.open({ file, cacheFromBytes: 0 });
    const byParity = byGroup(store, (t) => (Number(t.id.slice(1)) % 2 === 0 ? 'even' : 'odd'));
    expect(newestFirst(byParity, 'even')).toEqual(THINGS.filter((_, i) => i % 2 === 0).map((t) => t.id));
    expect(newestFirst(byParity, 'a')).toEqual([]);
    await store.closeWithoutCompaction();

    const lying = await closedStore();
    const cache = await cacheOf(lying);
    const index = cache.namespaces[0]?.[1].find(([name]) => name === 'things')?.[1].indexes[0]?.[1];
    if (!index) throw new Error('the cache holds no keys of byGroup');
    // The same functions, but the cached keys of groups a and b swapped.
    expect(index.values).toEqual(['a', 'b']);
    index.values.reverse();
    await writeCache(lying, cache);
    const reopened = await Store.open({ file: lying, cacheFromBytes: 0 });
    expect(newestFirst(byGroup(reopened), 'a')).toEqual(expectedGroup('a'));
    await reopened.closeWithoutCompaction();

    const older = await closedStore();
    const olderCache = await cacheOf(older);
    for (const [, collections] of olderCache.namespaces)
      for (const [, collection] of collections) for (const [, cached] of collection.indexes) cached.fingerprint = '0.0.1 ordered';
    await writeCache(older, olderCache);
    const upgraded = await Store.open({ file: older, cacheFromBytes: 0 });
    const things = byGroup(upgraded);
    expect(newestFirst(things, 'b')).toEqual(expectedGroup('b'));
    // Every record read to compute the keys again when the index was first used.
    expect(rawCount(upgraded)).toBe(0);
    await upgraded.close();
  });

  it('ignores a cache whose table of record places does not fit its records, and reads the JSON file whole', async () => {
    const file = await closedStore();
    const cache = await cacheOf(file);
    const columns = cache.namespaces[0]?.[1].find(([name]) => name === 'things')?.[1];
    if (!columns) throw new Error('the cache holds no things');
    columns.slots[columns.slots.indexOf(0)] = THINGS.length + 1;
    await writeCache(file, cache);
    const store = await Store.open({ file, cacheFromBytes: 0 });
    expect(rawCount(store)).toBe(0);
    expect(byGroup(store).all()).toEqual(THINGS);
    await store.close();
  });

  it('answers as a store read from the JSON file while records are read, replaced, deleted and written anew, across a compaction and a restart', async () => {
    const file = await closedStore();
    const plain = tempDataFile();
    writeFileSync(plain, readFileSync(file));
    const cached = await Store.open({ file, cacheFromBytes: 0, compactAfterBytes: 1 });
    const reference = await Store.open({ file: plain, cacheFromBytes: 0, compactAfterBytes: 1 });
    expect(rawCount(cached)).toBe(THINGS.length);
    expect(rawCount(reference)).toBe(0);
    const both = (change: (things: Collection<Thing>) => void) => {
      change(byGroup(cached));
      change(byGroup(reference));
    };
    const expectSame = () => {
      const [mine, theirs] = [byGroup(cached), byGroup(reference)];
      expect([...mine.ids()]).toEqual([...theirs.ids()]);
      expect(mine.size).toBe(theirs.size);
      for (const id of [...theirs.ids(), 't05', 'gone']) {
        expect(mine.has(id)).toBe(theirs.has(id));
        expect(mine.bytes(id)).toBe(theirs.bytes(id));
        expect(mine.writtenAt(id)).toBe(theirs.writtenAt(id));
      }
      for (const group of ['a', 'b', 'c']) expect(newestFirst(mine, group)).toEqual(newestFirst(theirs, group));
      expect(mine.all()).toEqual(theirs.all());
    };
    both((things) => {
      things.get('t01');
      things.get('t02');
      things.put({ id: 't03', group: 'c', at: 2000 });
      things.delete('t02');
      things.delete('t05');
      things.put({ id: 'new1', group: 'a', at: 1 });
      things.put({ id: 't05', group: 'b', at: 3 });
      things.deleteMany(['t10', 't11', 'new1']);
    });
    // Before any list: the records are held, counted and ordered without an index.
    expect([...byGroup(cached).ids()]).toEqual([...byGroup(reference).ids()]);
    await cached.durable();
    await reference.durable();
    const compacting = (store: Store) => (store as unknown as { compacting: Promise<void> | null }).compacting;
    await compacting(cached);
    await compacting(reference);
    // The compaction left the unread records unread, now read from the new file.
    expect(rawCount(cached)).toBeGreaterThan(THINGS.length - 20);
    expectSame();
    both((things) => {
      things.put({ id: 't20', group: 'a', at: 4 });
      things.delete('t21');
      things.put({ id: 'new2', group: 'c', at: 7 });
    });
    expectSame();
    await cached.close();
    await reference.close();
    const [reopened, again] = [await Store.open({ file, cacheFromBytes: 0 }), await Store.open({ file: plain, cacheFromBytes: 0 })];
    expect(rawCount(reopened)).toBe(byGroup(reopened).size);
    expect([...byGroup(reopened).ids()]).toEqual([...byGroup(again).ids()]);
    expect(byGroup(reopened).all()).toEqual(byGroup(again).all());
    await reopened.close();
    await again.close();
  });

  it('keeps no cache beside a snapshot under the size from which one pays (1 MB by default)', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file });
    for (const thing of THINGS) byGroup(store).put(thing);
    await store.close();
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.cache`)).toBe(false);
  });

  it('copies unread records into the next snapshot when it compacts, and they are read from the new file', async () => {
    const file = await closedStore();
    const store = await Store.open({ file, compactAfterBytes: 1, cacheFromBytes: 0 });
    expect(rawCount(store)).toBe(THINGS.length);
    const things = byGroup(store);
    things.put({ id: 'new', group: 'a', at: 2000 });
    await store.durable();
    await store.close();
    const reopened = await Store.open({ file, cacheFromBytes: 0 });
    expect(rawCount(reopened)).toBe(THINGS.length + 1);
    expect(byGroup(reopened).all()).toEqual([...THINGS, { id: 'new', group: 'a', at: 2000 }]);
    expect(newestFirst(byGroup(reopened), 'a')).toEqual(['new', ...expectedGroup('a')]);
    await reopened.close();
  });

  it('is in place as soon as a compaction renamed its snapshot: a crash right after starts from it', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file, compactAfterBytes: 1, cacheFromBytes: 0 });
    const paused = new Promise<void>((resolve) =>
      vi.spyOn(console, 'error').mockImplementation((message: unknown) => {
        if (String(message).includes('paused at snapshot-renamed')) resolve();
      }),
    );
    vi.stubEnv('IDV_SANDBOX_FAULT_PAUSE', 'snapshot-renamed');
    try {
      const things = byGroup(store);
      for (const thing of THINGS) things.put(thing);
      // The flush passes the threshold: a background compaction, stopped for good right after its rename.
      await store.durable();
      await paused;
    } finally {
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    }
    await crash(store, file);
    // What a crash there leaves, as the same files (a copy would be another inode, which no cache names).
    const after = join(mkdtempSync(join(tmpdir(), 'idv-crash-')), 'store.json');
    for (const name of readdirSync(dirname(file)).filter((name) => !name.endsWith('.lock'))) linkSync(join(dirname(file), name), join(dirname(after), name));
    const restarted = await Store.open({ file: after, cacheFromBytes: 0 });
    expect(rawCount(restarted)).toBe(THINGS.length);
    expect(newestFirst(byGroup(restarted), 'a')).toEqual(expectedGroup('a'));
    expect(byGroup(restarted).all()).toEqual(THINGS);
    await restarted.close();
  });
});

const compacting = (store: Store) => (store as unknown as { compacting: Promise<void> | null }).compacting;
/** The text of record `id` in the snapshot file (one record per line, then a comma but for the last). */
const snapshotLine = (file: string, id: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`{"id":${JSON.stringify(id)},`))
    ?.replace(/,$/, '');

describe('what a store growing in one process holds', () => {
  it('lets go of the records a compaction wrote, as a restart would, and reads them again from the new file', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file, cacheFromBytes: 0, compactAfterBytes: 1 });
    const things = byGroup(store);
    for (const thing of THINGS) things.put(thing);
    await store.durable();
    await compacting(store);
    expect(rawCount(store)).toBe(THINGS.length);
    // One read is held again until the next snapshot.
    expect(things.get('t07')).toEqual(THINGS[7]);
    expect(rawCount(store)).toBe(THINGS.length - 1);
    expect(things.all()).toEqual(THINGS);
    expect(newestFirst(things, 'a')).toEqual(expectedGroup('a'));
    await store.close();
  });
});

describe('what a snapshot copies from the older file instead of serializing records again', () => {
  // Records are never changed once put (the store's contract). This test changes some anyway, after the
  // fact, to see which text a snapshot wrote: the one found in the older file (the original), or a new
  // serialization (the changed one).
  it('copies from the older file the records the last snapshot wrote and those read since, unchanged', async () => {
    const file = await closedStore();
    const store = await Store.open({ file, cacheFromBytes: 0, compactAfterBytes: 1 });
    const things = byGroup(store);
    const written: Thing = { id: 'new', group: 'a', at: 2000 };
    things.put(written);
    await store.durable();
    await compacting(store);
    const read = things.get('t07') as Thing;
    written.group = 'changed after its snapshot';
    read.group = 'changed after it was read';
    things.put({ id: 'next', group: 'b', at: 3000 });
    await store.close();
    expect(snapshotLine(file, 'new')).toBe('{"id":"new","group":"a","at":2000}');
    expect(snapshotLine(file, 't07')).toBe(JSON.stringify(THINGS[7]));
    expect(snapshotLine(file, 'next')).toBe('{"id":"next","group":"b","at":3000}');
  });

  it('copies long runs of records in pieces, between records written anew, into a snapshot read back as the same records', async () => {
    const file = tempDataFile();
    const big = (i: number, group = 'a'): Thing & { note: string } => ({ id: `r${i}`, group, at: i, note: `é${'x'.repeat(200)}${i}` });
    const store = await Store.open({ file, cacheFromBytes: 0, compactAfterBytes: 1 });
    const things = byGroup(store);
    for (let i = 0; i < 3000; i++) things.put(big(i));
    await store.durable();
    await compacting(store);
    // Runs broken by replaced and deleted records, and records written after them.
    things.put(big(1000, 'b'));
    things.delete('r2000');
    things.put(big(5000, 'c'));
    await store.close();
    const expected = Array.from({ length: 3000 }, (_, i) => (i === 1000 ? big(1000, 'b') : big(i)))
      .filter((thing) => thing.id !== 'r2000')
      .concat(big(5000, 'c'));
    expect(JSON.parse(readFileSync(file, 'utf8')).namespaces.default.things).toEqual(expected);
    const reopened = await Store.open({ file, cacheFromBytes: 0 });
    expect(rawCount(reopened)).toBe(expected.length);
    expect(byGroup(reopened).all()).toEqual(expected);
    expect(newestFirst(byGroup(reopened), 'b')).toEqual(['r1000']);
    await reopened.close();
  });

  it('keeps every record, its order and its lists as a store without a cache when records change while a snapshot is written', async () => {
    const { cached, reference, both, expectSame, closeAndRestart } = await twinStores();
    both((things) => {
      for (const id of ['n1', 'n2', 'n3', 'n4']) things.put({ id, group: 'c', at: 1 });
      things.get('t01');
      things.put({ id: 't02', group: 'c', at: 2 });
    });
    // Between the snapshot's write and the cache that follows it: records written since the last snapshot,
    // and older ones, replaced in place, deleted, deleted and put again.
    const write = SnapshotFile.prototype.write;
    let duringWrite: (() => void) | undefined = () =>
      both((things) => {
        things.put({ id: 'n1', group: 'a', at: 3 });
        things.delete('n2');
        things.put({ id: 'n2', group: 'b', at: 4 });
        things.delete('n3');
        things.put({ id: 't01', group: 'c', at: 5 });
        things.delete('t04');
        things.put({ id: 't04', group: 'a', at: 6 });
        things.put({ id: 'n5', group: 'c', at: 7 });
      });
    const spy = vi.spyOn(SnapshotFile.prototype, 'write').mockImplementation(async function (this: SnapshotFile, data) {
      await write.call(this, data);
      const change = duringWrite;
      duringWrite = undefined;
      change?.();
    });
    try {
      await cached.durable();
      await compacting(cached);
      expect(duringWrite).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
    expectSame(byGroup(cached), byGroup(reference));
    // The next snapshot copies what the last one wrote; the order and lists hold after a restart.
    both((things) => things.put({ id: 'n6', group: 'b', at: 8 }));
    await cached.durable();
    await compacting(cached);
    expectSame(byGroup(cached), byGroup(reference));
    await closeAndRestart();
  });

  it('keeps every record, its order and its lists as a store without a cache when records change while those written since move to the new snapshot', async () => {
    const { cached, reference, both, expectSame, closeAndRestart } = await twinStores();
    // Enough records written since the last snapshot that they move to the new one over several turns.
    const written = 9_000;
    both((things) => {
      for (let n = 0; n < written; n++) things.put({ id: `w${n}`, group: n % 2 ? 'a' : 'b', at: 10 + n });
    });
    // On every turn while they move: records written since (moved already or not yet) replaced, deleted,
    // deleted and put again, read; older ones deleted; new ones put.
    let turns = 0;
    const change = (k: number) =>
      both((things) => {
        // From the first ones on (moved already) and from the last ones back (not moved yet).
        for (const at of [(offset: number) => `w${(k * 97 + offset) % written}`, (offset: number) => `w${written - 1 - ((k * 97 + offset) % written)}`]) {
          things.put({ id: at(0), group: 'c', at: 20_000 + k });
          things.delete(at(1));
          things.delete(at(2));
          things.put({ id: at(2), group: 'a', at: 30_000 + k });
          things.get(at(3));
        }
        if (k < THINGS.length) things.delete(THINGS[k]?.id as string);
        things.put({ id: `n${k}`, group: 'b', at: 40_000 + k });
      });
    const useSnapshot = Object.getPrototypeOf(byGroup(cached)).useSnapshot as Collection<Thing>['useSnapshot'];
    const spy = vi.spyOn(Object.getPrototypeOf(byGroup(cached)), 'useSnapshot').mockImplementation(function (this: Collection<Thing>, ...args) {
      const moving = useSnapshot.apply(this, args as Parameters<Collection<Thing>['useSnapshot']>);
      let done = false;
      void moving.finally(() => (done = true));
      const everyTurn = () => {
        if (done) return;
        // Between two slices, the store is as it is: the same records in the same order.
        expect([...byGroup(cached).ids()]).toEqual([...byGroup(reference).ids()]);
        change(turns++);
        setImmediate(everyTurn);
      };
      setImmediate(everyTurn);
      return moving;
    });
    try {
      await cached.durable();
      await compacting(cached);
    } finally {
      spy.mockRestore();
    }
    expect(turns).toBeGreaterThan(2);
    expectSame(byGroup(cached), byGroup(reference));
    // The next snapshot holds them as they are now; the order and lists hold after a restart.
    await cached.durable();
    await compacting(cached);
    expectSame(byGroup(cached), byGroup(reference));
    await closeAndRestart();
  });
});

describe('JoinedIds (the cached ids, cut out of their joined text only when asked for)', () => {
  it('gives each id at its position and tells an id there from one that only starts or ends the same', () => {
    const ids = JoinedIds.of('a1\nbb22\n\nc');
    expect(ids.length).toBe(4);
    expect([0, 1, 2, 3].map((position) => ids.at(position))).toEqual(['a1', 'bb22', '', 'c']);
    expect(ids.is(1, 'bb22')).toBe(true);
    expect(ids.is(1, 'bb2')).toBe(false);
    expect(ids.is(1, 'bb22\n')).toBe(false);
    expect(ids.is(0, 'a')).toBe(false);
    expect(ids.is(2, '')).toBe(true);
    expect(ids.is(3, 'c')).toBe(true);
  });

  it('holds no id for no records, and as many as it is told when the count is known', () => {
    expect(JoinedIds.NONE.length).toBe(0);
    const two = JoinedIds.of('x\ny', 2);
    expect([two.at(0), two.at(1)]).toEqual(['x', 'y']);
  });

  it('finds every id held in pieces of 4096 ids, across the edges of the pieces, and tells it from its neighbours', async () => {
    // Ids of varying lengths, so that no piece starts where a fixed stride would put it.
    const idOf = (i: number) => `ses_${i.toString(36)}${'x'.repeat(i % 7)}`;
    const count = 3 * 4096 + 5;
    const { ids } = await joinIds(count, idOf);
    expect(ids.pieces.length).toBe(4);
    expect(ids.pieces.join('\n')).toBe(Array.from({ length: count }, (_, i) => idOf(i)).join('\n'));
    for (let position = 0; position < count; position++) {
      expect(ids.at(position)).toBe(idOf(position));
      expect(ids.is(position, idOf(position))).toBe(true);
      if (position > 0) expect(ids.is(position, idOf(position - 1))).toBe(false);
    }
    expect(ids.is(4095, `${idOf(4095)}\n`)).toBe(false);
    expect(ids.is(4096, idOf(4096).slice(0, -1))).toBe(false);
  });
});

describe('the cache file (its columns as bytes, then a header that gives their lengths)', () => {
  it('reads back ids written in pieces of a million characters, one cut where it would split a surrogate pair', async () => {
    // Ids of 8 characters and a newline each: the one holding character 1,048,575 (where the first piece
    // ends) has an emoji there, whose surrogate pair would be cut in two.
    const count = 120_000;
    const ids = Array.from({ length: count }, (_, i) => `id${String(i).padStart(6, '0')}`);
    const straddling = Math.floor((1 << 20) / 9);
    const offset = (1 << 20) - 1 - straddling * 9;
    ids[straddling] = `${'x'.repeat(offset)}\u{1F600}${'y'.repeat(7 - offset)}`;
    const { ids: joined, slots } = await joinIds(count, (i) => ids[i] as string);
    const text = joined.pieces.join('\n');
    expect(text.charCodeAt((1 << 20) - 1)).toBe(0xd83d);
    const column = () => Float64Array.from(ids, (_, i) => i);
    const file = tempDataFile();
    writeFileSync(file, '{}');
    const snapshot = SnapshotText.open(file);
    const cache: SnapshotCache = {
      format: 'idv-sandbox-store-cache',
      version: 3,
      snapshot: snapshot.identity(),
      generation: 4,
      namespaces: [['default', [['things', { ids: joined.pieces, offsets: column(), lengths: column(), at: column(), slots, indexes: [] }]]]],
    };
    await writeCache(file, cache);
    const read = await readCache(file, snapshot.identity());
    snapshot.close();
    // Written from its pieces, read back as the one text they make.
    expect(read?.namespaces[0]?.[1][0]?.[1].ids).toEqual([text]);
    expect(read).toEqual({ ...cache, namespaces: [['default', [['things', { ...cache.namespaces[0]?.[1][0]?.[1], ids: [text] }]]]] });
  });
});
