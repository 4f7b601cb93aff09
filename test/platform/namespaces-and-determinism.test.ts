import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

describe('namespaces', () => {
  it('keeps a job created in one namespace invisible (404) in another', async () => {
    const sandbox = await testSandbox();
    const job = await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: {}, namespace: 'worker-a' });
    expect(job.headers.get('x-sandbox-namespace')).toBe('worker-a');
    expect((await sandbox.call('GET', `/v1/async-jobs/${job.body.jobId}`, { namespace: 'worker-a' })).status).toBe(200);
    expect((await sandbox.call('GET', `/v1/async-jobs/${job.body.jobId}`, { namespace: 'worker-b' })).status).toBe(404);
    expect((await sandbox.call('GET', `/v1/async-jobs/${job.body.jobId}`)).status).toBe(404);
  });

  it('gives each namespace its own clock: moving one leaves the other where it was', async () => {
    const sandbox = await testSandbox({ clock: 'real' });
    await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { freeze: true, set: '2030-01-01T00:00:00Z' }, namespace: 'frozen-one' });
    const frozen = await sandbox.call('GET', '/__sandbox/clock?namespace=frozen-one', { key: null });
    expect(frozen.body).toEqual({ namespace: 'frozen-one', mode: 'frozen', now: '2030-01-01T00:00:00.000Z' });
    const running = await sandbox.call('GET', '/__sandbox/clock', { key: null, namespace: 'running-one' });
    expect(running.body.mode).toBe('real');
    expect(running.body.now.startsWith('2030')).toBe(false);
  });

  it('rate-limits a burst in one namespace without touching another', async () => {
    const sandbox = await testSandbox();
    for (let i = 0; i < 35; i++) await sandbox.call('GET', '/v1/auth/verify', { namespace: 'noisy' });
    expect((await sandbox.call('GET', '/v1/auth/verify', { namespace: 'noisy' })).status).toBe(429);
    expect((await sandbox.call('GET', '/v1/auth/verify', { namespace: 'quiet' })).status).toBe(200);
  });

  it('keeps scenarios and journals per namespace, and resets only the named one', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/__sandbox/scenarios/server-error/activate', { key: null, namespace: 'broken' });
    expect((await sandbox.call('GET', '/v1/auth/verify', { namespace: 'broken' })).status).toBe(500);
    expect((await sandbox.call('GET', '/v1/auth/verify', { namespace: 'fine' })).status).toBe(200);
    const journal = await sandbox.call('GET', '/__sandbox/requests', { key: null, namespace: 'fine' });
    expect(journal.body.requests).toHaveLength(1);
    const reset = await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: 'broken' });
    expect(reset.body.reset).toEqual(['broken']);
    expect((await sandbox.call('GET', '/v1/auth/verify', { namespace: 'broken' })).status).toBe(200);
    expect((await sandbox.call('GET', '/__sandbox/requests', { key: null, namespace: 'fine' })).body.requests).toHaveLength(1);
  });

  it('refuses a malformed namespace name with 400', async () => {
    const sandbox = await testSandbox();
    const bad = await sandbox.call('GET', '/v1/auth/verify', { namespace: 'has spaces!' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/X-Sandbox-Namespace/);
  });
});

describe('determinism', () => {
  const jobIds = async (seed: number, namespace?: string) => {
    const sandbox = await testSandbox({ seed });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: {}, namespace })).body.jobId);
    return ids;
  };

  it('gives the same ids for the same seed, other ids for another seed or namespace, all RFC 4122 v4', async () => {
    const first = await jobIds(7);
    expect(await jobIds(7)).toEqual(first);
    expect(await jobIds(8)).not.toEqual(first);
    expect(await jobIds(7, 'elsewhere')).not.toEqual(first);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(first).size).toBe(3);
  });

  it('gives two first requests to the same new namespace distinct request ids, sent at once or after a refused one', async () => {
    const requestId = (answer: { headers: Headers }) => answer.headers.get('x-request-id');
    const alone = requestId(await (await testSandbox()).call('GET', '/v1/auth/verify', { namespace: 'fresh' }));

    const sandbox = await testSandbox();
    const [first, second] = await Promise.all([
      sandbox.call('GET', '/v1/auth/verify', { namespace: 'fresh' }),
      sandbox.call('GET', '/v1/auth/verify', { namespace: 'fresh' }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(requestId(first)).toBe(alone);
    expect(requestId(second)).not.toBe(requestId(first));
    const journal = await sandbox.call('GET', '/__sandbox/requests', { key: null, namespace: 'fresh' });
    expect(new Set(journal.body.requests.map((entry: { requestId: string }) => entry.requestId)).size).toBe(2);

    // Requests that create no namespace (no key, a wrong one) take no id of the namespace's own requests.
    const refused = await Promise.all([
      sandbox.call('GET', '/v1/auth/verify', { namespace: 'later', key: null }),
      sandbox.call('GET', '/v1/auth/verify', { namespace: 'later', key: 'sk_live_wrong' }),
    ]);
    expect(refused.map((answer) => answer.status)).toEqual([401, 401]);
    const admitted = await sandbox.call('GET', '/v1/auth/verify', { namespace: 'later' });
    expect(new Set([...refused, admitted].map(requestId)).size).toBe(3);
  });

  it('answers byte-identical bodies for the same seed, requests and frozen clock', async () => {
    const transcript = async () => {
      const sandbox = await testSandbox({ seed: 3 });
      const created = await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: { input: { a: 1 } } });
      sandbox.clock.advance(3000);
      const polled = await sandbox.call('GET', `/v1/async-jobs/${created.body.jobId}`);
      return created.text + polled.text + polled.headers.get('x-request-id');
    };
    expect(await transcript()).toBe(await transcript());
  });

  it('restarts the id sequence after a reset with a new seed, reproducibly', async () => {
    const sandbox = await testSandbox({ seed: 1 });
    const before = (await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: {} })).body.jobId;
    await sandbox.call('POST', '/__sandbox/reset', { key: null, body: { seed: 1 } });
    expect((await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: {} })).body.jobId).toBe(before);
    await sandbox.call('POST', '/__sandbox/reset', { key: null, body: { seed: 99 } });
    expect((await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: {} })).body.jobId).not.toBe(before);
  });
});

describe('OpenAPI document', () => {
  it('validates as OpenAPI 3.1 with version 0.1.0 and the x-api-key security scheme', async () => {
    const sandbox = await testSandbox();
    const doc = await sandbox.call('GET', '/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.info.version).toBe('0.1.0');
    expect(doc.body.components.securitySchemes.ApiKeyAuth).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/v1/async-jobs/{jobId}', '/v1/auth/verify', '/__sandbox/reset']));
    const result = await new Validator().validate(doc.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('serves an interactive reference at /docs', async () => {
    const sandbox = await testSandbox();
    const page = await sandbox.app.request('/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/openapi.json');
  });
});
