/**
 * Ordered indexes (src/platform/store/collection.ts) and the lists that read them with keyset seeks: the
 * answer must always equal "filter everything, sort newest first, slice", across creates, replacements,
 * deletes and restarts from the journal or the snapshot.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rngFrom } from '../../src/platform/random/random.ts';
import { Store } from '../../src/platform/store/store.ts';
import type { Collection } from '../../src/platform/store/collection.ts';
import { silentLogger, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

interface Thing {
  id: string;
  group: string;
  at: number;
}

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'idv-ordered-')), 'store.json');

function things(store: Store): Collection<Thing> {
  return store
    .partition('default')
    .collection<Thing>('things')
    .index('byGroup', (t) => t.group, { orderBy: (t) => t.at });
}

/** The reference answer: every record of the group in [from, to], sorted by (at, id) descending. */
function reference(all: readonly Thing[], group: string, from = -Infinity, to = Infinity): string[] {
  return all
    .filter((t) => t.group === group && t.at >= from && t.at <= to)
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((t) => t.id);
}

/** Reads the whole group page by page through `after`, as the lists do with next_token. */
function walk(collection: Collection<Thing>, group: string, pageSize: number, from?: number, to?: number): string[] {
  const out: string[] = [];
  let after: { value: number; id: string } | undefined;
  for (;;) {
    const page: Thing[] = [];
    for (const thing of collection.ordered('byGroup', group, {
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(after ? { after } : {}),
    }).records) {
      page.push(thing);
      if (page.length === pageSize) break;
    }
    out.push(...page.map((t) => t.id));
    const last = page.at(-1);
    if (page.length < pageSize || last === undefined) return out;
    after = { value: last.at, id: last.id };
  }
}

function expectConsistent(collection: Collection<Thing>) {
  const all = collection.all();
  for (const group of ['a', 'b', 'c']) {
    expect(walk(collection, group, 7)).toEqual(reference(all, group));
    expect(walk(collection, group, 5, 20, 60)).toEqual(reference(all, group, 20, 60));
    expect(collection.ordered('byGroup', group, { from: 20, to: 60 }).count).toBe(reference(all, group, 20, 60).length);
    expect(collection.where('byGroup', group).map((t) => t.id)).toEqual(reference(all, group).reverse());
  }
}

describe('ordered index', () => {
  it('deletes many records at once (a retention purge) with the same answers as deleting them one by one, journaled', async () => {
    const file = tempFile();
    const store = await Store.open({ file });
    const collection = things(store);
    const rng = rngFrom('delete-many');
    const all: Thing[] = [];
    for (let i = 0; i < 300; i++) {
      const thing = { id: `t${String(i).padStart(3, '0')}`, group: rng.pick(['a', 'b']), at: rng.int(0, 50) };
      all.push(thing);
      collection.put(thing);
    }
    const gone = all.filter((_, i) => i % 3 !== 1).map((t) => t.id);
    expect(collection.deleteMany([...gone, 'never-stored'])).toBe(gone.length);
    const left = all.filter((t) => !gone.includes(t.id));
    for (const group of ['a', 'b']) {
      expect(walk(collection, group, 7)).toEqual(reference(left, group));
      expect(collection.ordered('byGroup', group, { from: 10, to: 30 }).count).toBe(reference(left, group, 10, 30).length);
    }
    await store.durable();
    await store.closeWithoutCompaction();
    const reopened = await Store.open({ file });
    expect(walk(things(reopened), 'a', 50)).toEqual(reference(left, 'a'));
    await reopened.close();
  });

  it('stays sorted across creates out of order, equal instants, regrouping, re-timing and deletes, then across restarts', async () => {
    const file = tempFile();
    const rng = rngFrom('ordered-index-test');
    const store = await Store.open({ file });
    const collection = things(store);
    for (let i = 0; i < 300; i++) {
      const id = `t${rng.int(0, 120)}`;
      const roll = rng.next();
      // Deletes, re-timed and regrouped replacements of existing ids, and fresh puts (many instants shared).
      if (roll < 0.2) collection.delete(id);
      else collection.put({ id, group: rng.pick(['a', 'b', 'c']), at: rng.int(0, 80) });
      if (i % 50 === 0) expectConsistent(collection);
    }
    expectConsistent(collection);
    await store.durable();
    const expected = collection.all();

    // Restart from the journal (what a crash leaves: the files as they are, without the lock) and from the
    // snapshot (clean close): same answers.
    const crashed = tempFile();
    cpSync(join(file, '..'), join(crashed, '..'), { recursive: true, filter: (path) => !path.endsWith('.lock') });
    await store.close();
    const fromJournal = await Store.open({ file: crashed });
    const replayed = things(fromJournal);
    expect(new Set(replayed.all().map((t) => JSON.stringify(t)))).toEqual(new Set(expected.map((t) => JSON.stringify(t))));
    expectConsistent(replayed);
    replayed.put({ id: 'late', group: 'a', at: 5 });
    replayed.delete(expected[0]?.id as string);
    expectConsistent(replayed);
    await fromJournal.close();

    const fromSnapshot = await Store.open({ file: crashed });
    const reloaded = things(fromSnapshot);
    expect(reloaded.get('late')).toEqual({ id: 'late', group: 'a', at: 5 });
    expectConsistent(reloaded);
    await fromSnapshot.close();
  });

  it('is built on its first use from the records as they are then, out of order, replaced and deleted, and kept up to date after', async () => {
    const rng = rngFrom('ordered-index-first-use');
    const store = await Store.open();
    const collection = things(store);
    for (let i = 0; i < 200; i++) {
      const id = `t${rng.int(0, 80)}`;
      if (rng.next() < 0.2) collection.delete(id);
      else collection.put({ id, group: rng.pick(['a', 'b', 'c']), at: rng.int(0, 80) });
    }
    expectConsistent(collection);
    collection.put({ id: 'late', group: 'b', at: 3 });
    collection.delete(collection.all()[0]?.id as string);
    expectConsistent(collection);
  });

  it('never yields a record whose order value is not a number (NaN) inside a bounded window', async () => {
    const store = await Store.open();
    const collection = things(store);
    const read = (window: { from?: number; to?: number }) => [...collection.ordered('byGroup', 'a', window).records].map((t) => t.id);
    expect(read({})).toEqual([]);
    // Filed one by one into the built index: the NaN entry sorts first, inside the searched range.
    for (const [id, at] of [
      ['t1', 10],
      ['t2', Number.NaN],
      ['t3', 20],
      ['t4', 30],
    ] as const)
      collection.put({ id, group: 'a', at });
    expect(read({ from: 5, to: 25 })).toEqual(['t3', 't1']);
    expect(read({})).toContain('t2');
  });

  it('refuses an ordered read of an unordered index', async () => {
    const store = await Store.open();
    const plain = store
      .partition('default')
      .collection<Thing>('plain')
      .index('byGroup', (t) => t.group);
    expect(() => plain.ordered('byGroup', 'a')).toThrow(/not ordered/);
  });
});

