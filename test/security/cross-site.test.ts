/**
 * No web page can drive the sandbox: console and control-plane writes from another origin are refused,
 * control-plane calls refuse the bodies a cross-site form can send, console forms need the session's
 * CSRF token, and the admin cookie is a signed session, never the token.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const EVIL = 'https://evil.example';
const OWN = 'http://127.0.0.1:4010';
const TOKEN = 'admin-s3cret';

interface Page {
  status: number;
  location: string | null;
  cookie: string;
  text: string;
}

async function request(sandbox: TestSandbox, path: string, init: RequestInit = {}): Promise<Page> {
  const response = await sandbox.app.request(path, init);
  return { status: response.status, location: response.headers.get('location'), cookie: response.headers.get('set-cookie') ?? '', text: await response.text() };
}

/** Opens the console as a browser would and returns its session cookie and the CSRF token of its forms. */
async function openConsole(sandbox: TestSandbox, headers: Record<string, string> = {}): Promise<{ cookie: string; csrf: string }> {
  const shown = await request(sandbox, '/console', { headers });
  expect(shown.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(shown.text)?.[1];
  expect(csrf).toBeDefined();
  return { cookie: headers.cookie ?? shown.cookie.split(';')[0] ?? '', csrf: csrf ?? '' };
}

async function logIn(sandbox: TestSandbox): Promise<string> {
  const login = await request(sandbox, '/console/login', { method: 'POST', body: new URLSearchParams({ token: TOKEN }) });
  expect(login.status).toBe(303);
  return login.cookie.split(';')[0] ?? '';
}

describe('console forms', () => {
  it('refuses a cross-site form POST to /console/reset with 403 and resets nothing', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/v1/sessions', { namespace: 'qa', body: { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' } });
    const before = sandbox.platform.store.partition('qa').dump();
    const forged = await request(sandbox, '/console/reset?namespace=qa', {
      method: 'POST',
      headers: { origin: EVIL, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text).error).toMatch(/Cross-site request refused/);
    expect(sandbox.platform.store.partition('qa').dump()).toEqual(before);
  });

  it('refuses a console form without the session’s CSRF token, even from no Origin at all', async () => {
    const sandbox = await testSandbox();
    const { cookie, csrf } = await openConsole(sandbox);
    const noToken = await request(sandbox, '/console/scenarios/server-error/activate', { method: 'POST', headers: { cookie }, body: new URLSearchParams({}) });
    expect(noToken.status).toBe(403);
    expect(JSON.parse(noToken.text).error).toMatch(/CSRF token/);
    const wrongToken = await request(sandbox, '/console/scenarios/server-error/activate', {
      method: 'POST',
      headers: { cookie },
      body: new URLSearchParams({ csrf: `${csrf}x` }),
    });
    expect(wrongToken.status).toBe(403);
    const noCookie = await request(sandbox, '/console/scenarios/server-error/activate', { method: 'POST', body: new URLSearchParams({ csrf }) });
    expect(noCookie.status).toBe(403);
    expect(sandbox.platform.worlds.get().scenarios.isActive('server-error')).toBe(false);

    const genuine = await request(sandbox, '/console/scenarios/server-error/activate', {
      method: 'POST',
      headers: { cookie, origin: OWN, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ csrf }),
    });
    expect(genuine.status).toBe(303);
    expect(sandbox.platform.worlds.get().scenarios.isActive('server-error')).toBe(true);
  });

  it('refuses a console form with a valid token when the Origin or Sec-Fetch-Site says another site sent it', async () => {
    const sandbox = await testSandbox();
    const { cookie, csrf } = await openConsole(sandbox);
    for (const headers of [{ origin: EVIL }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }] as Record<
      string,
      string
    >[]) {
      const forged = await request(sandbox, '/console/reset', { method: 'POST', headers: { cookie, ...headers }, body: new URLSearchParams({ csrf }) });
      expect(forged.status, JSON.stringify(headers)).toBe(403);
    }
  });

  it('gives each console session its own CSRF token', async () => {
    const sandbox = await testSandbox();
    const first = await openConsole(sandbox);
    const second = await openConsole(sandbox);
    expect(first.csrf).not.toBe(second.csrf);
    const crossed = await request(sandbox, '/console/reset', {
      method: 'POST',
      headers: { cookie: first.cookie },
      body: new URLSearchParams({ csrf: second.csrf }),
    });
    expect(crossed.status).toBe(403);
  });
});

