import { describe, expect, it } from 'vitest';
import { exposureWarning, parseCli } from '../../src/cli.ts';

describe('CLI options', () => {
  it('reads every flag, and flags win over env', () => {
    const options = parseCli(
      [
        '--port',
        '5000',
        '--host',
        '127.0.0.2',
        '--data',
        'x.json',
        '--seed',
        '9',
        '--clock',
        'frozen@2026-01-01T00:00:00Z',
        '--scenario',
        'slow',
        '--scenario',
        'flaky',
        '--no-rate-limit',
        '--public-url',
        'http://localhost:8080',
        '--admin-token',
        't',
      ],
      { PORT: '1', HOST: 'h', IDV_SANDBOX_DATA: 'env.json', IDV_SANDBOX_SEED: '1', IDV_SANDBOX_ADMIN_TOKEN: 'env-token' },
    );
    expect(options).toMatchObject({
      port: 5000,
      host: '127.0.0.2',
      data: 'x.json',
      seed: 9,
      clock: 'frozen@2026-01-01T00:00:00Z',
      scenarios: ['slow', 'flaky'],
      rateLimit: false,
      publicUrl: 'http://localhost:8080',
      adminToken: 't',
    });
  });

  it('falls back to env, then to the defaults', () => {
    expect(parseCli([], { PORT: '4999', IDV_SANDBOX_SEED: '5', IDV_SANDBOX_SCENARIOS: 'slow, flaky', IDV_SANDBOX_ADMIN_TOKEN: 'tok' })).toMatchObject({
      port: 4999,
      seed: 5,
      scenarios: ['slow', 'flaky'],
      adminToken: 'tok',
      rateLimit: true,
    });
    expect(parseCli([], {})).toMatchObject({ port: 4010, host: '127.0.0.1', memory: false, rateLimit: true });
  });

  it('takes --max-namespaces (flag over IDV_SANDBOX_MAX_NAMESPACES) and --repair, and refuses a limit of 0', () => {
    expect(parseCli(['--max-namespaces', '20', '--repair'], { IDV_SANDBOX_MAX_NAMESPACES: '7' })).toMatchObject({ maxNamespaces: 20, repair: true });
    expect(parseCli([], { IDV_SANDBOX_MAX_NAMESPACES: '7' })).toMatchObject({ maxNamespaces: 7, repair: false });
    expect(parseCli([], {})).toMatchObject({ maxNamespaces: undefined });
    expect(() => parseCli(['--max-namespaces', '0'], {})).toThrow('--max-namespaces must be at least 1 (the default namespace always exists)');
    expect(() => parseCli(['--max-namespaces', 'many'], {})).toThrow('--max-namespaces must be a whole number, got "many"');
  });

  it('refuses a non-numeric port with a message naming the flag', () => {
    expect(() => parseCli(['--port', 'abc'], {})).toThrow('--port must be a whole number, got "abc"');
  });

  it('warns when bound beyond loopback without an admin token, and only then', () => {
    expect(exposureWarning('0.0.0.0', undefined)).toMatch(/WARNING: bound to 0\.0\.0\.0 without an admin token/);
    expect(exposureWarning('0.0.0.0', 'secret')).toBeUndefined();
    expect(exposureWarning('127.0.0.1', undefined)).toBeUndefined();
    expect(exposureWarning('localhost', undefined)).toBeUndefined();
  });
});
