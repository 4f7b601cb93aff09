/**
 * Nothing a request says can break the server: values that become dates are range-checked, a refused
 * change leaves no trace, and Node's own parser refusals answer JSON like every other error.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseClockSetting } from '../../src/platform/clock/virtual-clock.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, silentLogger, STRICT_RESPONSES, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' };

async function namespaceStillServes(sandbox: TestSandbox, namespace: string): Promise<void> {
  expect((await sandbox.call('GET', '/healthz', { namespace })).status).toBe(200);
  expect((await sandbox.call('GET', '/v1/sessions', { namespace })).status).toBe(200);
  expect((await sandbox.call('GET', '/__sandbox/clock', { namespace, key: null })).status).toBe(200);
  expect((await sandbox.call('POST', '/__sandbox/clock', { namespace, key: null, body: { set: '2026-02-01T00:00:00Z' } })).status).toBe(200);
  expect((await sandbox.call('POST', '/__sandbox/reset', { namespace, key: null })).status).toBe(200);
}

describe('the virtual clock', () => {
  it('refuses an advance of 99999999999 days with 400, leaves the clock as it was and keeps the namespace serving', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/__sandbox/clock', { namespace: 'ci', key: null, body: { advance: '99999999999d' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/the clock must stay between 1970-01-01T00:00:00.000Z and 9000-01-01T00:00:00.000Z/);
    expect((await sandbox.call('GET', '/__sandbox/clock', { namespace: 'ci', key: null })).body.now).toBe(FROZEN_AT);
    await namespaceStillServes(sandbox, 'ci');
  });

  it('refuses a whole change when its advance would overflow, even with a freeze in the same body', async () => {
    const sandbox = await testSandbox({ clock: 'real' });
    const refused = await sandbox.call('POST', '/__sandbox/clock', {
      namespace: 'ci',
      key: null,
      body: { freeze: true, set: '8999-12-31T00:00:00Z', advance: '2d' },
    });
    expect(refused.status).toBe(400);
    expect((await sandbox.call('GET', '/__sandbox/clock', { namespace: 'ci', key: null })).body.mode).toBe('real');
  });

  it('refuses durations of more than 15 digits, a set before 1970 and past 9000, and takes the edges themselves', async () => {
    const sandbox = await testSandbox();
    for (const body of [
      { advance: `${'9'.repeat(16)}ms` },
      { advance: `${'9'.repeat(400)}d` },
      { set: '1969-12-31T23:59:59Z' },
      { set: '9000-01-01T00:00:00.001Z' },
    ]) {
      const refused = await sandbox.call('POST', '/__sandbox/clock', { key: null, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toMatch(/advance|clock/);
    }
    expect((await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { set: '1970-01-01T00:00:00Z' } })).status).toBe(200);
    expect((await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { set: '9000-01-01T00:00:00Z' } })).status).toBe(200);
  });

  it('creates a session with a one-year expiry at the latest instant the clock can hold', async () => {
    const sandbox = await testSandbox({ clock: 'frozen@9000-01-01T00:00:00Z' });
    const created = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, expires_in_hours: 8760 } });
    expect(created.status).toBe(200);
    const stored = await sandbox.call('GET', `/v1/sessions/${created.body.id}`);
    expect(stored.body.session_record.expires_at).toBe('9001-01-01T00:00:00.000Z');
  });

  it('refuses a --clock instant outside the range at start-up', () => {
    expect(() => parseClockSetting('frozen@9999-12-31T00:00:00Z')).toThrow(/out of range: the clock must stay between/);
    expect(() => parseClockSetting('frozen@1960-01-01T00:00:00Z')).toThrow(/out of range/);
  });
});

/** Sends raw bytes to a listening sandbox and returns everything it answers before closing. */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  it('answers a bad Content-Length, oversized headers and a garbage request line with JSON errors', async () => {
    const sandbox = await createSandbox({ port: 0, memory: true, logger: silentLogger, clock: `frozen@${FROZEN_AT}`, ...STRICT_RESPONSES });
    try {
      const cases = [
        ['POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
        ['POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 400],
        [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
        ['NOT HTTP AT ALL\r\n\r\n', 400],
      ] as const;
      for (const [request, status] of cases) {
        const answer = await raw(sandbox.url, request);
        expect(answer.split('\r\n')[0], request.slice(0, 60)).toBe(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`);
        expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string };
        expect(body.error.length).toBeGreaterThan(20);
      }
      expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