describe('GET /v1/sessions over the ordered index', () => {
  async function create(sandbox: TestSandbox, n: number, externalId: string) {
    const answer = await sandbox.call('POST', '/v1/sessions', {
      body: {
        first_name: 'Ada',
        last_name: `Walker ${n}`,
        email: `ada${n}@example.com`,
        external_id: externalId,
        send_email_invite: false,
        send_phone_invite: false,
      },
    });
    expect(answer.status).toBe(200);
    return answer.body.id as string;
  }

  async function walkSessions(sandbox: TestSandbox, query: string, limit: number): Promise<string[]> {
    const ids: string[] = [];
    let token: string | null = null;
    do {
      const answer: { status: number; body: { sessions: { id: string }[]; next_token: string | null } } = await sandbox.call(
        'GET',
        `/v1/sessions?limit=${limit}&${query}${token === null ? '' : `&next_token=${encodeURIComponent(token)}`}`,
      );
      expect(answer.status).toBe(200);
      ids.push(...answer.body.sessions.map((s) => s.id));
      token = answer.body.next_token;
    } while (token !== null);
    return ids;
  }

  it('lists newest first with each session once, by organization, external_id and date window, across a restart and later creates', async () => {
    const file = tempFile();
    const options = { memory: false, data: file, rateLimit: false, logger: silentLogger };
    const first = await testSandbox(options);
    const created: { id: string; at: number; externalId: string }[] = [];
    for (let n = 0; n < 24; n++) {
      const externalId = n % 3 === 0 ? 'every-third' : 'other';
      created.push({ id: await create(first, n, externalId), at: first.clock.now(), externalId });
      // Pairs share an instant: the id breaks the tie.
      if (n % 2 === 1) first.clock.advance(60_000);
    }
    const newestFirst = (items: typeof created) => [...items].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((c) => c.id);
    const windowStart = new Date(created[6]?.at as number).toISOString();
    const windowEnd = new Date(created[15]?.at as number).toISOString();
    const inWindow = created.filter((c) => c.at >= (created[6]?.at as number) && c.at <= (created[15]?.at as number));

    const check = async (sandbox: TestSandbox) => {
      expect(await walkSessions(sandbox, 'by_organization=true', 5)).toEqual(newestFirst(created));
      expect(await walkSessions(sandbox, 'external_id=every-third', 3)).toEqual(newestFirst(created.filter((c) => c.externalId === 'every-third')));
      expect(await walkSessions(sandbox, `start_date=${windowStart}&end_date=${windowEnd}`, 4)).toEqual(newestFirst(inWindow));
    };
    await check(first);
    await first.close();

    const second = await testSandbox(options);
    await check(second);
    second.clock.set((created.at(-1)?.at as number) + 60_000);
    created.push({ id: await create(second, 100, 'every-third'), at: second.clock.now(), externalId: 'every-third' });
    const listed = await walkSessions(second, 'by_organization=true', 7);
    expect(listed[0]).toBe(created.at(-1)?.id);
    expect(listed).toEqual(newestFirst(created));
    await second.close();
  });
});
