import { readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/platform/errors/api-error.ts';
import { Store } from '../../src/platform/store/store.ts';
import { MAX_RECORD_BYTES } from '../../src/platform/store/store-files.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { tempDataFile } from '../helpers/data-dir.ts';
import { STRICT_RESPONSES } from '../helpers/sandbox.ts';

/** A store of `count` records of about `bytes` each, in two namespaces and two collections. */
async function grownStore(file: string, count: number, bytes: number): Promise<Store> {
  const store = await Store.open({ file, compactAfterBytes: Number.MAX_SAFE_INTEGER });
  const filler = 'x'.repeat(bytes);
  for (let i = 0; i < count; i++) {
    store
      .partition(i % 2 ? 'ns-a' : 'default')
      .collection<{ id: string; n: number; filler: string }>(i % 3 ? 'sessions' : 'jobs')
      .put({ id: `r${i}`, n: i, filler });
    if (i % 10_000 === 0) await store.durable();
  }
  await store.durable();
  return store;
}

describe('the snapshot writer', () => {
  it('writes a compact snapshot, one record per line, that is one JSON document holding the whole state', async () => {
    const file = tempDataFile();
    const store = await grownStore(file, 5, 3);
    store.partition('empty-namespace');
    await store.close();
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').filter((line) => /^\s/.test(line))).toEqual([]);
    expect(text.split('\n').filter((line) => line.startsWith('{"id":'))).toHaveLength(5);
    const parsed = JSON.parse(text) as { namespaces: Record<string, Record<string, { id: string }[]>> };
    expect(parsed).toMatchObject({ format: 'idv-sandbox-store', version: 1 });
    expect(
      Object.fromEntries(
        Object.entries(parsed.namespaces).map(([ns, c]) => [
          ns,
          Object.fromEntries(Object.entries(c).map(([name, records]) => [name, records.map((r) => r.id)])),
        ]),
      ),
    ).toEqual({
      default: { jobs: ['r0'], sessions: ['r2', 'r4'] },
      'ns-a': { sessions: ['r1'], jobs: ['r3'] },
      'empty-namespace': {},
    });
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('sessions').get('r4')).toEqual({ id: 'r4', n: 4, filler: 'xxx' });
    await reopened.close();
  });

  it('lets the event loop run while it rewrites a store of 100,000 records', async () => {
    const file = tempDataFile();
    const store = await grownStore(file, 100_000, 100);
    let turns = 0;
    let writing = true;
    let last = performance.now();
    let longest = 0;
    const tick = () => {
      turns++;
      longest = Math.max(longest, performance.now() - last);
      last = performance.now();
      if (writing) setImmediate(tick);
    };
    setImmediate(tick);
    await store.close();
    writing = false;
    const size = statSync(file).size;
    console.log(`rewrote ${size} bytes of 100,000 records; the event loop turned ${turns} times meanwhile, longest wait ${longest.toFixed(1)} ms`);
    // One 1 MB chunk per turn at most: the writer never holds the loop for the whole store.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(size / (1 << 20)));
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('sessions').size + reopened.partition('ns-a').collection('sessions').size).toBe(66_666);
    await reopened.close();
  });

  it("writes a collection's write instants a piece at a time, as the one line JSON.stringify gives them", async () => {
    const file = tempDataFile();
    const store = await Store.open({ file, compactAfterBytes: Number.MAX_SAFE_INTEGER });
    const partition = store.partition('default');
    let now = 1_767_225_600_000;
    partition.useClock(() => now);
    const sessions = partition.collection<{ id: string }>('sessions');
    // 150,000 instants of 13 digits: a line of about 2 MB.
    for (let i = 0; i < 150_000; i++) {
      sessions.put({ id: `s${i}` });
      now += 1000;
    }
    await store.durable();
    const probe = await open(`${file}.probe`, 'w');
    const writeFile = vi.spyOn(Object.getPrototypeOf(probe) as { writeFile(data: string | Buffer): Promise<void> }, 'writeFile');
    await probe.close();
    try {
      await store.close();
      const longest = Math.max(...writeFile.mock.calls.map(([data]) => data.length));
      // Pieces of the text gathered up to 256 KB: the line was one write of 2 MB, made in one go.
      expect(longest).toBeLessThan(1 << 20);
    } finally {
      writeFile.mockRestore();
    }
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((text) => text.startsWith('{"id":"sessions","at":['));
    const at = Array.from({ length: 150_000 }, (_, i) => 1_767_225_600_000 + i * 1000);
    expect(line).toBe(JSON.stringify({ id: 'sessions', at }));
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('sessions').writtenAt('s149999')).toBe(at[149_999]);
    await reopened.close();
  });

  it.runIf(process.env.IDV_SANDBOX_LONG_FAULTS)(
    'writes and reads back a store past 1 GB (more than the longest string V8 holds)',
    async () => {
      const file = tempDataFile();
      const store = await grownStore(file, 1_100, 1_000_000);
      await store.close();
      expect(statSync(file).size).toBeGreaterThan(1_000_000_000);
      const reopened = await Store.open({ file });
      expect(reopened.partition('default').collection('sessions').size + reopened.partition('ns-a').collection('sessions').size).toBe(733);
      await reopened.close();
    },
    600_000,
  );
});

describe('a record too big for the store', () => {
  it('is refused with 413 before it is stored', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file });
    const things = store.partition('default').collection<{ id: string; blob: string }>('things');
    const error = (() => {
      try {
        things.put({ id: 'big', blob: 'x'.repeat(MAX_RECORD_BYTES) });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect(things.has('big')).toBe(false);
    things.put({ id: 'small', blob: 'x' });
    await store.close();
    expect(readFileSync(file, 'utf8')).not.toContain('"big"');
  });

  // Over HTTP the 1 MB body limit of non-image routes answers before a record can reach the store's limit.
  it('answers a control-plane job with an input past the per-record limit with 413 JSON before reading it, and stores nothing', async () => {
    const file = tempDataFile();
    const sandbox = await createSandbox({ port: null, data: file, clock: 'frozen@2026-01-15T09:30:00Z', ...STRICT_RESPONSES });
    try {
      const response = await sandbox.app.request('/__sandbox/jobs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: { blob: 'x'.repeat(MAX_RECORD_BYTES) } }),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: string }).error).toMatch(/^Request body too large: POST \/__sandbox\/jobs takes at most 1 MB/);
      const small = await sandbox.app.request('/__sandbox/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":{}}' });
      expect(small.status).toBe(201);
    } finally {
      await sandbox.close();
    }
    expect(readFileSync(file, 'utf8')).not.toContain('xxxxxxxx');
  });
});
