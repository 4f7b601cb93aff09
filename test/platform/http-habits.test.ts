import { describe, expect, it } from 'vitest';
import { banner, parseCli } from '../../src/cli.ts';
import { reachableHost } from '../../src/sandbox.ts';
import { FROZEN_AT, testSandbox } from '../helpers/sandbox.ts';

describe('405 for a known path with the wrong method', () => {
  it('answers 405 with Allow listing the routed methods, and 404 for an unknown path', async () => {
    const sandbox = await testSandbox();
    const wrong = await sandbox.call('DELETE', '/v1/auth/verify');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(wrong.body).toEqual({ error: 'Method DELETE is not allowed on /v1/auth/verify: use GET, HEAD.' });
    const control = await sandbox.call('GET', '/__sandbox/reset');
    expect(control.status).toBe(405);
    expect(control.headers.get('allow')).toBe('POST');
    const withParam = await sandbox.call('PUT', '/__sandbox/scenarios/slow/activate');
    expect(withParam.headers.get('allow')).toBe('POST');
    const unknown = await sandbox.call('GET', '/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('allow')).toBeNull();
  });
});

describe('--cors', () => {
  const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' };

  it('is off by default: no CORS headers, no preflight answer', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('GET', '/v1/auth/verify', { headers: { origin: 'http://localhost:3000' } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const options = await sandbox.call('OPTIONS', '/v1/screening/pep-sanctions', { key: null, headers: { origin: 'http://localhost:3000', ...preflight } });
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with any origin, answers preflights on /v1 and exposes the sandbox headers', async () => {
    const sandbox = await testSandbox({ cors: '*' });
    const options = await sandbox.call('OPTIONS', '/v1/screening/pep-sanctions', { key: null, headers: { origin: 'http://localhost:3000', ...preflight } });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
    const answer = await sandbox.call('GET', '/v1/auth/verify', { headers: { origin: 'http://localhost:3000' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toContain('X-Sandbox-Explain');
    // The control plane stays same-origin.
    const control = await sandbox.call('GET', '/__sandbox/clock', { headers: { origin: 'http://localhost:3000' } });
    expect(control.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with a list, allows only those origins', async () => {
    const sandbox = await testSandbox({ cors: ['http://localhost:3000'] });
    const allowed = await sandbox.call('GET', '/v1/auth/verify', { headers: { origin: 'http://localhost:3000' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const other = await sandbox.call('GET', '/v1/auth/verify', { headers: { origin: 'http://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('reads --cors alone as any origin, a list as origins, and refuses what is not an origin', () => {
    expect(parseCli(['--cors'], {})).toMatchObject({ cors: '*' });
    expect(parseCli(['--cors', '--memory'], {})).toMatchObject({ cors: '*', memory: true });
    expect(parseCli(['--cors', 'http://localhost:3000, https://tools.example/'], {})).toMatchObject({
      cors: ['http://localhost:3000', 'https://tools.example'],
    });
    expect(parseCli([], { IDV_SANDBOX_CORS: 'http://localhost:5173' })).toMatchObject({ cors: ['http://localhost:5173'] });
    expect(parseCli([], {})).toMatchObject({ cors: undefined, logRequests: false });
    expect(() => parseCli(['--cors', 'localhost:3000'], {})).toThrow('--cors origin "localhost:3000" is not an origin: use scheme://host[:port]');
  });
});

describe('--log-requests', () => {
  it('prints one line per request: clock, namespace, method, path, status, duration, request id, key id', async () => {
    const lines: string[] = [];
    const sandbox = await testSandbox({ logRequests: true, logger: { info: (line) => lines.push(line), warn: () => undefined, error: () => undefined } });
    const answer = await sandbox.call('GET', '/v1/auth/verify', { namespace: 'ci-1' });
    await sandbox.call('GET', '/v1/auth/verify', { key: null });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${FROZEN_AT} ci-1 GET /v1/auth/verify 200 \\d+\\.\\dms ${answer.headers.get('x-request-id')} key_live_demo$`));
    expect(lines[1]).toMatch(/ default GET \/v1\/auth\/verify 401 .* -$/);
    expect(parseCli(['--log-requests'], {})).toMatchObject({ logRequests: true });
    expect(parseCli([], { IDV_SANDBOX_LOG_REQUESTS: '1' })).toMatchObject({ logRequests: true });
  });

  it('is silent by default', async () => {
    const lines: string[] = [];
    const sandbox = await testSandbox({ logger: { info: (line) => lines.push(line), warn: () => undefined, error: () => undefined } });
    await sandbox.call('GET', '/v1/auth/verify');
    expect(lines).toEqual([]);
  });
});

describe('the start banner', () => {
  it('names a wildcard interface by the loopback address a browser opens, never 0.0.0.0 or ::', () => {
    // The sandbox's url, hence the banner, the port file and every default link, come from this.
    expect(reachableHost('0.0.0.0')).toBe('127.0.0.1');
    expect(reachableHost('::')).toBe('[::1]');
    expect(reachableHost('::1')).toBe('[::1]');
    expect(reachableHost('127.0.0.2')).toBe('127.0.0.2');
  });

  it('shows the seed, the clock mode and the active scenarios', async () => {
    // The banner names the address it listens on: these sandboxes listen (on a free loopback port).
    const sandbox = await testSandbox({ port: 0, host: '127.0.0.1', seed: 7, scenarios: ['slow', 'flaky'], cors: '*' });
    const text = banner(sandbox);
    await sandbox.close({ report: false });
    expect(text).toContain(`idv-sandbox listening on ${sandbox.platform.urls.base}\n`);
    expect(text).toContain('  Seed                7\n');
    expect(text).toContain(`  Clock               frozen at ${FROZEN_AT}\n`);
    expect(text).toContain('  Scenarios active    slow, flaky\n');
    expect(text).toContain('  CORS on /v1         any origin\n');
    expect(text).toContain('    sk_live_demo       live     org_demo (Demo Org)');
    const real = await testSandbox({ port: 0, host: '127.0.0.1', clock: 'real' });
    const plain = banner(real);
    await real.close({ report: false });
    expect(plain).toMatch(/ {2}Clock {15}real \(now \d{4}-/);
    expect(plain).toContain('  Scenarios active    none\n');
    expect(plain).not.toContain('CORS');
  });
});
