import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox.ts';
import { KEYS, silentLogger, testSandbox } from '../helpers/sandbox.ts';

function scenarioFile(content: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'idv-scenario-'));
  const file = join(dir, 'custom.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('scenarios', () => {
  it('lists the nine shipped scenarios with descriptions', async () => {
    const sandbox = await testSandbox();
    const list = await sandbox.call('GET', '/__sandbox/scenarios', { key: null });
    expect(list.body.scenarios.map((s: { name: string }) => s.name).sort()).toEqual([
      'async-jobs-fail',
      'async-jobs-stuck',
      'auto-decline',
      'carrier-unavailable',
      'flaky',
      'insufficient-funds',
      'rate-limited',
      'server-error',
      'slow',
    ]);
    for (const scenario of list.body.scenarios) expect(scenario.description.length).toBeGreaterThan(20);
  });

  it('applies a scenario to one request through X-Sandbox-Scenario and explains it', async () => {
    const sandbox = await testSandbox();
    const failed = await sandbox.call('GET', '/v1/auth/verify', { headers: { 'x-sandbox-scenario': 'server-error' } });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatch(/scenario server-error/);
    expect(failed.headers.get('x-sandbox-explain')).toBe('scenario server-error');
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
  });

  it('refuses an unknown scenario name in the header with 400 listing the known ones', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('GET', '/v1/auth/verify', { headers: { 'x-sandbox-scenario': 'nope' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/Unknown scenario "nope".*rate-limited/);
  });

  it('applies an activated scenario to every request of the namespace until deactivated', async () => {
    const sandbox = await testSandbox();
    const activated = await sandbox.call('POST', '/__sandbox/scenarios/rate-limited/activate', { key: null });
    expect(activated.body).toMatchObject({ name: 'rate-limited', active: true });
    const limited = await sandbox.call('GET', '/v1/auth/verify');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    await sandbox.call('POST', '/__sandbox/scenarios/rate-limited/deactivate', { key: null });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
  });

  it('fails twice and then succeeds with a rule limited to its first 2 matches', async () => {
    const file = scenarioFile({
      name: 'fail-twice',
      description: 'The first two requests fail with 503, then requests pass.',
      rules: [
        { match: { path: '/v1/auth/*' }, firstN: 2, respond: { status: 503, error: 'Service temporarily unavailable.', headers: { 'Retry-After': '0' } } },
      ],
    });
    const sandbox = await testSandbox({ scenarioFiles: [file], scenarios: ['fail-twice'] });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await sandbox.call('GET', '/v1/auth/verify')).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
  });

  it('starts a rule after N matches with afterN', async () => {
    const file = scenarioFile({
      name: 'fail-after-one',
      description: 'The first request passes, the following ones fail.',
      rules: [{ afterN: 1, respond: { status: 500, error: 'boom' } }],
    });
    const sandbox = await testSandbox({ scenarioFiles: [file], scenarios: ['fail-after-one'] });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(500);
  });

  it('fails the same requests under flaky for the same seed, and others for another seed', async () => {
    const run = async (seed: number) => {
      const sandbox = await testSandbox({ seed, scenarios: ['flaky'], rateLimit: false });
      const statuses = [];
      for (let i = 0; i < 40; i++) statuses.push((await sandbox.call('GET', '/v1/auth/verify')).status);
      return statuses;
    };
    const first = await run(1);
    expect(await run(1)).toEqual(first);
    expect(first.filter((s) => s === 503).length).toBeGreaterThan(2);
    expect(first.filter((s) => s === 503).length).toBeLessThan(20);
    expect(await run(2)).not.toEqual(first);
  });

  it('delays requests under slow by the scenario latency', async () => {
    const waits: number[] = [];
    const sandbox = await testSandbox({ sleep: async (ms) => void waits.push(ms) });
    const slow = await sandbox.call('GET', '/v1/auth/verify', { headers: { 'x-sandbox-scenario': 'slow' } });
    expect(slow.status).toBe(200);
    expect(waits).toEqual([2000]);
    expect(slow.headers.get('x-sandbox-explain')).toBe('scenario slow: +2000 ms');
  });

  it('stops start-up on a bad scenario file, naming the file and the field', async () => {
    const file = scenarioFile({ name: 'Bad Name', description: 'x', rules: [] });
    await expect(createSandbox({ port: null, memory: true, scenarioFiles: [file], logger: silentLogger })).rejects.toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is invalid at "name"`),
    );
  });
});

describe('control plane', () => {
  it('records method, path, query, status and key id (never the key) in the request journal', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('GET', '/v1/auth/verify?probe=1');
    await sandbox.call('GET', '/v1/auth/verify', { key: 'sk_live_wrong_key' });
    const journal = await sandbox.call('GET', '/__sandbox/requests', { key: null });
    expect(journal.body.requests).toHaveLength(2);
    expect(journal.body.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/auth/verify',
      query: { probe: '1' },
      status: 200,
      keyId: 'key_live_demo',
      startedAt: '2026-01-15T09:30:00.000Z',
    });
    expect(journal.body.requests[1]).toMatchObject({ status: 401, keyId: null });
    expect(journal.text).not.toContain('sk_live');

    const filtered = await sandbox.call('GET', '/__sandbox/requests?status=401', { key: null });
    expect(filtered.body.requests).toHaveLength(1);
    expect((await sandbox.call('DELETE', '/__sandbox/requests', { key: null })).body).toEqual({ cleared: 2 });
    expect((await sandbox.call('GET', '/__sandbox/requests', { key: null })).body.requests).toEqual([]);
  });

  it('advances, sets and freezes the clock, which moves timestamps', async () => {
    const sandbox = await testSandbox();
    const advanced = await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { advance: '90s' } });
    expect(advanced.body).toEqual({ namespace: 'default', mode: 'frozen', now: '2026-01-15T09:31:30.000Z' });
    const job = await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: {} });
    expect(job.body.updatedAt).toBe('2026-01-15T09:31:30.000Z');
    const set = await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { set: '2027-03-01T00:00:00Z' } });
    expect(set.body.now).toBe('2027-03-01T00:00:00.000Z');
    const bad = await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { advance: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/advance/);
  });

  it('sets an organization balance and resets everything back to the fixtures', async () => {
    const sandbox = await testSandbox();
    const set = await sandbox.call('PUT', '/__sandbox/organizations/org_demo/balance', { key: null, body: { balance: 7 } });
    expect(set.body).toMatchObject({ id: 'org_demo', balance: 7 });
    expect((await sandbox.call('PUT', '/__sandbox/organizations/org_nope/balance', { key: null, body: { balance: 7 } })).status).toBe(404);
    await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { advance: '1h' } });
    await sandbox.call('POST', '/__sandbox/scenarios/flaky/activate', { key: null });
    const reset = await sandbox.call('POST', '/__sandbox/reset', { key: null });
    expect(reset.body.reset).toContain('default');
    const orgs = await sandbox.call('GET', '/__sandbox/organizations', { key: null });
    expect(orgs.body.organizations.find((o: { id: string }) => o.id === 'org_demo').balance).toBe(1000);
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now).toBe('2026-01-15T09:30:00.000Z');
    const scenarios = await sandbox.call('GET', '/__sandbox/scenarios', { key: null });
    expect(scenarios.body.scenarios.filter((s: { active: boolean }) => s.active)).toEqual([]);
  });

  it('lists scenarios, fixture keys and job kinds in the catalog', async () => {
    const sandbox = await testSandbox();
    const catalog = await sandbox.call('GET', '/__sandbox/catalog', { key: null });
    expect(catalog.body.fixtureKeys.map((k: { key: string }) => k.key)).toEqual(
      expect.arrayContaining([KEYS.live, KEYS.sandbox, KEYS.other, KEYS.broke, KEYS.revoked]),
    );
    expect(catalog.body.scenarios).toHaveLength(9);
    expect(catalog.body.jobKinds).toContain('sandbox.echo');
  });

  it('requires the admin token on the control plane and console when one is set', async () => {
    const sandbox = await testSandbox({ adminToken: 's3cret-token' });
    const denied = await sandbox.call('GET', '/__sandbox/clock', { key: null });
    expect(denied.status).toBe(401);
    expect(denied.body.detail).toMatch(/Authorization: Bearer/);
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null, headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null, headers: { authorization: 'Bearer s3cret-token' } })).status).toBe(200);
    expect((await sandbox.call('GET', '/console', { key: null })).status).toBe(401);
    const login = await sandbox.app.request('/console/login', { method: 'POST', body: new URLSearchParams({ token: 's3cret-token' }) });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    const page = await sandbox.app.request('/console', { headers: { cookie: cookie.split(';')[0] as string } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('idv-sandbox console');
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400 and a message saying how to fix it', async () => {
    const sandbox = await testSandbox();
    const bad = await sandbox.call('POST', '/__sandbox/clock', { key: null, raw: '{"advance": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Malformed JSON/);
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now).toBe('2026-01-15T09:30:00.000Z');
  });

  it('answers a wrong content type with 415', async () => {
    const sandbox = await testSandbox();
    const bad = await sandbox.call('POST', '/__sandbox/clock', { key: null, raw: 'advance=1s', headers: { 'content-type': 'text/plain' } });
    expect(bad.status).toBe(415);
    expect(bad.body.error).toMatch(/application\/json/);
  });

  it('changes nothing for a body with __proto__', async () => {
    const sandbox = await testSandbox();
    const hostile = await sandbox.call('POST', '/__sandbox/clock', { key: null, raw: '{"__proto__": {"freeze": false, "polluted": true}}' });
    expect(hostile.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body).toMatchObject({ mode: 'frozen', now: '2026-01-15T09:30:00.000Z' });
    const job = await sandbox.call('POST', '/__sandbox/jobs', { key: null, raw: '{"input": {"__proto__": {"polluted": true}}}' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect([201, 400]).toContain(job.status);
  });

  it('answers an unknown route with 404 JSON naming it', async () => {
    const sandbox = await testSandbox();
    const missing = await sandbox.call('GET', '/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('No route GET /v1/nothing-here. The endpoints are listed at http://127.0.0.1:4010/docs.');
  });

  it('answers an oversized body with 413', async () => {
    const sandbox = await testSandbox();
    const huge = await sandbox.call('POST', '/__sandbox/jobs', { key: null, raw: JSON.stringify({ input: { blob: 'x'.repeat(49 * 1024 * 1024) } }) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatch(/too large/);
  });
});
