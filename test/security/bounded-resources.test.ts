/**
 * Bounded resources: namespaces are capped (the least recently used one is evicted with its memory and
 * data), and a reset frees what it resets.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' };
const sessionsIn = async (sandbox: TestSandbox, namespace: string) => (await sandbox.call('GET', '/v1/sessions', { namespace })).body.sessions.length as number;

describe('the namespace cap', () => {
  it('keeps at most maxNamespaces namespaces, evicting the least recently used one with its data, never the default', async () => {
    const sandbox = await testSandbox({ maxNamespaces: 5 });
    await sandbox.call('POST', '/v1/sessions', { body: JANE });
    for (const namespace of ['w1', 'w2', 'w3', 'w4']) expect((await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace })).status).toBe(200);
    expect(await sessionsIn(sandbox, 'w1')).toBe(1);
    expect((await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'w5' })).status).toBe(200);
    expect(sandbox.platform.worlds.names().sort()).toEqual(['default', 'w1', 'w3', 'w4', 'w5']);
    expect(await sessionsIn(sandbox, 'w1')).toBe(1);
    expect(await sessionsIn(sandbox, 'default')).toBe(1);
    // w2 was evicted: coming back, it starts from the fixtures (and evicts the next least recently used).
    expect(await sessionsIn(sandbox, 'w2')).toBe(0);
    expect(sandbox.platform.worlds.names()).toHaveLength(5);
  });

  it('holds the cap against a flood of unauthenticated requests naming new namespaces', async () => {
    const sandbox = await testSandbox({ maxNamespaces: 50 });
    for (let n = 0; n < 2000; n += 1) expect((await sandbox.call('GET', '/healthz', { key: null, namespace: `flood-${n}` })).status).toBe(200);
    expect(sandbox.platform.worlds.names()).toHaveLength(50);
    expect(sandbox.platform.store.namespaces().length).toBeLessThanOrEqual(50);
  });

  it('frees every namespace on a global reset instead of building them all again', async () => {
    const sandbox = await testSandbox();
    for (let n = 0; n < 20; n += 1) await sandbox.call('GET', '/healthz', { key: null, namespace: `w${n}` });
    expect(sandbox.platform.worlds.names()).toHaveLength(21);
    const reset = await sandbox.call('POST', '/__sandbox/reset', { key: null });
    expect(reset.body.reset).toHaveLength(21);
    expect(sandbox.platform.worlds.names()).toEqual(['default']);
  });
});
