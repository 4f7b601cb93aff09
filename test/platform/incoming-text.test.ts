/**
 * A JSON body read straight off the socket (`incomingText`) gives what node:stream/consumers' `text()` gives
 * for the same bytes, sent whole or in pieces, and fails where it fails: a client gone mid-body.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { arrayBuffer, text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { incomingBytes, incomingText } from '../../src/platform/http/body-limits.ts';

type Reader = (incoming: IncomingMessage) => Promise<string>;
type Outcome = { text: string } | { failed: string };

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** Sends one request whose body is `pieces` (each written on its own turn) and returns what `read` made of it. */
async function readBody(read: Reader, pieces: Buffer[], { declared, leave = false }: { declared?: number; leave?: boolean } = {}): Promise<Outcome> {
  let outcome!: Promise<Outcome>;
  server = createServer((incoming, response) => {
    outcome = read(incoming).then(
      (body) => ({ text: body }),
      (error: NodeJS.ErrnoException) => ({ failed: error.code ?? error.message }),
    );
    void outcome.then(() => response.end('{}'));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const length = declared ?? pieces.reduce((sum, piece) => sum + piece.length, 0);
  socket.write(`POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`);
  for (const piece of pieces) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    socket.write(piece);
  }
  if (leave) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    socket.destroy();
  }
  while (!outcome) await new Promise((resolve) => setTimeout(resolve, 1));
  const result = await outcome;
  socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
  return result;
}

/** The bytes of `body` cut at the given byte offsets. */
const cut = (body: Buffer, ...at: number[]) => [0, ...at].map((from, i) => body.subarray(from, at[i] ?? body.length));

describe('a request body read off the socket', () => {
  const json = Buffer.from(JSON.stringify({ first_name: 'Zoë', last_name: '😀 Łukasz', email: 'zoe@example.com' }));
  const bodies: [string, Buffer[]][] = [
    ['whole', [json]],
    ['in pieces cutting a two-byte and a four-byte character', cut(json, json.indexOf('ë') + 1, json.indexOf('😀') + 2)],
    ['with a byte-order mark, itself cut', cut(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]), 2)],
    ['with bytes that are not UTF-8', [Buffer.from([0x7b, 0xff, 0xc3, 0x22, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x7d])]],
    ['empty', []],
  ];

  for (const [label, pieces] of bodies) {
    it(`gives the text node:stream/consumers gives: ${label}`, async () => {
      const expected = await readBody(text, pieces);
      expect(expected).toHaveProperty('text');
      expect(await readBody(incomingText, pieces)).toEqual(expected);
    });

    it(`gives the bytes node:stream/consumers gives, in a buffer of their own: ${label}`, async () => {
      const asText = (bytes: ArrayBuffer) => ({ text: `${bytes.byteLength}:${Buffer.from(bytes).toString('hex')}` });
      const expected = await readBody((incoming) => arrayBuffer(incoming).then((bytes) => asText(bytes).text), pieces);
      const read = await readBody((incoming) => incomingBytes(incoming).then((bytes) => asText(bytes.buffer).text), pieces);
      expect(read).toEqual(expected);
      expect(read).toEqual({ text: `${Buffer.concat(pieces).length}:${Buffer.concat(pieces).toString('hex')}` });
    });
  }

  it('fails as node:stream/consumers does when the client leaves mid-body', async () => {
    const pieces = cut(json, 10);
    const expected = await readBody(text, pieces.slice(0, 1), { declared: json.length, leave: true });
    expect(expected).toEqual({ failed: 'ECONNRESET' });
    expect(await readBody(incomingText, pieces.slice(0, 1), { declared: json.length, leave: true })).toEqual(expected);
  });

  it('gives an empty text for a body already read whole, and fails for a request already gone', async () => {
    const readAgain =
      (read: Reader): Reader =>
      async (incoming) => {
        await text(incoming);
        return read(incoming);
      };
    expect(await readBody(readAgain(text), [json])).toEqual({ text: '' });
    expect(await readBody(readAgain(incomingText), [json])).toEqual({ text: '' });
    const readGone: Reader = (incoming) => {
      incoming.destroy();
      return incomingText(incoming);
    };
    expect(await readBody(readGone, [json])).toEqual({ failed: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
