import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { LOCK_HEARTBEAT_MS, LOCK_STALE_AFTER_MS } from '../../src/platform/store/lock.ts';
import { Store, StoreOpenError } from '../../src/platform/store/store.ts';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.ts';
import { deadPid, directoryState, tempDataFile } from '../helpers/data-dir.ts';

const JSON_HEADERS = { 'content-type': 'application/json' };

const neverWaits = async (): Promise<void> => {
  throw new Error('the starter waited, but this lock needs no wait');
};

async function createJob(url: string, n: number): Promise<string> {
  const response = await fetch(`${url}/__sandbox/jobs`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ input: { n } }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { jobId: string }).jobId;
}

async function stop(cli: CliProcess): Promise<void> {
  cli.child.kill('SIGTERM');
  await cli.exited;
}

describe('one writer per data file (store)', () => {
  it('refuses a second open of a file, naming the file and the holder, and changes nothing on disk', async () => {
    const file = tempDataFile();
    const first = await Store.open({ file, port: 4321 });
    first.partition('default').collection('things').put({ id: 'a' });
    await first.durable();
    const before = directoryState(dirname(file));

    const error = await Store.open({ file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    const message = (error as Error).message;
    expect(message).toContain(`The data file ${file} is in use by another idv-sandbox (pid ${process.pid}`);
    expect(message).toContain('port 4321');
    expect(message).toContain(`${file}.lock`);
    expect(directoryState(dirname(file))).toEqual(before);
    await first.close();
  });

  it('records pid, host and port in the lock file, and removes it on close', async () => {
    const file = tempDataFile();
    const store = await Store.open({ file, port: 4010 });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8'))).toEqual({ pid: process.pid, host: hostname(), port: 4010 });
    await store.close();
    expect(Object.keys(directoryState(dirname(file)))).toEqual(['store.json']);
  });

  it('takes over the stale lock of a dead process', async () => {
    const file = tempDataFile();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), port: 4010 }));
    const store = await Store.open({ file });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await store.close();
  });

  it('refuses a lock it cannot read, naming it, and changes nothing on disk', async () => {
    const file = tempDataFile();
    writeFileSync(`${file}.lock`, 'garbage');
    const before = directoryState(dirname(file));
    const error = await Store.open({ file, lockWaiting: { wait: neverWaits } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(/which this sandbox cannot read/);
    expect(directoryState(dirname(file))).toEqual(before);
  });

  it("refuses another host's lock that its holder keeps refreshing, after waiting for one refresh", async () => {
    const file = tempDataFile();
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: 'another-container', port: 4010 }));
    const before = directoryState(dirname(file));
    const waits: number[] = [];
    // The holder's heartbeat, seen as the lock's modification time moving on while the starter waits.
    const heartbeat = async (ms: number) => {
      waits.push(ms);
      const later = (statSync(lock).mtimeMs + ms) / 1000;
      utimesSync(lock, later, later);
    };
    const error = await Store.open({ file, lockWaiting: { wait: heartbeat } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(/pid \d+ on another-container, port 4010.*refreshed every 5 s/);
    expect(waits).toEqual([LOCK_HEARTBEAT_MS]);
    expect(directoryState(dirname(file))).toEqual(before);
  });

  it("takes over another host's lock not refreshed for 20 s (a killed container's) at once", async () => {
    const file = tempDataFile();
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'killed-container', port: 4010 }));
    const longAgo = (statSync(lock).mtimeMs - LOCK_STALE_AFTER_MS - 1000) / 1000;
    utimesSync(lock, longAgo, longAgo);
    const said: string[] = [];
    const store = await Store.open({ file, lockWaiting: { wait: neverWaits }, warn: (message) => said.push(message) });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(said).toEqual([expect.stringMatching(/took over the data file's lock .* of pid 1 on killed-container: not refreshed for 20 s/)]);
    await store.close();
  });

  it("waits for another host's fresh lock to go 20 s without a refresh, then takes it over", async () => {
    const file = tempDataFile();
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'killed-container', port: 4010 }));
    const said: string[] = [];
    const refreshed = statSync(lock).mtimeMs;
    let waited = 0;
    // Time passes and no heartbeat moves the lock's modification time.
    const silence = async (ms: number) => {
      waited += ms;
    };
    const now = () => refreshed + waited;
    const store = await Store.open({ file, lockWaiting: { wait: silence, now }, warn: (message) => said.push(message) });
    expect(waited).toBe(LOCK_STALE_AFTER_MS);
    expect(said).toEqual([
      expect.stringMatching(/names pid 1 on killed-container, refreshed 0 s ago; waiting up to 20 s/),
      expect.stringMatching(/took over the data file's lock .* of pid 1 on killed-container/),
    ]);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await store.close();
  });

  it('keeps refreshing its own lock while it holds it, and stops when it closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const file = tempDataFile();
      const lock = `${file}.lock`;
      const store = await Store.open({ file });
      const longAgo = (statSync(lock).mtimeMs - 60_000) / 1000;
      utimesSync(lock, longAgo, longAgo);
      vi.advanceTimersByTime(LOCK_HEARTBEAT_MS);
      expect(statSync(lock).mtimeMs).toBeGreaterThan(longAgo * 1000 + 50_000);
      await store.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets exactly one of several processes racing for a stale lock take it', async () => {
    const file = tempDataFile();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), port: 1 }));
    const lockModule = fileURLToPath(new URL('../../src/platform/store/lock.ts', import.meta.url));
    const script = `import { DataLock } from ${JSON.stringify(lockModule)};
      try { await DataLock.acquire(${JSON.stringify(file)}, process.pid); console.log('held'); } catch (e) { console.log('refused'); }
      process.stdin.on('data', () => {}); process.stdin.on('end', () => process.exit(0));`;
    const racers = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      const said = new Promise<string>((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
      return { child, said };
    });
    const results = await Promise.all(racers.map((racer) => racer.said));
    const holder = JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number };
    for (const racer of racers) racer.child.stdin.end();
    await Promise.all(racers.map((racer) => new Promise((resolve) => racer.child.on('exit', resolve))));
    expect(results.filter((result) => result === 'held')).toHaveLength(1);
    expect(results.filter((result) => result === 'refused')).toHaveLength(3);
    expect(racers[results.indexOf('held')]?.child.pid).toBe(holder.pid);
  });
});

