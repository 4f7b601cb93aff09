/**
 * JSON bodies over a real socket: read straight off the connection (no Fetch Request), they are validated,
 * journaled and refused exactly as the in-process path does, and a client that leaves mid-body costs
 * nothing but its own request.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLogEntrySchema } from '../../src/control/control.schemas.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, KEYS, silentLogger, testSandbox } from '../helpers/sandbox.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

const CREATE = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', send_email_invite: false, send_phone_invite: false };

async function post(path: string, raw: string, contentType = 'application/json') {
  const response = await fetch(`${sandbox?.url}${path}`, { method: 'POST', headers: { 'x-api-key': KEYS.live, 'content-type': contentType }, body: raw });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe('JSON request bodies over a socket', () => {
  it('creates, journals and answers the same as the in-process path, for a good body and for bad ones', async () => {
    // One public URL for both, so links in the answers match.
    // One pinned secret: the session_url page tokens of both sandboxes are then the same.
    const secret = 'socket-and-in-process-alike';
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, publicUrl: 'http://127.0.0.1:4010', secret, logger: silentLogger });
    const reference = await testSandbox({ secret });
    const bodies: [string, string][] = [
      ['good', JSON.stringify(CREATE)],
      ['good, with a byte-order mark and a charset', `\ufeff${JSON.stringify(CREATE)}`],
      ['malformed', '{"first_name": '],
      ['an array', '[1, 2]'],
      ['a missing field', JSON.stringify({ ...CREATE, email: undefined })],
    ];
    for (const [label, raw] of bodies) {
      const contentType = label.includes('charset') ? 'application/json; charset=utf-8' : 'application/json';
      const overSocket = await post('/v1/sessions', raw, contentType);
      const inProcess = await reference.call('POST', '/v1/sessions', { raw, headers: { 'content-type': contentType } });
      expect({ label, status: overSocket.status, body: overSocket.body }).toEqual({ label, status: inProcess.status, body: inProcess.body });
      const entry = RequestLogEntrySchema.parse(
        await fetch(`${sandbox.url}/__sandbox/requests/${overSocket.headers.get('x-request-id')}`).then((r) => r.json()),
      );
      expect(entry.requestBody).toEqual(label === 'malformed' ? raw : JSON.parse(raw.replace(/^\ufeff/, '')));
    }
    expect(bodies.length).toBe(5);
  });

  it('refuses a body declared past the limit with 413 before reading it', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, logger: silentLogger });
    const raw = JSON.stringify({ ...CREATE, first_name: 'x'.repeat(1024 * 1024) });
    const refused = await post('/v1/sessions', raw);
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatch(/^Request body too large: POST \/v1\/sessions takes at most 1 MB/);
  });

  it('keeps serving when a client leaves in the middle of a JSON body', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, logger: silentLogger });
    const { port } = new URL(sandbox.url);
    // One route reads the body (its validator sees the read fail), one never does (nobody awaits the read).
    for (const request of ['POST /v1/sessions', 'DELETE /__sandbox/requests']) {
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `${request} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.live}\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"first_name":`,
      );
      await new Promise((resolve) => setImmediate(resolve));
      socket.destroy();
      await new Promise((resolve) => socket.once('close', resolve));
    }

    const after = await post('/v1/sessions', JSON.stringify(CREATE));
    expect(after.status).toBe(200);
    const listed = (await fetch(`${sandbox.url}/v1/sessions`, { headers: { 'x-api-key': KEYS.live } }).then((r) => r.json())) as { sessions: unknown[] };
    expect(listed.sessions).toHaveLength(1);
  });
});
