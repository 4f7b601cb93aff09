/**
 * The answer a request gets while the sandbox starts (its port is bound before the store loads): the bytes
 * `Response.json` gives, sent without making the platform's Response class.
 */
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { getRequestListener, serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { startingAnswer } from '../../src/sandbox.ts';

/** The raw response (Date left out) of a server answering every request with `answer()`. */
async function rawAnswer(answer: () => Response): Promise<string> {
  const server = serve({ fetch: answer, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  let received = '';
  for await (const chunk of socket) received += (chunk as Buffer).toString('latin1');
  await new Promise((resolve) => server.close(resolve));
  return received.replace(/\r\nDate: [^\r]*/, '');
}

describe('the answer while the sandbox starts', () => {
  it("is a 503 with Retry-After whose bytes are Response.json's", async () => {
    const expected = await rawAnswer(() =>
      Response.json({ error: 'The sandbox is still starting: retry in a moment.' }, { status: 503, headers: { 'retry-after': '1' } }),
    );
    expect(expected).toContain('HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\ncontent-length: 61\r\n');
    expect(await rawAnswer(startingAnswer)).toBe(expected);
  });

  it('is built from a string with a plain record of headers, which the server writes without the platform Response class', () => {
    // As in the server: its request listener puts the adapter's lightweight Response in place.
    getRequestListener(startingAnswer);
    const cache = Object.getOwnPropertySymbols(startingAnswer()).find((symbol) => symbol.description === 'cache');
    const parts = (startingAnswer() as unknown as Record<symbol, unknown[]>)[cache as symbol];
    expect(parts?.[1]).toBe('{"error":"The sandbox is still starting: retry in a moment."}');
    expect(Object.getPrototypeOf(parts?.[2])).toBe(Object.prototype);
  });
});