describe('one writer per data file (the real CLI)', { timeout: 90_000 }, () => {
  it('refuses a second process on another port, changes nothing on disk, and the first keeps every write', async () => {
    const file = tempDataFile();
    const first = await startCli(['--data', file]);
    const acknowledged = [await createJob(first.url, 1)];
    const presign = await fetch(`${first.url}/v1/upload/presign`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'x-api-key': 'sk_live_demo' },
      body: JSON.stringify({ files: [{ contentType: 'image/jpeg', byteLength: 4 }] }),
    });
    const { uploads } = (await presign.json()) as { uploads: { uploadUrl: string }[] };
    expect(
      (await fetch(uploads[0]?.uploadUrl as string, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) }))
        .status,
    ).toBe(200);
    const before = directoryState(dirname(file));
    expect(Object.keys(before).some((name) => name.startsWith('store.json.uploads'))).toBe(true);

    const second = runCli(['--port', '0', '--data', file]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The data file ${file} is in use by another idv-sandbox (pid ${first.child.pid}`);
    expect(second.output()).toContain(`port ${new URL(first.url).port}`);
    expect(directoryState(dirname(file))).toEqual(before);

    acknowledged.push(await createJob(first.url, 2));
    first.child.kill('SIGKILL');
    await first.exited;
    const restarted = await startCli(['--data', file]);
    try {
      const found = [];
      for (const jobId of acknowledged) {
        if ((await fetch(`${restarted.url}/v1/async-jobs/${jobId}`, { headers: { 'x-api-key': 'sk_live_demo' } })).status === 200) found.push(jobId);
      }
      console.log(`second process refused: acknowledged ${acknowledged.length}, found ${found.length} after kill -9 of the first`);
      expect(found).toEqual(acknowledged);
    } finally {
      await stop(restarted);
    }
  });

  it('fails on a taken port before touching the data directory', async () => {
    const first = await startCli(['--memory']);
    try {
      const file = tempDataFile();
      const directory = dirname(file);
      writeFileSync(join(directory, 'marker'), 'x');
      const before = directoryState(directory);
      const second = runCli(['--port', new URL(first.url).port, '--data', join(directory, 'nested', 'store.json')]);
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/EADDRINUSE/);
      const other = runCli(['--port', new URL(first.url).port, '--data', file]);
      expect(await other.exited).toBe(1);
      expect(directoryState(directory)).toEqual(before);
    } finally {
      await stop(first);
    }
  });
});
