import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli.ts';
import { ScenarioViewSchema } from '../../src/control/control.schemas.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { silentLogger, testSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const VERIFY_DOWN = {
  name: 'verify-down',
  description: 'GET /v1/auth/verify answers 503 twice, then recovers',
  rules: [
    {
      match: { methods: ['GET'], path: '/v1/auth/verify' },
      firstN: 2,
      respond: { status: 503, error: 'Verify is down (scenario verify-down).', headers: { 'Retry-After': '1' } },
    },
  ],
};

function scenarioDirectory(...scenarios: object[]): string {
  const dir = temporaryDirectory('idv-user-scenarios-');
  for (const scenario of scenarios) writeFileSync(join(dir, `${(scenario as { name: string }).name}.json`), JSON.stringify(scenario));
  return dir;
}

describe('scenarios from a user directory', () => {
  it('loads them beside the shipped ones', async () => {
    const sandbox = await testSandbox({ extraScenariosDirs: [scenarioDirectory(VERIFY_DOWN)], scenarios: ['verify-down'] });
    const names = (await sandbox.call('GET', '/__sandbox/scenarios')).body.scenarios.map((s: { name: string }) => s.name);
    expect(names).toContain('verify-down');
    expect(names).toContain('rate-limited');
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(503);
  });

  it('takes the directory from --scenarios-dir, or else from IDV_SANDBOX_SCENARIOS_DIR', () => {
    expect(parseCli(['--scenarios-dir', 'a', '--scenarios-dir', 'b'], { IDV_SANDBOX_SCENARIOS_DIR: 'env' })).toMatchObject({ extraScenariosDirs: ['a', 'b'] });
    expect(parseCli([], { IDV_SANDBOX_SCENARIOS_DIR: 'env' })).toMatchObject({ extraScenariosDirs: ['env'] });
  });

  it('refuses to start on a user scenario that reuses a shipped name, or on an invalid file, naming it', async () => {
    const clash = scenarioDirectory({ ...VERIFY_DOWN, name: 'slow' });
    await expect(createSandbox({ port: null, memory: true, logger: silentLogger, extraScenariosDirs: [clash] })).rejects.toThrow(
      'Scenario "slow" is defined twice',
    );
    const invalid = temporaryDirectory('idv-user-scenarios-');
    mkdirSync(invalid, { recursive: true });
    writeFileSync(join(invalid, 'broken.json'), JSON.stringify({ name: 'broken', description: 'x', rules: [{ respond: { status: 302, error: 'x' } }] }));
    await expect(createSandbox({ port: null, memory: true, logger: silentLogger, extraScenariosDirs: [invalid] })).rejects.toThrow(
      `Scenario file ${join(invalid, 'broken.json')} is invalid at "rules.0.respond.status"`,
    );
  });
});

describe('scenarios added at run time', () => {
  it('adds a validated scenario to the namespace, inactive; once active it fires and each rule counts its firings', async () => {
    const sandbox = await testSandbox();
    const added = await sandbox.call('POST', '/__sandbox/scenarios', { body: VERIFY_DOWN, namespace: 'ci-1' });
    expect(added.status).toBe(201);
    expect(ScenarioViewSchema.parse(added.body)).toMatchObject({ name: 'verify-down', active: false, origin: 'runtime', rules: [{ fired: 0 }] });

    await sandbox.call('POST', '/__sandbox/scenarios/verify-down/activate', { namespace: 'ci-1' });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await sandbox.call('GET', '/v1/auth/verify', { namespace: 'ci-1' })).status);
    expect(statuses).toEqual([503, 503, 200]);
    const list = await sandbox.call('GET', '/__sandbox/scenarios', { namespace: 'ci-1' });
    const view = list.body.scenarios.find((s: { name: string }) => s.name === 'verify-down');
    expect(view.rules[0].fired).toBe(2);

    // Namespaced: another namespace neither sees it nor can use it.
    const other = await sandbox.call('GET', '/__sandbox/scenarios', { namespace: 'ci-2' });
    expect(other.body.scenarios.map((s: { name: string }) => s.name)).not.toContain('verify-down');
    const header = await sandbox.call('GET', '/v1/auth/verify', { namespace: 'ci-2', headers: { 'x-sandbox-scenario': 'verify-down' } });
    expect(header.status).toBe(400);
    expect(header.body.error).toContain('Unknown scenario "verify-down" in X-Sandbox-Scenario');
  });

  it('counts the firings of shipped scenario rules too, from activation on', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/__sandbox/scenarios/server-error/activate');
    await sandbox.call('GET', '/v1/auth/verify');
    await sandbox.call('GET', '/v1/auth/verify');
    const view = (await sandbox.call('GET', '/__sandbox/scenarios')).body.scenarios.find((s: { name: string }) => s.name === 'server-error');
    expect(view.rules.map((rule: { fired: number }) => rule.fired)).toEqual([2]);
  });

  it('refuses an invalid scenario with a 400 naming the field, and stores nothing', async () => {
    const sandbox = await testSandbox();
    const invalid = await sandbox.call('POST', '/__sandbox/scenarios', { body: { ...VERIFY_DOWN, name: 'Verify Down' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toContain('name');
    const noRules = await sandbox.call('POST', '/__sandbox/scenarios', { body: { name: 'empty', description: 'nothing' } });
    expect(noRules.status).toBe(400);
    expect(noRules.body.error).toContain('at least one rule or behaviour');
    const names = (await sandbox.call('GET', '/__sandbox/scenarios')).body.scenarios.map((s: { name: string }) => s.name);
    expect(names).not.toContain('empty');
    expect(names).not.toContain('Verify Down');
  });

  it('answers 409 for a name that exists, shipped or added', async () => {
    const sandbox = await testSandbox();
    const shipped = await sandbox.call('POST', '/__sandbox/scenarios', { body: { ...VERIFY_DOWN, name: 'slow' } });
    expect(shipped.status).toBe(409);
    expect(shipped.body.error).toContain('A scenario named "slow" exists');
    expect((await sandbox.call('POST', '/__sandbox/scenarios', { body: VERIFY_DOWN })).status).toBe(201);
    expect((await sandbox.call('POST', '/__sandbox/scenarios', { body: VERIFY_DOWN })).status).toBe(409);
  });

  it('removes an added scenario (deactivating it), refuses to remove a shipped one, and 404s an unknown one', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/__sandbox/scenarios', { body: VERIFY_DOWN });
    await sandbox.call('POST', '/__sandbox/scenarios/verify-down/activate');
    const removed = await sandbox.call('DELETE', '/__sandbox/scenarios/verify-down');
    expect(removed).toMatchObject({ status: 200, body: { removed: 'verify-down' } });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    const shipped = await sandbox.call('DELETE', '/__sandbox/scenarios/slow');
    expect(shipped.status).toBe(409);
    expect(shipped.body.error).toContain('POST /__sandbox/scenarios/slow/deactivate');
    expect((await sandbox.call('DELETE', '/__sandbox/scenarios/verify-down')).status).toBe(404);
  });

  it('is gone after the namespace is reset', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/__sandbox/scenarios', { body: VERIFY_DOWN, namespace: 'ci-3' });
    await sandbox.call('POST', '/__sandbox/reset', { namespace: 'ci-3' });
    const names = (await sandbox.call('GET', '/__sandbox/scenarios', { namespace: 'ci-3' })).body.scenarios.map((s: { name: string }) => s.name);
    expect(names).not.toContain('verify-down');
  });
});
