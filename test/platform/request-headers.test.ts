/**
 * The request context reads its headers off the socket's raw header list instead of the Request's Headers
 * object: both must give the same values, whatever the case, padding and repetition of the names sent.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/platform/http/context.ts';
import { requestHeader, requestHeaders } from '../../src/platform/http/fast-paths.ts';

const NAMES = ['host', 'x-api-key', 'x-sandbox-namespace', 'x-sandbox-scenario', 'set-cookie', 'x-padded', 'x-empty', 'cookie', 'content-type', 'absent'];

/** Each name as read both ways, and every header as iterated both ways. */
const app = new Hono<AppEnv>().all('*', (c) =>
  c.json({
    raw: NAMES.map((name) => requestHeader(c, name) ?? null),
    headers: NAMES.map((name) => c.req.header(name) ?? null),
    rawAll: [...requestHeaders(c)],
    headersAll: [...c.req.raw.headers],
  }),
);

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function exchange(head: string): Promise<Record<string, unknown>> {
  server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const socket = connect(typeof address === 'object' && address ? address.port : 0, '127.0.0.1');
  socket.end(`GET /anything HTTP/1.1\r\n${head}Connection: close\r\n\r\n`);
  let received = '';
  for await (const chunk of socket) received += (chunk as Buffer).toString('utf8');
  return JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

describe('request headers read off the socket', () => {
  it('gives what the Headers object gives for names in any case, padded values and names sent twice', async () => {
    const answer = await exchange(
      [
        'Host: 127.0.0.1',
        'X-Api-Key: sk_test_demo',
        'x-api-key:  second ',
        'X-SANDBOX-NAMESPACE: team-a',
        'x-padded: \t value with inner  spaces \t',
        'X-Empty:',
        'Set-Cookie: a=1',
        'set-cookie: b=2',
        'Cookie: c=3',
        'cookie: d=4',
        'Content-Type: application/json',
        'content-type: text/plain',
        'X-Sandbox-Scenario: one, two',
        '',
      ].join('\r\n'),
    );
    expect(answer.raw).toEqual(answer.headers);
    expect(answer.rawAll).toEqual(answer.headersAll);
    expect(answer.raw).toEqual([
      '127.0.0.1',
      'sk_test_demo, second',
      'team-a',
      'one, two',
      'a=1, b=2',
      'value with inner  spaces',
      '',
      'c=3; d=4',
      'application/json, text/plain',
      null,
    ]);
  });

  it('reads the Request’s own headers in process, where there is no socket', async () => {
    const response = await app.request('/anything', { headers: { 'X-Api-Key': 'sk_test_demo', 'x-padded': ' v ' } });
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer.raw).toEqual(answer.headers);
    expect(answer.rawAll).toEqual(answer.headersAll);
    expect((answer.raw as unknown[])[1]).toBe('sk_test_demo');
  });
});
