/**
 * The command's settings beyond flags: a config file (`--config`) whose keys are the flag names, checked
 * by one schema, below env and flags; `--log-format json` request lines; `--help` and `--version`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP, parseCli } from '../../src/cli.ts';
import { FLAG_NAMES } from '../../src/cli-settings.ts';
import { runCli } from '../helpers/cli-process.ts';
import { FROZEN_AT, testSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

/** Writes a config file in a folder of its own; returns its path. */
function configFile(content: unknown): string {
  const file = join(temporaryDirectory('idv-sandbox-config-'), 'idv-sandbox.config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('the config file', () => {
  it('sets every kind of setting, with paths read from its own folder', () => {
    const file = configFile({
      port: 5001,
      seed: 7,
      memory: true,
      'no-rate-limit': true,
      scenario: ['slow', 'flaky'],
      'scenarios-dir': ['my-scenarios'],
      data: 'state/sandbox.json',
      'log-format': 'json',
      'max-connections': 12,
      cors: 'http://localhost:3000',
    });
    const folder = file.slice(0, -'/idv-sandbox.config.json'.length);
    expect(parseCli(['--config', file], {})).toMatchObject({
      port: 5001,
      seed: 7,
      memory: true,
      rateLimit: false,
      scenarios: ['slow', 'flaky'],
      extraScenariosDirs: [join(folder, 'my-scenarios')],
      data: join(folder, 'state/sandbox.json'),
      logFormat: 'json',
      logRequests: true,
      connections: { maxConnections: 12 },
      cors: ['http://localhost:3000'],
    });
    expect(parseCli([], { IDV_SANDBOX_CONFIG: file })).toMatchObject({ port: 5001 });
  });

  it('comes below env, which comes below flags, and above the defaults', () => {
    const file = configFile({ port: 5001, seed: 7, host: '127.0.0.3' });
    expect(parseCli(['--config', file], { PORT: '5002' })).toMatchObject({ port: 5002, seed: 7, host: '127.0.0.3' });
    expect(parseCli(['--config', file, '--port', '5003'], { PORT: '5002' })).toMatchObject({ port: 5003 });
    expect(parseCli(['--config', configFile({})], {})).toMatchObject({ port: 4010, host: '127.0.0.1', rateLimit: true, logRequests: false });
    // An env switch set off wins over the file's on.
    expect(parseCli(['--config', configFile({ 'log-requests': true })], { IDV_SANDBOX_LOG_REQUESTS: '0' })).toMatchObject({ logRequests: false });
  });

  it('refuses a key that is not a flag, and a value of the wrong kind, naming the key and the reason', () => {
    const file = configFile({ prot: 4010, seed: '7', 'log-format': 'xml', scenario: 'slow', memory: 'yes' });
    const refusal = () => parseCli(['--config', file], {});
    expect(refusal).toThrow(`config file ${file}:`);
    expect(refusal).toThrow('"seed" must be a whole number');
    expect(refusal).toThrow('"scenario" must be an array of strings');
    expect(refusal).toThrow('"memory" must be true or false');
    expect(refusal).toThrow('"log-format": Invalid option: expected one of "text"|"json"');
    expect(refusal).toThrow('"prot" is not a setting (the keys are the flag names: port, host,');
    expect(() => parseCli(['--config', configFile({ port: -1 })], {})).toThrow('"port": Too small');
    expect(() => parseCli(['--config', configFile('{ "port": 4010, }')], {})).toThrow(/config file .*: .*JSON/);
    expect(() => parseCli(['--config', configFile([1])], {})).toThrow('it must hold one JSON object, its keys named as the flags');
    expect(() => parseCli(['--config', join(temporaryDirectory(), 'absent.json')], {})).toThrow(/absent\.json: ENOENT/);
  });

  it('stops the start when it is bad: exit 2, the reason on stderr, nothing listening', async () => {
    const cli = runCli(['--port', '0', '--memory', '--config', configFile({ seed: 'seven' })]);
    expect(await cli.exited).toBe(2);
    expect(cli.output()).toContain('"seed" must be a whole number');
    expect(cli.output()).not.toContain('listening');
  });
});

describe('--log-format json', () => {
  it('prints one JSON object per request: namespace, operation, status, duration and the fired scenario rules', async () => {
    const lines: string[] = [];
    const sandbox = await testSandbox({
      logRequests: true,
      logFormat: 'json',
      logger: { info: (line) => lines.push(line), warn: () => undefined, error: () => undefined },
    });
    const ok = await sandbox.call('GET', '/v1/auth/verify', { namespace: 'ci-1' });
    await sandbox.call('GET', '/v1/sessions/ses_unknown', { headers: { 'x-sandbox-scenario': 'server-error' } });
    await sandbox.call('GET', '/v1/no-such-thing');
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed).toHaveLength(3);
    expect(parsed[0]).toEqual({
      time: FROZEN_AT,
      namespace: 'ci-1',
      method: 'GET',
      path: '/v1/auth/verify',
      operation: 'GET /v1/auth/verify',
      status: 200,
      durationMs: expect.any(Number),
      requestId: ok.headers.get('x-request-id'),
      keyId: 'key_live_demo',
      firedRules: [],
    });
    expect(parsed[1]).toMatchObject({
      namespace: 'default',
      operation: 'GET /v1/sessions/{id}',
      status: 500,
      firedRules: [{ scenario: 'server-error', rule: 0, effect: 'respond 500' }],
    });
    expect(parsed[2]).toMatchObject({ operation: null, status: 404 });
  });

  it('is chosen by flag, env or config file, turns the request lines on, and refuses another format', () => {
    expect(parseCli(['--log-format', 'json'], {})).toMatchObject({ logFormat: 'json', logRequests: true });
    expect(parseCli([], { IDV_SANDBOX_LOG_FORMAT: 'json' })).toMatchObject({ logFormat: 'json' });
    expect(parseCli(['--log-format', 'text'], {})).toMatchObject({ logFormat: 'text', logRequests: false });
    expect(() => parseCli(['--log-format', 'xml'], {})).toThrow('--log-format must be one of text, json, got "xml"');
  });
});

describe('--help and --version', () => {
  it('--help describes every flag the command takes', () => {
    expect(parseCli(['--help'], {})).toBe('help');
    const described = [...HELP.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
    expect(described.toSorted()).toEqual(FLAG_NAMES.map((name) => `--${name}`).toSorted());
  });

  it('--version answers the version', () => {
    expect(parseCli(['--version'], {})).toBe('version');
  });
});
