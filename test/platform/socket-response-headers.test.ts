/**
 * The headers a real socket receives: the request context's own (X-Request-Id, X-Sandbox-Explain,
 * X-Sandbox-Namespace) join the route's in one block, names in lower case and in order, whether the
 * response kept its headers as a plain record (written out directly) or as a Headers object.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, KEYS, silentLogger } from '../helpers/sandbox.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

/** Sends one raw request and returns the response's header lines (Date left out) and its body. */
async function exchange(request: string): Promise<{ head: string[]; body: string }> {
  const { port } = new URL(sandbox?.url ?? '');
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(request);
  let received = Buffer.alloc(0);
  for await (const chunk of socket) {
    received = Buffer.concat([received, chunk as Buffer]);
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) continue;
    const head = received.subarray(0, end).toString('latin1').split('\r\n');
    const length = Number(head.find((line) => line.startsWith('Content-Length: '))?.slice(16));
    if (received.length - end - 4 < length) continue;
    socket.destroy();
    return { head: head.filter((line) => !line.startsWith('Date: ')), body: received.subarray(end + 4).toString('utf8') };
  }
  throw new Error('the connection closed before a whole response');
}

const read = (path: string, key: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\n${extra}\r\n`;

describe('response headers over a socket', () => {
  it('sends the request id, explanation and namespace in one sorted block of lower-case names', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, rateLimit: false, logger: silentLogger });
    const { head, body } = await exchange(read('/v1/sessions/test_verified', KEYS.sandbox, 'x-sandbox-namespace: team-a\r\n'));
    expect(head).toEqual([
      'HTTP/1.1 200 OK',
      'content-type: application/json',
      expect.stringMatching(/^x-request-id: req_[0-9a-f]{20}$/),
      'x-sandbox-explain: sandbox test identifier test_verified -> VERIFIED (fixtures/sandbox/sessions/test_verified.json)',
      'x-sandbox-namespace: team-a',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: keep-alive',
      'Keep-Alive: timeout=5',
    ]);
    expect(JSON.parse(body).session_record.id).toBe('test_verified');
    // The journal kept the body that was sent.
    const id = head[2]?.slice('x-request-id: '.length);
    const entry = (await fetch(`${sandbox.url}/__sandbox/requests/${id}`, { headers: { 'x-sandbox-namespace': 'team-a' } }).then((r) => r.json())) as {
      responseBody: unknown;
    };
    expect(entry.responseBody).toEqual(JSON.parse(body));
  });

  it('sends the same block when the route set headers of its own (the rate limit), and on an error', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, logger: silentLogger });
    const limited = await exchange(read('/v1/sessions/test_verified', KEYS.sandbox));
    expect(limited.head.map((line) => line.replace(/: .*/, ''))).toEqual([
      'HTTP/1.1 200 OK',
      'content-type',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-request-id',
      'x-sandbox-explain',
      'Content-Length',
      'Connection',
      'Keep-Alive',
    ]);
    const refused = await exchange(read('/v1/sessions/test_verified', 'sk_wrong'));
    expect(refused.head.map((line) => line.replace(/: .*/, ''))).toEqual([
      'HTTP/1.1 401 Unauthorized',
      'content-type',
      'x-request-id',
      'x-sandbox-explain',
      'Content-Length',
      'Connection',
      'Keep-Alive',
    ]);
    expect(JSON.parse(refused.body).error).toBe('Invalid API key');
  });
});
