/**
 * Request bodies over a real socket: read straight off the connection (no Fetch Request), JSON bodies are
 * validated, journaled and refused exactly as the in-process path does, an upload's bytes and an image
 * route's JSON are read when their handler asks for them, and a client that leaves mid-body costs nothing
 * but its own request.
 */
import { readFileSync } from 'node:fs';
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

describe('upload and image bodies over a socket', () => {
  const photo = readFileSync('fixtures/images/face.jpg');

  it("stores an upload's bytes and answers an image route's JSON as the in-process path does", async () => {
    const secret = 'socket-and-in-process-alike';
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, publicUrl: 'http://127.0.0.1:4010', secret, logger: silentLogger });
    const reference = await testSandbox({ secret });
    const presign = { files: [{ contentType: 'image/jpeg', byteLength: photo.length }] };
    const overSocket = (await post('/v1/upload/presign', JSON.stringify(presign))).body as { uploads: { uploadUrl: string }[] };
    const inProcess = (await reference.call('POST', '/v1/upload/presign', { body: presign })).body as { uploads: { uploadUrl: string }[] };
    const target = (upload: { uploadUrl: string }) => new URL(upload.uploadUrl);
    const socketUpload = target(overSocket.uploads[0] as { uploadUrl: string });
    const put = await fetch(`${sandbox.url}${socketUpload.pathname}${socketUpload.search}`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: photo });
    const referenceUpload = target(inProcess.uploads[0] as { uploadUrl: string });
    const referencePut = await reference.app.request(`${referenceUpload.pathname}${referenceUpload.search}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: photo,
    });
    expect({ status: put.status, body: await put.json() }).toEqual({ status: referencePut.status, body: await referencePut.json() });
    expect(put.status).toBe(200);

    for (const raw of [JSON.stringify({ image: photo.toString('base64') }), '{"image": ']) {
      const detected = await post('/v1/face/detect', raw);
      const referenceDetected = await reference.call('POST', '/v1/face/detect', { raw });
      expect({ status: detected.status, body: detected.body }).toEqual({ status: referenceDetected.status, body: referenceDetected.body });
    }
  });

  it('keeps serving when a client leaves in the middle of an upload', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, logger: silentLogger });
    const presign = { files: [{ contentType: 'image/jpeg', byteLength: photo.length }] };
    const [first, second] = ((await post('/v1/upload/presign', JSON.stringify({ files: [...presign.files, ...presign.files] }))).body as {
      uploads: { uploadUrl: string }[];
    }).uploads.map((upload) => new URL(upload.uploadUrl));
    const socket = connect(Number(new URL(sandbox.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`PUT ${first?.pathname}${first?.search} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: image/jpeg\r\ncontent-length: ${photo.length}\r\n\r\n`);
    socket.write(photo.subarray(0, 100));
    await new Promise((resolve) => setImmediate(resolve));
    socket.destroy();
    await new Promise((resolve) => socket.once('close', resolve));

    const put = await fetch(`${sandbox.url}${second?.pathname}${second?.search}`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: photo });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ byteLength: photo.length });
    // The cut-short upload is journaled as the client's 400 that says so, not as a server error.
    const journal = (await fetch(`${sandbox.url}/__sandbox/requests`).then((r) => r.json())) as { requests: { path: string; status: number; responseBody: unknown }[] };
    expect(journal.requests.find((entry) => entry.path === first?.pathname)).toMatchObject({
      status: 400,
      responseBody: { error: `Request body incomplete: the connection closed before the ${photo.length} bytes its Content-Length declares had arrived.` },
    });
  });
});
