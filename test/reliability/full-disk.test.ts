/**
 * A full disk, injected at the file layer (test/helpers/full-disk.ts): a write that cannot be made
 * durable answers 507 and leaves no torn line in the journal, reads and /healthz go on, writes work again
 * once there is room, and a compaction that fails leaves no temporary file and never ends the process.
 * A restart finds every acknowledged write. The same on a real size-limited tmpfs: full-disk-tmpfs.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from '../../src/platform/store/store.ts';
import { tempDataFile } from '../helpers/data-dir.ts';
import { disk } from '../helpers/full-disk.ts';
import { silentLogger, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

vi.mock('node:fs/promises', async (importOriginal) => (await import('../helpers/full-disk.ts')).withFullDisk(await importOriginal()));

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' };
const journalsOf = (file: string) => readdirSync(dirname(file)).filter((name) => name.includes('.journal-'));
const fileSandbox = (file: string) => testSandbox({ memory: false, data: file, logger: silentLogger });

afterEach(() => {
  disk.full = false;
  disk.files = /./;
  disk.refusals = 0;
  disk.refusesCuts = false;
});

async function createSession(sandbox: TestSandbox): Promise<{ status: number; id?: string; error?: string }> {
  const answer = await sandbox.call('POST', '/v1/sessions', { body: JANE });
  return { status: answer.status, id: answer.body.id, error: answer.body.error };
}

/** Every line of every journal is one whole JSON document. */
function expectWholeLines(file: string): void {
  for (const name of journalsOf(file)) {
    const text = readFileSync(join(dirname(file), name), 'utf8');
    if (text === '') continue;
    expect(text.endsWith('\n'), `${name} ends with a whole line`).toBe(true);
    for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }
}

describe('a full disk during journal appends', () => {
  it('answers 507 naming the data directory, keeps the journal whole, serves reads and /healthz, and writes again once there is room', async () => {
    const file = tempDataFile();
    const sandbox = await fileSandbox(file);
    const acknowledged: string[] = [];
    for (let n = 0; n < 3; n++) acknowledged.push((await createSession(sandbox)).id as string);

    disk.full = true;
    disk.files = /\.journal-\d+\.ndjson$/;
    const refused = await createSession(sandbox);
    expect(refused.status).toBe(507);
    expect(refused.error).toContain(dirname(file));
    expect(refused.error).toMatch(/is full \(ENOSPC.*Free space on that disk.*without a restart/);
    expect(disk.refusals).toBeGreaterThan(0);
    expectWholeLines(file);

    // Later writes retry the waiting changes first, and are refused while the disk stays full.
    expect((await createSession(sandbox)).status).toBe(507);
    expectWholeLines(file);
    const read = await sandbox.call('GET', `/v1/sessions/${acknowledged[0]}`);
    expect(read.status).toBe(200);
    const health = await sandbox.call('GET', '/healthz', { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'degraded', problem: refused.error });

    disk.full = false;
    const again = await createSession(sandbox);
    expect(again.status).toBe(200);
    acknowledged.push(again.id as string);
    expect((await sandbox.call('GET', '/healthz', { key: null })).body).toEqual({ status: 'ok' });
    await sandbox.closeNow();

    const restarted = await fileSandbox(file);
    for (const id of acknowledged) expect((await restarted.call('GET', `/v1/sessions/${id}`)).status).toBe(200);
    await restarted.close();
  });

  it('a restart after a refused write, with the disk still full, starts with every acknowledged write', async () => {
    const file = tempDataFile();
    const sandbox = await fileSandbox(file);
    const acknowledged = [(await createSession(sandbox)).id as string, (await createSession(sandbox)).id as string];
    disk.full = true;
    disk.files = /\.journal-\d+\.ndjson$/;
    expect((await createSession(sandbox)).status).toBe(507);
    await sandbox.closeNow();
    expectWholeLines(file);

    const restarted = await fileSandbox(file);
    for (const id of acknowledged) expect((await restarted.call('GET', `/v1/sessions/${id}`)).status).toBe(200);
    disk.full = false;
    await restarted.close();
  });

  it('a torn line whose cut was refused too is cut by the next append, before its lines', async () => {
    const file = tempDataFile();
    const sandbox = await fileSandbox(file);
    const acknowledged = [(await createSession(sandbox)).id as string];
    disk.full = true;
    disk.refusesCuts = true;
    disk.files = /\.journal-\d+\.ndjson$/;
    expect((await createSession(sandbox)).status).toBe(507);
    // The half line is still there: nothing could cut it.
    const [journal] = journalsOf(file);
    expect(readFileSync(join(dirname(file), journal as string), 'utf8').endsWith('\n')).toBe(false);

    disk.full = false;
    disk.refusesCuts = false;
    const again = await createSession(sandbox);
    expect(again.status).toBe(200);
    acknowledged.push(again.id as string);
    expectWholeLines(file);
    await sandbox.closeNow();

    const restarted = await fileSandbox(file);
    for (const id of acknowledged) expect((await restarted.call('GET', `/v1/sessions/${id}`)).status).toBe(200);
    await restarted.close();
  });
});

describe('a full disk during compaction', () => {
  it('removes the temporary file, keeps the old snapshot and the journal, warns once, and compacts once there is room', async () => {
    const file = tempDataFile();
    const warnings: string[] = [];
    const store = await Store.open({ file, compactAfterBytes: 1, warn: (message) => warnings.push(message) });
    const things = store.partition('default').collection<{ id: string; n: number }>('things');
    const snapshotBefore = readFileSync(file, 'utf8');

    disk.full = true;
    disk.files = /\.tmp$/;
    for (let n = 0; n < 5; n++) {
      things.put({ id: `t${n}`, n });
      await store.durable();
      // The background compaction this append started has ended (failed) before the next one.
      await vi.waitFor(() => expect(existsSync(`${file}.tmp`)).toBe(false));
    }
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    expect(warnings[0]).toMatch(/is full \(ENOSPC writing store\.json\.tmp\).*retried every 30 s/);
    expect(store.compactionFailure).toContain('ENOSPC');
    expect(readFileSync(file, 'utf8')).toBe(snapshotBefore);
    expect(journalsOf(file).length).toBeGreaterThan(0);

    disk.full = false;
    await store.close();
    expect(warnings).toHaveLength(1);
    expect(journalsOf(file)).toEqual([]);
    expect(readdirSync(dirname(file)).sort()).toEqual(['store.json']);
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('things').size).toBe(5);
    await reopened.close();
  });

  it('a restart after failed compactions, without a clean stop, replays every acknowledged write', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file, compactAfterBytes: 1, warn: () => undefined });
    const things = store.partition('default').collection<{ id: string; n: number }>('things');
    disk.full = true;
    disk.files = /\.tmp$/;
    for (let n = 0; n < 5; n++) {
      things.put({ id: `t${n}`, n });
      await store.durable();
      await vi.waitFor(() => expect(store.compactionFailure).not.toBeNull());
    }
    await store.closeWithoutCompaction();
    disk.full = false;
    expect(existsSync(`${file}.tmp`)).toBe(false);
    const reopened = await Store.open({ file });
    expect(reopened.partition('default').collection('things').size).toBe(5);
    await reopened.close();
  });
});
