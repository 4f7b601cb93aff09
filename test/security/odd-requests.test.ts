/**
 * The smaller findings: an odd request line answers the spec's JSON error body; a big body refused before
 * it was read still reaches its 413 (or 429) instead of a reset, with many sent at once or on a connection
 * that closes after its answer; and sandbox keys
 * never read the credit terms live keys created. Raw sockets against a real server on 127.0.0.1.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { CREDIT_TERMS_BUSINESS } from '../helpers/credit-terms.ts';
import { KEYS, silentLogger, testSandbox } from '../helpers/sandbox.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

async function listening(): Promise<number> {
  sandbox = await createSandbox({ port: 0, memory: true, logger: silentLogger });
  return Number(new URL(sandbox.url).port);
}

/** Sends `head` then `body` in chunks, paced by the socket's own drain; answers what came back and whether the connection was reset. */
function exchange(port: number, head: string, body: Buffer = Buffer.alloc(0)): Promise<{ received: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let error: string | undefined;
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code));
    socket.on('close', () => resolve({ received, ...(error === undefined ? {} : { error }) }));
    socket.once('connect', async () => {
      socket.write(head);
      const chunk = 256 * 1024;
      for (let offset = 0; offset < body.length && !socket.destroyed; offset += chunk) {
        if (!socket.write(body.subarray(offset, offset + chunk))) await new Promise((drained) => socket.once('drain', drained));
      }
      // Half-close: the server answers (if it has not yet), then closes its side.
      socket.end();
    });
  });
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let round = 0; !condition(); round++) {
    if (round > 200) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string };

describe('odd request lines', () => {
  it.each(['GET *', 'OPTIONS *'])('answers "%s" with 400 and a JSON error sentence, not an empty body', async (line) => {
    const port = await listening();
    const { received } = await exchange(port, `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(statusOf(received)).toBe(400);
    expect(received).toMatch(/content-type: application\/json/i);
    expect(jsonOf(received).error).toContain('The request target is not a path of this server');
  });
});

describe('big bodies sent in parallel', () => {
  it('answers twenty 15 MB bodies with 413 JSON, each connection read to its end and none reset', async () => {
    const port = await listening();
    const body = Buffer.alloc(15 * 1024 * 1024, 0x61);
    const head = `POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.live}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(port, head, body)));
    for (const answer of answers) {
      expect(answer.error).toBeUndefined();
      expect(statusOf(answer.received)).toBe(413);
      expect(jsonOf(answer.received).error).toContain('Request body too large: POST /v1/sessions takes at most 1 MB');
    }
  }, 60_000);

  it("answers a refused body sent with Connection: close (as Python's urllib sends) before closing, never resetting it mid-upload: 413, and 429 with Retry-After", async () => {
    sandbox = await createSandbox({ port: 0, memory: true, logger: silentLogger, imageConcurrency: { active: 1, queued: 0 } });
    const port = Number(new URL(sandbox.url).port);
    const body = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const closing = (path: string, type: string, length: number) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.live}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

    const tooLarge = await exchange(port, closing('/v1/sessions', 'application/json', body.length), body);
    expect(tooLarge.error).toBeUndefined();
    expect(statusOf(tooLarge.received)).toBe(413);
    expect(tooLarge.received).toMatch(/\r\nConnection: close\r\n/i);

    // One image request holds the only slot, its body still on its way; the next ones are refused at once.
    const holder = connect(port, '127.0.0.1');
    holder.write(closing('/v1/face/detect', 'application/json', 1024));
    await new Promise((resolve) => holder.once('connect', resolve));
    await waitFor(() => sandbox?.platform.imageRequests.active === 1);
    const refused = await Promise.all(Array.from({ length: 3 }, () => exchange(port, closing('/v1/face/detect', 'image/jpeg', body.length), body)));
    holder.destroy();
    for (const answer of refused) {
      expect(answer.error).toBeUndefined();
      expect(statusOf(answer.received)).toBe(429);
      expect(answer.received).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(jsonOf(answer.received).error).toContain('Too many image requests at once');
    }
  }, 30_000);
});

describe('credit terms and sandbox keys', () => {
  it('never shows a sandbox key the records a live key created: 404 by id, empty lists', async () => {
    const local = await testSandbox();
    const created = await local.call('POST', '/v1/credit-terms', {
      body: { ...CREDIT_TERMS_BUSINESS, externalId: 'acct-9' },
    });
    const id = created.body.creditTermsId;
    expect((await local.call('GET', `/v1/credit-terms/${id}`)).status).toBe(200);
    const read = await local.call('GET', `/v1/credit-terms/${id}`, { key: KEYS.sandbox });
    expect(read.status).toBe(404);
    expect(read.body.error).toBe(
      `Credit terms ${id} were not found: sandbox API keys never read the records live keys created. Read them with a live key of the organization.`,
    );
    expect(read.text).not.toContain('Reyes');
    expect((await local.call('GET', '/v1/credit-terms', { key: KEYS.sandbox })).body).toEqual({ creditTerms: [], nextToken: null });
    expect((await local.call('GET', '/v1/credit-terms/externalId/acct-9', { key: KEYS.sandbox })).body).toEqual({ creditTerms: [], nextToken: null });
    expect((await local.call('GET', '/v1/credit-terms')).body.creditTerms).toHaveLength(1);
  });
});
