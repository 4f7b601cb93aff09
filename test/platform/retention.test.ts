import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/platform/store/store.ts';
import { SLICE_ITEMS } from '../../src/platform/background/work-slices.ts';
import { storagePath } from '../../src/platform/storage/storage-path.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

async function createSession(sandbox: TestSandbox, n: number, namespace?: string): Promise<string> {
  const answer = await sandbox.call('POST', '/v1/sessions', {
    namespace,
    body: { first_name: 'Ada', last_name: `Walker ${n}`, email: `ada${n}@example.com`, send_email_invite: false, send_phone_invite: false },
  });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
}

const advance = (sandbox: TestSandbox, by: string, namespace?: string) =>
  sandbox.call('POST', '/__sandbox/clock', { key: null, namespace, body: { advance: by } });
const purge = (sandbox: TestSandbox) => sandbox.call('POST', '/__sandbox/retention/purge', { key: null });
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

/** Presigns one upload and PUTs its bytes: its storage key. */
async function upload(sandbox: TestSandbox): Promise<string> {
  const presigned = await sandbox.call('POST', '/v1/upload/presign', {
    key: KEYS.live,
    body: { files: [{ contentType: 'image/jpeg', byteLength: JPEG.length }] },
  });
  const [{ uploadUrl, fileKey }] = presigned.body.uploads;
  const url = new URL(uploadUrl);
  const put = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: JPEG });
  expect(put.status).toBe(200);
  return fileKey as string;
}

const sessionStatus = async (sandbox: TestSandbox, id: string, namespace?: string) => (await sandbox.call('GET', `/v1/sessions/${id}`, { namespace })).status;

describe('retention (--retention DAYS)', () => {
  it('drops records past the limit on the virtual clock, keeps those inside it, and they stay gone after a restart', async () => {
    const data = join(temporaryDirectory(), 'store.json');
    const sandbox = await testSandbox({ memory: false, data, retentionDays: 30 });
    const old = await createSession(sandbox, 1);
    await advance(sandbox, '20d');
    const recent = await createSession(sandbox, 2);
    await advance(sandbox, '11d');

    const purged = await purge(sandbox);
    expect(purged.status).toBe(200);
    expect(purged.body.purged).toEqual([{ namespace: 'default', records: 1, dropped: false }]);
    expect(await sessionStatus(sandbox, old)).toBe(404);
    expect(await sessionStatus(sandbox, recent)).toBe(200);
    // Killed without the closing snapshot: the journal alone must carry the purge.
    await sandbox.closeNow();

    const restarted = await testSandbox({ memory: false, data, retentionDays: 30 });
    expect(await sessionStatus(restarted, old)).toBe(404);
    expect(await sessionStatus(restarted, recent)).toBe(200);
    await restarted.close();
  });

  it('keeps when each record was written across a restart (through the snapshot), so the limit still counts from then', async () => {
    const data = join(temporaryDirectory(), 'store.json');
    const first = await testSandbox({ memory: false, data, retentionDays: 30 });
    const id = await createSession(first, 1);
    await first.close();

    // The restarted clock stands where the first one did: 29 days later the record is inside the limit, 31 outside.
    const second = await testSandbox({ memory: false, data, retentionDays: 30 });
    await advance(second, '29d');
    expect((await purge(second)).body.purged).toEqual([]);
    expect(await sessionStatus(second, id)).toBe(200);
    await advance(second, '2d');
    await purge(second);
    expect(await sessionStatus(second, id)).toBe(404);
    await second.close();
  });

  it('drops a whole namespace none of whose records was written within the limit', async () => {
    const sandbox = await testSandbox({ retentionDays: 7 });
    await createSession(sandbox, 1, 'ci-run-1');
    await createSession(sandbox, 2, 'ci-run-1');
    await advance(sandbox, '8d', 'ci-run-1');
    const purged = await purge(sandbox);
    expect(purged.body.purged).toContainEqual({ namespace: 'ci-run-1', records: expect.any(Number), dropped: true });
    const stats = await sandbox.call('GET', '/__sandbox/stats', { key: null });
    expect(stats.body.namespaces.map((n: { namespace: string }) => n.namespace)).not.toContain('ci-run-1');
  });

  it("removes an upload's bytes with its record, and keeps the bytes of uploads inside the limit", async () => {
    const data = join(temporaryDirectory(), 'store.json');
    const sandbox = await testSandbox({ memory: false, data, retentionDays: 30 });
    const bytesOf = (fileKey: string) => storagePath(`${data}.uploads`, 'default', fileKey.replace('uploads/', ''));
    const old = await upload(sandbox);
    await advance(sandbox, '31d');
    const recent = await upload(sandbox);
    expect(existsSync(bytesOf(old))).toBe(true);

    expect((await purge(sandbox)).body.purged).toEqual([{ namespace: 'default', records: 1, dropped: false }]);
    expect(existsSync(bytesOf(old))).toBe(false);
    expect(existsSync(bytesOf(recent))).toBe(true);
    const world = sandbox.platform.worlds.get();
    await expect(sandbox.platform.uploads.read(world, 'org_demo', old)).rejects.toMatchObject({ status: 403 });
    expect((await sandbox.platform.uploads.read(world, 'org_demo', recent)).bytes.equals(JPEG)).toBe(true);
    await sandbox.close();
  });

  it('keeps everything without --retention', async () => {
    const sandbox = await testSandbox();
    const id = await createSession(sandbox, 1);
    await advance(sandbox, '3650d');
    expect((await purge(sandbox)).body.purged).toEqual([]);
    expect(await sessionStatus(sandbox, id)).toBe(200);
  });

  it('answers a request while a purge runs', async () => {
    const sandbox = await testSandbox({ retentionDays: 1 });
    const things = sandbox.platform.worlds.get().data.collection<{ id: string }>('things');
    for (let i = 0; i < SLICE_ITEMS * 20; i++) things.put({ id: `t${i}` });
    await advance(sandbox, '2d');
    // Written now: inside the limit, so the default namespace is purged record by record.
    const kept = await createSession(sandbox, 1);
    const order: string[] = [];
    const purging = purge(sandbox).finally(() => order.push('purge'));
    const read = sandbox.call('GET', `/v1/sessions/${kept}`).finally(() => order.push('read'));
    const [purged, answered] = await Promise.all([purging, read]);
    expect(answered.status).toBe(200);
    expect(order).toEqual(['read', 'purge']);
    expect(purged.body.purged).toEqual([{ namespace: 'default', records: SLICE_ITEMS * 20, dropped: false }]);
    expect(things.size).toBe(0);
  });
});

