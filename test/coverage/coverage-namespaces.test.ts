/** Parallel workers in their own namespaces get independent coverage; clearing one leaves the other. */
import { afterEach, describe, expect, it } from 'vitest';
import { CoverageReportSchema } from '../../src/control/control.schemas.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
afterEach(async () => {
  await sandbox.close();
});

const reportOf = async (namespace: string, query = '') =>
  CoverageReportSchema.parse((await sandbox.call('GET', `/__sandbox/coverage${query}`, { key: null, namespace })).body);

describe('coverage per namespace', () => {
  it('keeps two workers apart, and reports them together with scope=all', async () => {
    sandbox = await testSandbox();
    await sandbox.call('POST', '/v1/screening/phone-trust', { body: { phone: '+447700900003' }, namespace: 'worker-1' });
    await sandbox.call('GET', '/v1/sessions/does-not-exist', { namespace: 'worker-2' });

    const one = await reportOf('worker-1');
    const two = await reportOf('worker-2');
    expect(one.namespace).toBe('worker-1');
    expect(one.hit.map((h) => h.id)).toEqual(['status POST /v1/screening/phone-trust 200', 'magic-value POST /v1/screening/phone-trust phone +447700900003']);
    expect(two.hit.map((h) => h.id)).toEqual(['status GET /v1/sessions/{id} 404']);
    expect((await reportOf('default')).hitCount).toBe(0);
    // The namespace's missed triggers carry its header, so a copied curl lands in the same partition.
    expect(two.missed.find((m) => m.id === 'scenario slow')?.curl).toContain("-H 'X-Sandbox-Namespace: worker-2'");

    const all = await reportOf('default', '?scope=all');
    expect(all.namespace).toBe('*');
    expect(all.hit.map((h) => h.id).sort()).toEqual([...one.hit, ...two.hit].map((h) => h.id).sort());
  });

  it('clears one namespace and leaves the other', async () => {
    sandbox = await testSandbox();
    await sandbox.call('GET', '/v1/auth/verify', { namespace: 'worker-1' });
    await sandbox.call('GET', '/v1/auth/verify', { namespace: 'worker-2' });
    const cleared = await sandbox.call('DELETE', '/__sandbox/coverage', { key: null, namespace: 'worker-1' });
    expect(cleared.body).toEqual({ cleared: ['worker-1'] });
    expect((await reportOf('worker-1')).hitCount).toBe(0);
    expect((await reportOf('worker-2')).hit.map((h) => [h.id, h.count])).toEqual([['status GET /v1/auth/verify 200', 1]]);
  });

  it('keeps coverage when one namespace is reset, and clears every namespace with scope=all', async () => {
    sandbox = await testSandbox();
    await sandbox.call('GET', '/v1/auth/verify', { namespace: 'worker-1' });
    await sandbox.call('GET', '/v1/auth/verify', { namespace: 'worker-2' });
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: 'worker-1' })).status).toBe(200);
    expect((await reportOf('worker-1')).hitCount).toBe(1);
    const cleared = await sandbox.call('DELETE', '/__sandbox/coverage?scope=all', { key: null });
    expect(cleared.body.cleared.sort()).toEqual(['worker-1', 'worker-2']);
    expect((await reportOf('worker-2')).hitCount).toBe(0);
  });
});
