/**
 * Scenario files are read again when they change: the running sandbox serves the edited rules, and each
 * reload is in every namespace's journal (or, refused, says why while the previous scenarios stay).
 * `scenarioFiles.reload()` is the step the file watcher runs after its debounce; tests call it directly.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox.ts';
import { silentLogger, testSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const verifyDown = (status: number) => ({
  name: 'verify-down',
  description: `GET /v1/auth/verify answers ${status}`,
  rules: [{ match: { methods: ['GET'], path: '/v1/auth/verify' }, respond: { status, error: 'Verify is down.' } }],
});

function scenarioDirectory(scenario: unknown): { directory: string; file: string } {
  const directory = temporaryDirectory('idv-reload-');
  const file = join(directory, 'verify-down.json');
  writeFileSync(file, JSON.stringify(scenario));
  return { directory, file };
}

describe('scenario files reloaded', () => {
  it('serves an edited file without a restart, keeps it active, and journals the reload in every namespace', async () => {
    const { directory, file } = scenarioDirectory(verifyDown(503));
    const sandbox = await testSandbox({ extraScenariosDirs: [directory] });
    await sandbox.call('POST', '/__sandbox/scenarios/verify-down/activate', { key: null });
    await sandbox.call('POST', '/__sandbox/scenarios/verify-down/activate', { key: null, namespace: 'ci-1' });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(503);

    writeFileSync(file, JSON.stringify(verifyDown(502)));
    writeFileSync(join(directory, 'extra.json'), JSON.stringify({ ...verifyDown(500), name: 'verify-extra' }));
    expect(sandbox.platform.scenarioFiles.reload(sandbox.platform)).toEqual({ added: ['verify-extra'], changed: ['verify-down'], removed: [] });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(502);

    for (const namespace of ['default', 'ci-1']) {
      const reloads = await sandbox.call('POST', '/__sandbox/requests/find', { key: null, body: { method: 'RELOAD' }, namespace });
      expect(reloads.body.requests).toEqual([
        expect.objectContaining({
          requestId: 'reload_1',
          path: '/__sandbox/scenarios',
          status: 200,
          responseBody: { added: ['verify-extra'], changed: ['verify-down'], removed: [] },
          explain: 'scenario files changed on disk: added verify-extra; changed verify-down',
          startedAt: '2026-01-15T09:30:00.000Z',
        }),
      ]);
    }
    // Nothing changed since: no reload, no entry.
    expect(sandbox.platform.scenarioFiles.reload(sandbox.platform)).toBeUndefined();

    rmSync(file);
    expect(sandbox.platform.scenarioFiles.reload(sandbox.platform)).toEqual({ added: [], changed: [], removed: ['verify-down'] });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    const listed = await sandbox.call('GET', '/__sandbox/scenarios', { key: null });
    expect(listed.body.scenarios.map((scenario: { name: string }) => scenario.name)).toContain('verify-extra');
    expect(listed.body.scenarios.map((scenario: { name: string }) => scenario.name)).not.toContain('verify-down');
  });

  it('refuses an invalid edit, keeps serving the previous scenarios and journals why', async () => {
    const { directory, file } = scenarioDirectory(verifyDown(503));
    const sandbox = await testSandbox({ extraScenariosDirs: [directory], scenarios: ['verify-down'] });
    writeFileSync(file, JSON.stringify({ ...verifyDown(503), rules: [{ respond: { status: 302, error: 'x' } }] }));
    const refused = sandbox.platform.scenarioFiles.reload(sandbox.platform);
    expect(refused).toEqual({
      error: `Scenario file ${file} is invalid at "rules.0.respond.status": a stub answers a 2xx (with "body") or a 4xx/5xx (with "error"), not a 3xx`,
    });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(503);
    const journal = await sandbox.call('POST', '/__sandbox/requests/find', { key: null, body: { method: 'RELOAD' } });
    expect(journal.body.requests[0]).toMatchObject({
      status: 400,
      responseBody: { error: expect.stringMatching(/not a 3xx\. The previous scenarios stay\.$/) },
    });

    // A scenario active from start-up (--scenario) may not disappear.
    rmSync(file);
    expect(sandbox.platform.scenarioFiles.reload(sandbox.platform)).toEqual({
      error: 'Scenario "verify-down" is active from start-up (--scenario) and no file defines it any more',
    });
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(503);
  });

  it('notices a changed file on its own when watching, and journals one reload for the events of one save', async () => {
    const { directory, file } = scenarioDirectory(verifyDown(503));
    const sandbox = await createSandbox({ port: null, memory: true, logger: silentLogger, extraScenariosDirs: [directory], watchScenarios: true });
    const reloaded = sandbox.platform.scenarioFiles.nextReload();
    writeFileSync(file, JSON.stringify(verifyDown(502)));
    expect(await reloaded).toEqual({ added: [], changed: ['verify-down'], removed: [] });
    const reloads = await sandbox.app.request('/__sandbox/requests/count', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"method":"RELOAD"}',
    });
    expect(await reloads.json()).toEqual({ namespace: 'default', count: 1 });
    await sandbox.close();
  });
});

describe('reloads in request verification', () => {
  it('are left out of counts and near misses unless the pattern asks for RELOAD', async () => {
    const { directory, file } = scenarioDirectory(verifyDown(503));
    const sandbox = await testSandbox({ extraScenariosDirs: [directory] });
    await sandbox.call('GET', '/v1/auth/verify');
    writeFileSync(file, JSON.stringify(verifyDown(502)));
    sandbox.platform.scenarioFiles.reload(sandbox.platform);
    const all = await sandbox.call('POST', '/__sandbox/requests/count', { key: null, body: {} });
    expect(all.body.count).toBe(1);
    const missed = await sandbox.call('POST', '/__sandbox/requests/verify', { key: null, body: { path: '/v1/sessions' } });
    expect(missed.body.nearMisses.map((miss: { method: string }) => miss.method)).toEqual(['GET']);
    const reloads = await sandbox.call('POST', '/__sandbox/requests/count', { key: null, body: { method: 'reload' } });
    expect(reloads.body.count).toBe(1);
  });
});
