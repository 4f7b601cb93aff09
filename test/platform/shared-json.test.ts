import { createServer } from 'node:http';
import { connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppContext, AppEnv } from '../../src/platform/http/context.ts';
import { sendJson, shareJson } from '../../src/platform/http/fast-paths.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';

/** An app answering `body` through sendJson, and the same through c.json, to compare the two. */
function appAnswering(body: object): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/shared', (c) => sendJson(c as unknown as AppContext, body, 200)).get('/plain', (c) => c.json(body, 200));
}

describe('shared JSON answers', () => {
  it('sends a shared body as the text it had when shared, with the status and headers c.json gives', async () => {
    const body = shareJson({ name: 'Ada', list: [1, 2, { deep: 'é' }] });
    const app = appAnswering(body);
    const plain = await app.request('/plain');
    (body as { name: string }).name = 'changed after sharing';
    const shared = await app.request('/shared');
    expect(shared.status).toBe(200);
    expect([...shared.headers]).toEqual([...plain.headers]);
    expect(await shared.text()).toBe('{"name":"Ada","list":[1,2,{"deep":"é"}]}');
  });

  it('writes a shared body to a socket byte for byte as c.json does, head included', async () => {
    const app = appAnswering(shareJson({ name: 'Zoë', list: [1, 2, { deep: 'é ✓' }] }));
    const server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const exchange = async (path: string) => {
      const socket = connect(port, '127.0.0.1');
      socket.end(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks)
        .toString('latin1')
        .replace(/\r\nDate: [^\r]*/, '');
    };
    try {
      const plain = await exchange('/plain');
      expect(plain).toContain('Content-Length: ');
      expect(await exchange('/shared')).toBe(plain);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('serializes a body that was never shared at each send', async () => {
    const body = { name: 'Ada' };
    const app = appAnswering(body);
    expect(await (await app.request('/shared')).text()).toBe('{"name":"Ada"}');
    body.name = 'Grace';
    expect(await (await app.request('/shared')).text()).toBe('{"name":"Grace"}');
  });

  it('answers a sandbox test identifier with the same bytes on every read, its fixture filled for the caller', async () => {
    const sandbox = await testSandbox();
    const first = await sandbox.call('GET', '/v1/sessions/test_verified', { key: KEYS.sandbox });
    const again = await sandbox.call('GET', '/v1/sessions/test_verified', { key: KEYS.sandbox });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(again.text).toBe(first.text);
    expect(first.text).toBe(JSON.stringify(first.body));
    expect(first.body.session_record.id).toBe('test_verified');
    expect(first.body.session_record.organization_id).not.toMatch(/[{}]/);
  });
});