describe('the admin session cookie', () => {
  it('is a signed session, HttpOnly and SameSite=Strict, that never holds the token', async () => {
    const sandbox = await testSandbox({ adminToken: TOKEN });
    const login = await request(sandbox, '/console/login', { method: 'POST', body: new URLSearchParams({ token: TOKEN }) });
    expect(login.status).toBe(303);
    expect(login.cookie).toMatch(/HttpOnly/);
    expect(login.cookie).toMatch(/SameSite=Strict/);
    expect(login.cookie).not.toContain(TOKEN);
    const cookie = login.cookie.split(';')[0] ?? '';
    expect((await request(sandbox, '/console', { headers: { cookie } })).status).toBe(200);
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null, headers: { cookie } })).status).toBe(200);
  });

  it('refuses the token itself as the cookie, a tampered session and a visitor session', async () => {
    const sandbox = await testSandbox({ adminToken: TOKEN });
    const cookie = await logIn(sandbox);
    const [name, value] = cookie.split('=') as [string, string];
    for (const forged of [
      `${name}=${TOKEN}`,
      `idv_sandbox_admin=${TOKEN}`,
      `${name}=${value.replace('.admin.', '.visitor.')}`,
      `${name}=${value.slice(0, -2)}xx`,
    ]) {
      expect((await request(sandbox, '/console', { headers: { cookie: forged } })).status, forged).toBe(401);
      expect((await sandbox.call('GET', '/__sandbox/clock', { key: null, headers: { cookie: forged } })).status, forged).toBe(401);
    }
  });

  it('does not let a cross-site request ride the admin cookie on any control-plane write', async () => {
    const sandbox = await testSandbox({ adminToken: TOKEN });
    const cookie = await logIn(sandbox);
    const document = (await sandbox.call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/__sandbox'))
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method !== 'get')
          .map((method) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')] as const),
      );
    expect(writes.length).toBeGreaterThanOrEqual(7);
    for (const [method, path] of writes) {
      for (const headers of [{ origin: EVIL }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        const forged = await sandbox.call(method, path, { key: null, headers: { cookie, ...headers }, body: {} });
        expect(forged.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
  });
});

describe('control-plane bodies', () => {
  it('refuses text/plain, form and multipart bodies on every control-plane write with 415, and changes nothing', async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/__sandbox'))
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method !== 'get')
          .map((method) => [method.toUpperCase(), path.replace('{name}', 'server-error').replace(/\{[^}]+\}/g, 'x')] as const),
      );
    const before = JSON.stringify(sandbox.platform.store.partition('default').dump());
    for (const [method, path] of writes) {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain;charset=UTF-8']) {
        const forged = await sandbox.call(method, path, { key: null, headers: { 'content-type': contentType }, raw: '{}' });
        expect(forged.status, `${method} ${path} ${contentType}`).toBe(415);
        expect(forged.body.error).toMatch(/control-plane calls take application\/json/);
      }
    }
    expect(JSON.stringify(sandbox.platform.store.partition('default').dump())).toBe(before);
    expect(sandbox.platform.worlds.get().scenarios.isActive('server-error')).toBe(false);
  });

  it('still serves test suites and curl: JSON or no body, and no Origin', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.call('POST', '/__sandbox/scenarios/server-error/activate', { key: null })).status).toBe(200);
    expect((await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { advance: '1h' } })).status).toBe(200);
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null, headers: { origin: OWN, 'sec-fetch-site': 'same-origin' }, body: {} })).status).toBe(
      200,
    );
  });

  it('trusts the request’s own origin only for loopback names and IP literals, never a DNS name that could be rebound', async () => {
    const sandbox = await testSandbox();
    const rebound = await sandbox.call('POST', '/__sandbox/reset', { key: null, headers: { host: 'evil.example:4010', origin: 'http://evil.example:4010' } });
    expect(rebound.status).toBe(403);
    const ownIp = await sandbox.call('POST', '/__sandbox/reset', { key: null, headers: { host: '192.168.1.20:4010', origin: 'http://192.168.1.20:4010' } });
    expect(ownIp.status).toBe(200);
    const localhost = await sandbox.call('POST', '/__sandbox/reset', { key: null, headers: { host: 'localhost:4010', origin: 'http://localhost:4010' } });
    expect(localhost.status).toBe(200);
  });
});