describe('retention per namespace (PUT /__sandbox/retention)', () => {
  it('sets, reads and clears a namespace’s own limit, which overrides --retention', async () => {
    const sandbox = await testSandbox({ retentionDays: 30 });
    expect((await sandbox.call('GET', '/__sandbox/retention', { key: null, namespace: 'team-a' })).body).toEqual({
      namespace: 'team-a',
      days: 30,
      source: 'sandbox',
    });
    const set = await sandbox.call('PUT', '/__sandbox/retention', { key: null, namespace: 'team-a', body: { days: 2 } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ namespace: 'team-a', days: 2, source: 'namespace' });
    const id = await createSession(sandbox, 1, 'team-a');
    const elsewhere = await createSession(sandbox, 2);
    await advance(sandbox, '3d', 'team-a');
    await advance(sandbox, '3d');
    await purge(sandbox);
    expect(await sessionStatus(sandbox, id, 'team-a')).toBe(404);
    expect(await sessionStatus(sandbox, elsewhere)).toBe(200);

    const forever = await sandbox.call('PUT', '/__sandbox/retention', { key: null, namespace: 'team-b', body: { days: 0 } });
    expect(forever.body).toEqual({ namespace: 'team-b', source: 'namespace' });
    const cleared = await sandbox.call('PUT', '/__sandbox/retention', { key: null, namespace: 'team-b', body: { days: null } });
    expect(cleared.body).toEqual({ namespace: 'team-b', days: 30, source: 'sandbox' });
  });

  it('refuses a negative, fractional or missing limit with a 400 that names the field, and changes nothing', async () => {
    const sandbox = await testSandbox();
    for (const body of [{ days: -1 }, { days: 1.5 }, {}, { days: '30' }]) {
      const answer = await sandbox.call('PUT', '/__sandbox/retention', { key: null, namespace: 'team-a', body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/days/);
    }
    expect((await sandbox.call('GET', '/__sandbox/retention', { key: null, namespace: 'team-a' })).body).toEqual({ namespace: 'team-a', source: 'none' });
  });
});

describe('GET /__sandbox/stats', () => {
  it('shows records, bytes and the oldest record per namespace', async () => {
    const sandbox = await testSandbox({ retentionDays: 90 });
    await createSession(sandbox, 1);
    await advance(sandbox, '1h');
    await createSession(sandbox, 2);
    await createSession(sandbox, 3, 'team-a');
    const stats = await sandbox.call('GET', '/__sandbox/stats', { key: null });
    expect(stats.status).toBe(200);
    const byName = Object.fromEntries(stats.body.namespaces.map((n: { namespace: string }) => [n.namespace, n]));
    // Sessions, and the organization's token balance they were charged to.
    expect(byName.default).toMatchObject({ records: 3, oldestRecordAt: '2026-01-15T09:30:00.000Z', retentionDays: 90 });
    expect(byName.default.collections).toEqual([
      { collection: 'balances', records: 1, bytes: expect.any(Number) },
      { collection: 'sessions', records: 2, bytes: expect.any(Number) },
    ]);
    expect(byName.default.bytes).toBe(byName.default.collections[0].bytes + byName.default.collections[1].bytes);
    expect(byName.default.collections[1].bytes).toBeGreaterThan(1000);
    expect(byName['team-a']).toMatchObject({ records: 2, oldestRecordAt: '2026-01-15T09:30:00.000Z' });
    expect(stats.body.records).toBe(5);
    expect(stats.body.bytes).toBe(byName.default.bytes + byName['team-a'].bytes);
  });
});

describe('write instants in the store files', () => {
  it('reads a snapshot written before the instants existed, and stamps its records at the first purge', async () => {
    const file = join(temporaryDirectory(), 'store.json');
    const store = await Store.open({ file });
    store.partition('default').collection<{ id: string }>('things').put({ id: 'unstamped' });
    await store.close();
    const sandbox = await testSandbox({ memory: false, data: file, retentionDays: 1 });
    const things = sandbox.platform.worlds.get().data.collection<{ id: string }>('things');
    expect(things.writtenAt('unstamped')).toBeUndefined();
    await purge(sandbox);
    expect(things.writtenAt('unstamped')).toBe(Date.parse('2026-01-15T09:30:00.000Z'));
    await advance(sandbox, '2d');
    await purge(sandbox);
    expect(sandbox.platform.worlds.get().data.collection('things').has('unstamped')).toBe(false);
    await sandbox.close();
  });
});
