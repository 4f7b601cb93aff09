/**
 * Namespaces against a file store: a flood of keyless names creates nothing and costs no memory kept, a
 * namespace holding acknowledged data stays and comes back after a restart, and names that are also
 * Object.prototype keys round-trip through writes, compaction and restarts.
 */
import { describe, expect, it } from 'vitest';
import { tempDataFile } from '../helpers/data-dir.ts';
import { silentLogger, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' };
const fileSandbox = (file: string) => testSandbox({ memory: false, data: file, logger: silentLogger });
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

async function sessionIn(sandbox: TestSandbox, namespace: string, id: string): Promise<number> {
  return (await sandbox.call('GET', `/v1/sessions/${id}`, { namespace })).status;
}

describe('namespaces on a file store', () => {
  it('2,000 keyless requests naming new namespaces create none, and the acknowledged write stays readable, also after a restart', async () => {
    const file = tempDataFile();
    const sandbox = await fileSandbox(file);
    const kept = await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'kept' });
    expect(kept.status).toBe(200);
    const names = sandbox.platform.worlds.names();
    const heap = () => {
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage().heapUsed / 1_048_576;
    };
    const heapBefore = heap();
    for (let n = 0; n < 2000; n += 1) {
      const answer = await sandbox.call('POST', '/v1/sessions', { body: JANE, key: n % 2 ? null : 'sk_wrong', namespace: `flood-${n}` });
      expect(answer.status).toBe(401);
    }
    const heapAfter = heap();
    console.log(
      `2,000 keyless namespace names: heap ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after${'gc' in globalThis ? '' : ' (without --expose-gc)'}`,
    );
    expect(sandbox.platform.worlds.names()).toEqual(names);
    expect(await sessionIn(sandbox, 'kept', kept.body.id)).toBe(200);
    await sandbox.closeNow();

    const restarted = await fileSandbox(file);
    expect(restarted.platform.worlds.names().sort()).toEqual(['default', 'kept']);
    expect(await sessionIn(restarted, 'kept', kept.body.id)).toBe(200);
    await restarted.close();
  });

  it('round-trips namespaces named like Object.prototype keys through writes, a journal replay, compaction and a restart', async () => {
    const file = tempDataFile();
    const sandbox = await fileSandbox(file);
    const ids = new Map<string, string>();
    for (const namespace of PROTOTYPE_NAMES) {
      const created = await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace });
      expect(created.status, namespace).toBe(200);
      ids.set(namespace, created.body.id);
    }
    // From the journal alone, then from the snapshot a clean close writes.
    await sandbox.closeNow();
    const replayed = await fileSandbox(file);
    for (const [namespace, id] of ids) expect(await sessionIn(replayed, namespace, id), namespace).toBe(200);
    await replayed.close();
    const compacted = await fileSandbox(file);
    for (const [namespace, id] of ids) expect(await sessionIn(compacted, namespace, id), namespace).toBe(200);
    expect(compacted.platform.worlds.names().sort()).toEqual(['default', ...PROTOTYPE_NAMES].sort());
    // Each one is its own namespace: none sees another's session.
    expect(await sessionIn(compacted, 'constructor', ids.get('__proto__') as string)).toBe(404);
    await compacted.close();
  });
});
