/**
 * What a read repeats with the same inputs is kept (the links of the origin the client used, the filled
 * fixture and its explanation, the journal's record of the request headers): a request that differs in
 * any of them gets its own, whatever came before it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { journaledHeaders } from '../../src/platform/request-log/request-log.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, KEYS, silentLogger, testSandbox } from '../helpers/sandbox.ts';

const READ = '/v1/sessions/test_verified';

let served: Sandbox | undefined;
afterEach(async () => {
  await served?.closeNow();
  served = undefined;
});

describe('links built on the origin the client used', () => {
  it('follows each request’s host and scheme, and falls back to the listening address for a host it must not reflect', async () => {
    const sandbox = await testSandbox();
    const origin = async (url: string, host: string) => {
      const response = await sandbox.app.request(url, { headers: { host, 'x-api-key': KEYS.sandbox } });
      expect(response.status).toBe(200);
      return /"session_url":"([^"]*)\/verify\//.exec(await response.text())?.[1];
    };
    const listening = await origin(`http://localhost${READ}`, 'not a host');
    expect(listening).toMatch(/^http:\/\/(localhost|127\.0\.0\.1)/);
    expect(await origin(`http://localhost${READ}`, 'a.example:8080')).toBe('http://a.example:8080');
    expect(await origin(`http://localhost${READ}`, 'a.example:8080')).toBe('http://a.example:8080');
    expect(await origin(`https://localhost${READ}`, 'a.example:8080')).toBe('https://a.example:8080');
    expect(await origin(`https://localhost${READ}`, 'b.example')).toBe('https://b.example');
    expect(await origin(`https://localhost${READ}`, 'b.example/evil')).toBe(listening);
    expect(await origin(`http://localhost${READ}`, 'a.example:8080')).toBe('http://a.example:8080');
  });
});

describe('test identifiers read in turn', () => {
  it('explain each answer by its own identifier and fixture', async () => {
    const sandbox = await testSandbox();
    const explanation = async (id: string) => {
      const answer = await sandbox.call('GET', `/v1/sessions/${id}`, { key: KEYS.sandbox });
      expect(answer.status).toBe(200);
      return answer.headers.get('x-sandbox-explain');
    };
    for (const [id, status] of [
      ['test_verified', 'VERIFIED'],
      ['test_verified', 'VERIFIED'],
      ['test_rejected', 'REJECTED'],
      ['test_verified', 'VERIFIED'],
    ]) {
      expect(await explanation(id as string)).toBe(`sandbox test identifier ${id} -> ${status} (fixtures/sandbox/sessions/${id}.json)`);
    }
  });
});

describe('the journal’s record of request headers', () => {
  it('is one record for the same header lines and its own for others, secrets left out', () => {
    const lines = (trace: string) => ['Host', '127.0.0.1', 'x-api-key', 'sk_test_demo', 'X-Trace', trace];
    const headers = (trace: string) => (): [string, string][] => [
      ['host', '127.0.0.1'],
      ['x-api-key', 'sk_test_demo'],
      ['x-trace', trace],
    ];
    const first = journaledHeaders(lines('one'), headers('one'));
    expect(first).toEqual({ host: '127.0.0.1', 'x-trace': 'one' });
    expect(journaledHeaders(lines('one'), headers('one'))).toBe(first);
    expect(journaledHeaders(lines('two'), headers('two'))).toEqual({ host: '127.0.0.1', 'x-trace': 'two' });
    // Without raw lines to go by (an in-process request), each request gets its own record.
    const unnamed = journaledHeaders(undefined, headers('one'));
    expect(unnamed).toEqual(first);
    expect(journaledHeaders(undefined, headers('one'))).not.toBe(unnamed);
  });

  it('holds what each request over a socket sent, when the same headers come back after others', async () => {
    served = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, rateLimit: false, logger: silentLogger });
    const url = served.url as string;
    const read = async (trace: string) => {
      const response = await fetch(`${url}${READ}`, { headers: { 'x-api-key': KEYS.sandbox, 'x-trace': trace } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      return response.headers.get('x-request-id');
    };
    const sent = [];
    for (const trace of ['one', 'one', 'two', 'one']) sent.push({ trace, id: await read(trace) });
    for (const { trace, id } of sent) {
      const entry = (await (await fetch(`${url}/__sandbox/requests/${id}`)).json()) as { headers: Record<string, string> };
      expect(entry.headers['x-trace']).toBe(trace);
      expect(entry.headers).not.toHaveProperty('x-api-key');
    }
  });
});
