import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, StoreOpenError } from '../../src/platform/store/store.ts';
import { runCli, startCli } from '../helpers/cli-process.ts';
import { crash } from '../helpers/data-dir.ts';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'idv-store-')), 'store.json');

describe('store', () => {
  it('replays the journal after a crash that left no snapshot of the latest writes', async () => {
    const file = tempFile();
    const store = await Store.open({ file });
    const things = store.partition('default').collection<{ id: string; n: number }>('things');
    things.put({ id: 'a', n: 1 });
    things.put({ id: 'b', n: 2 });
    things.put({ id: 'a', n: 3 });
    things.delete('b');
    await store.durable();
    // No close(): as if the process died here. The snapshot on disk predates the writes.
    expect(JSON.parse(readFileSync(file, 'utf8')).namespaces).toEqual({});
    await crash(store, file);

    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('things').all()).toEqual([{ id: 'a', n: 3 }]);
    await reopened.close();
  });

  it('tells a request that queued nothing, with no append running, that it has nothing to wait for', async () => {
    const store = await Store.open({ file: tempFile() });
    const things = store.partition('default').collection<{ id: string; n: number }>('things');
    const before = store.changeCount;
    expect(store.durableAlready(before)).toBe(true);
    things.put({ id: 'a', n: 1 });
    expect(store.durableAlready(before)).toBe(false);
    // A later request that queued nothing still waits while the append of the write runs.
    const after = store.changeCount;
    const appending = store.durable();
    expect(store.durableAlready(after)).toBe(false);
    await appending;
    await store.durable(after);
    expect(store.durableAlready(after)).toBe(true);
    await store.close();
  });

  it('counts every change to a namespace’s records (puts, deletes, a purge), and reads as none', async () => {
    const store = await Store.open();
    const partition = store.partition('default');
    const things = partition.collection<{ id: string; n: number }>('things');
    const seen = [partition.changes];
    things.put({ id: 'a', n: 1 });
    things.put({ id: 'b', n: 1 });
    seen.push(partition.changes);
    things.get('a');
    things.all();
    seen.push(partition.changes);
    things.put({ id: 'a', n: 2 });
    seen.push(partition.changes);
    things.delete('a');
    seen.push(partition.changes);
    things.deleteMany(['b', 'missing']);
    seen.push(partition.changes);
    expect(seen).toEqual([0, 2, 2, 3, 4, 5]);
    expect(store.partition('other').changes).toBe(0);
  });

  it('leaves one JSON file holding the whole state after a clean close', async () => {
    const file = tempFile();
    const store = await Store.open({ file });
    store.partition('ns1').collection<{ id: string; label: string }>('things').put({ id: 'x', label: 'kept' });
    await store.close();
    expect(readdirSync(join(file, '..')).filter((name) => name.includes('journal'))).toEqual([]);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot).toMatchObject({ format: 'idv-sandbox-store', version: 1, namespaces: { ns1: { things: [{ id: 'x', label: 'kept' }] } } });
  });

  it('compacts into the snapshot when the journal grows past its threshold and keeps every record', async () => {
    const file = tempFile();
    const store = await Store.open({ file, compactAfterBytes: 2_000 });
    const things = store.partition('default').collection<{ id: string; n: number }>('things');
    for (let i = 0; i < 200; i++) {
      things.put({ id: `r${i}`, n: i });
      await store.durable();
    }
    await store.durable();
    await crash(store, file);
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('things').size).toBe(200);
    await reopened.close();
  });

  it('closes cleanly while a background compaction is still writing the snapshot', async () => {
    const file = tempFile();
    const store = await Store.open({ file, compactAfterBytes: 2_000 });
    const things = store.partition('default').collection<{ id: string; label: string }>('things');
    for (let i = 0; i < 400; i++) things.put({ id: `r${i}`, label: 'x'.repeat(40) });
    // The flush crosses the threshold and starts a compaction; close() comes right behind it.
    await store.durable();
    await store.close();
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('things').size).toBe(400);
    await reopened.close();
  });

  it('ignores a torn last journal line (a write that was never acknowledged)', async () => {
    const file = tempFile();
    const store = await Store.open({ file });
    store.partition('default').collection('things').put({ id: 'ok' });
    await store.durable();
    const journal = readdirSync(join(file, '..')).find((name) => name.includes('journal')) as string;
    writeFileSync(join(file, '..', journal), readFileSync(join(file, '..', journal), 'utf8') + '{"ns":"default","op":"put","c":"thi');
    await crash(store, file);
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('things').all()).toEqual([{ id: 'ok' }]);
    await reopened.close();
  });

  it.each([
    ['not JSON at all', '{"format": "idv-sandbox-store", "vers', /is not valid JSON/],
    ['a foreign JSON file', '{"users": []}', /is not an idv-sandbox store/],
    ['a newer store version', '{"format": "idv-sandbox-store", "version": 99, "generation": 1, "namespaces": {}}', /newer than this sandbox understands/],
  ])('refuses %s, naming the file and the fix, and leaves it untouched', async (_label, content, message) => {
    const file = tempFile();
    writeFileSync(file, content);
    const error = await Store.open({ file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/--memory/);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });
});

describe('the CLI with a file store', { timeout: 90_000 }, () => {
  it('keeps an acknowledged write after kill -9 and a restart', async () => {
    const file = tempFile();
    const first = await startCli(['--data', file, '--clock', 'frozen@2026-01-15T09:30:00Z']);
    const created = await fetch(`${first.url}/__sandbox/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":{"n":1}}' });
    expect(created.status).toBe(201);
    const { jobId } = (await created.json()) as { jobId: string };
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startCli(['--data', file, '--clock', 'frozen@2026-01-15T09:30:05Z']);
    try {
      const job = await fetch(`${second.url}/v1/async-jobs/${jobId}`, { headers: { 'x-api-key': 'sk_live_demo' } });
      expect(job.status).toBe(200);
      expect(await job.json()).toMatchObject({ jobId, status: 'ready', result: { echo: { n: 1 } } });
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    // A clean stop leaves the JSON file alone holding the state.
    expect(readdirSync(join(file, '..')).filter((name) => name.includes('journal'))).toEqual([]);
    expect(readFileSync(file, 'utf8')).toContain(jobId);
  });

  it('refuses to start on a corrupt data file with a message naming it', async () => {
    const file = tempFile();
    writeFileSync(file, 'this is not json');
    const run = runCli(['--port', '0', '--data', file]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(`The data file ${file} is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe('this is not json');
  });

  it('serves the API over HTTP: 404 JSON for an unknown job, 403 without a key, 401 with a revoked key, 404 for an unknown route', async () => {
    const cli = await startCli(['--memory']);
    try {
      const job = `${cli.url}/v1/async-jobs/3b241101-e2bb-4255-8caf-4136c566a962`;
      const unknown = await fetch(job, { headers: { 'x-api-key': 'sk_live_demo' } });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: string }).error).toMatch(/not found/);
      expect((await fetch(job)).status).toBe(403);
      expect((await fetch(job, { headers: { 'x-api-key': 'sk_live_revoked' } })).status).toBe(401);
      const route = await fetch(`${cli.url}/v1/unknown`, { headers: { 'x-api-key': 'sk_live_demo' } });
      expect(route.status).toBe(404);
      expect(route.headers.get('content-type')).toContain('application/json');
      expect(cli.output()).toContain('sk_live_demo');
      expect(cli.output()).toContain('/console');
      expect(existsSync('.data/never-created')).toBe(false);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});
