/**
 * Bounded resources: namespaces are capped by refusal (507 past the limit, none evicted), only an
 * authenticated request creates one, and a reset frees what it resets.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' };
const sessionsIn = async (sandbox: TestSandbox, namespace: string) => (await sandbox.call('GET', '/v1/sessions', { namespace })).body.sessions.length as number;

describe('the namespace cap', () => {
  it('refuses a new namespace past maxNamespaces with 507 and a sentence, and evicts none', async () => {
    const sandbox = await testSandbox({ maxNamespaces: 5 });
    await sandbox.call('POST', '/v1/sessions', { body: JANE });
    for (const namespace of ['w1', 'w2', 'w3', 'w4']) expect((await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace })).status).toBe(200);
    const refused = await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'w5' });
    expect(refused.status).toBe(507);
    expect(refused.body.error).toBe(
      'The sandbox holds 5 namespaces, its limit (--max-namespaces 5): namespace "w5" was not created. Reset the namespaces you no longer need (POST /__sandbox/reset with X-Sandbox-Namespace) or start the sandbox with a higher --max-namespaces.',
    );
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null, namespace: 'w5' })).status).toBe(507);
    expect(sandbox.platform.worlds.names().sort()).toEqual(['default', 'w1', 'w2', 'w3', 'w4']);
    for (const namespace of ['default', 'w1', 'w2', 'w3', 'w4']) expect(await sessionsIn(sandbox, namespace)).toBe(1);
    // A reset frees its namespace: there is room for a new one again.
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: 'w1' })).status).toBe(200);
    expect((await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'w5' })).status).toBe(200);
  });

  it('creates no namespace for 2,000 requests without a valid API key naming new ones', async () => {
    const sandbox = await testSandbox({ maxNamespaces: 50 });
    const kept = await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'kept' });
    const names = sandbox.platform.worlds.names();
    const changes = sandbox.platform.store.changeCount;
    for (let n = 0; n < 2000; n += 1) {
      const namespace = `flood-${n}`;
      const call = [
        () => sandbox.call('GET', '/healthz', { key: null, namespace }),
        () => sandbox.call('POST', '/v1/sessions', { body: JANE, key: null, namespace }),
        () => sandbox.call('GET', '/v1/sessions', { key: 'sk_wrong', namespace }),
        () => sandbox.call('GET', `/verify/${kept.body.id}`, { key: null, namespace }),
      ][n % 4] as () => Promise<{ status: number }>;
      expect([200, 401, 404]).toContain((await call()).status);
    }
    expect(sandbox.platform.worlds.names()).toEqual(names);
    expect(sandbox.platform.store.namespaces()).toEqual(expect.not.arrayContaining(['flood-0', 'flood-1999']));
    expect(sandbox.platform.store.changeCount).toBe(changes);
    expect((await sandbox.call('GET', `/v1/sessions/${kept.body.id}`, { namespace: 'kept' })).status).toBe(200);
  });

  it('frees every namespace on a global reset instead of building them all again', async () => {
    const sandbox = await testSandbox();
    for (let n = 0; n < 20; n += 1) await sandbox.call('GET', '/v1/sessions', { namespace: `w${n}` });
    expect(sandbox.platform.worlds.names()).toHaveLength(21);
    const reset = await sandbox.call('POST', '/__sandbox/reset', { key: null });
    expect(reset.body.reset).toHaveLength(21);
    expect(sandbox.platform.worlds.names()).toEqual(['default']);
  });
});
