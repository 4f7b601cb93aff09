/**
 * What src/platform/http/fast-paths.ts relies on of its dependencies' internals, one test per use: each
 * fails the day @hono/node-server or Hono changes it, where the fast path would otherwise fall back to its
 * general path silently (the answers stay right, the speed goes) or misread a response.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import fc from 'fast-check';
import { Hono, type MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../src/platform/http/context.ts';
import {
  checkedInOneTurn,
  inOrder,
  isUntouchedLightweightRequest,
  receivedBody,
  requestHeaderLines,
  responseHeader,
  sendJsonText,
  shareJson,
  sendJson,
  stringResponseParts,
} from '../../src/platform/http/fast-paths.ts';
import { DEFAULT_REQUEST_LOG_LIMITS, sentJsonText } from '../../src/platform/request-log/request-log.ts';
import { SessionIdParamsSchema } from '../../src/sessions/sessions.schemas.ts';

/** The node adapter's own symbol, as fast-paths finds it. */
const cacheOf = (response: Response) => {
  const symbol = Object.getOwnPropertySymbols(response).find((candidate) => candidate.description === 'cache');
  return symbol === undefined ? undefined : (response as unknown as Record<symbol, unknown>)[symbol];
};

beforeAll(() => {
  // The adapter puts its lightweight Response in place of the global one when it makes a listener, as a start does.
  getRequestListener(() => new Response(null));
});

describe("@hono/node-server's lightweight Response", () => {
  it('keeps [status, body, headers] as given under its `cache` symbol, for a string and for bytes', () => {
    const headers = { 'Content-Type': 'application/json', 'X-Kept': ' padded ' };
    const text = new Response('{"a":1}', { status: 201, headers });
    expect(cacheOf(text)).toEqual([201, '{"a":1}', headers]);
    expect(stringResponseParts(text)).toEqual({ status: 201, body: '{"a":1}', headers });
    const bytes = new Uint8Array([123, 125]);
    const binary = new Response(bytes, { status: 200 });
    expect(cacheOf(binary)).toEqual([200, bytes, undefined]);
    expect(stringResponseParts(binary)?.body).toBe(bytes);
  });

  it('keeps a plain record of headers until they are read, then a Headers object; the read header is the same either way', () => {
    const response = new Response('x', { headers: { 'X-Kept': ' padded ' } });
    expect(responseHeader(response, 'x-kept')).toBe('padded');
    expect(response.headers.get('x-kept')).toBe('padded');
    expect((cacheOf(response) as unknown[])[2]).toBeInstanceOf(Headers);
    expect(responseHeader(response, 'x-kept')).toBe('padded');
  });

  it('drops its cache once the body is read through the platform Response: fast-paths takes the general path then', async () => {
    const response = new Response('read');
    expect(await response.text()).toBe('read');
    expect(cacheOf(response)).toBeUndefined();
    expect(stringResponseParts(response)).toBeUndefined();
  });

  it("is what Hono's c.body builds, with the bytes of a shared JSON answer as they were kept", async () => {
    const shared = shareJson({ kept: true });
    const app = new Hono<AppEnv>().get('/shared', (c) => sendJson(c, shared, 200)).get('/text', (c) => sendJsonText(c, '{"t":1}', 200));
    const sent = await app.request('/shared');
    const parts = stringResponseParts(sent);
    expect(parts?.body).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(parts?.body as Uint8Array)).toBe('{"kept":true}');
    expect(stringResponseParts(await app.request('/text'))?.body).toBe('{"t":1}');
  });
});

describe("the node adapter's bindings", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('hand each request its IncomingMessage as `incoming`, whose rawHeaders are the lines as sent (names in the case sent)', async () => {
    const app = new Hono<AppEnv>().get('*', (c) => c.json({ lines: requestHeaderLines(c) ?? null }));
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const answer = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'X-Sent-As-Written': 'one' } });
    const { lines } = (await answer.json()) as { lines: string[] | null };
    expect(lines).toEqual(expect.arrayContaining(['X-Sent-As-Written', 'one', 'host', `127.0.0.1:${port}`]));
  });

  it('hand each request a lightweight Request holding its IncomingMessage under a symbol, until it makes the Fetch Request (under `requestCache`)', async () => {
    const app = new Hono<AppEnv>().post('*', async (c) => {
      const { incoming } = c.env as { incoming: IncomingMessage };
      const before = isUntouchedLightweightRequest(c.req.raw, incoming);
      // Asking for the body stream makes the Fetch Request, which would read the same socket.
      void c.req.raw.body;
      return c.json({ before, after: isUntouchedLightweightRequest(c.req.raw, incoming), text: await c.req.raw.text() });
    });
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'sent' });
    expect(await answer.json()).toEqual({ before: true, after: false, text: 'sent' });
  });
});

describe("Hono's request body cache", () => {
  it('holds what a handler read (text, JSON, form), which the journal takes without reading the body again', async () => {
    const seen: unknown[] = [];
    const app = new Hono<AppEnv>().post('/json', async (c) => {
      await c.req.json();
      seen.push(await receivedBody(c.req, c.req.header('content-length'), DEFAULT_REQUEST_LOG_LIMITS));
      return c.body(null, 204);
    });
    app.post('/form', async (c) => {
      await c.req.parseBody();
      seen.push(await receivedBody(c.req, undefined, DEFAULT_REQUEST_LOG_LIMITS));
      return c.body(null, 204);
    });
    await app.request('/json', {
      method: 'POST',
      body: '{"name":"Ada","api_key":"secret"}',
      headers: { 'content-type': 'application/json', 'content-length': '33' },
    });
    const form = new FormData();
    form.set('name', 'Ada');
    form.set('file', new Blob([new Uint8Array(3)], { type: 'image/png' }));
    await app.request('/form', { method: 'POST', body: form });
    // The JSON waits as sent (its secrets are redacted when its entry is read); form fields are kept at once.
    expect(sentJsonText(seen[0])).toBe('{"name":"Ada","api_key":"secret"}');
    expect(seen[1]).toEqual({ name: 'Ada', file: '[3 bytes of image/png]' });
  });
});

describe("a route's handlers run as one (inOrder)", () => {
  it("answers as Hono's every does: its own route's parameters, the response a handler returns, errors to onError", async () => {
    const guard: MiddlewareHandler = async (c, next) => {
      if (c.req.param('id') === 'refused') return c.text('refused', 403);
      await next();
    };
    const handler: MiddlewareHandler = async (c) => {
      if (c.req.param('id') === 'broken') throw new Error('broken');
      return c.json({ id: c.req.param('id'), kind: c.req.param('kind') });
    };
    const app = (combine: (handlers: MiddlewareHandler[]) => MiddlewareHandler) => {
      const built = new Hono();
      built.use('*', async (c, next) => {
        await next();
        c.header('x-after', 'yes');
      });
      built.onError((error, c) => c.text(`caught ${error.message}`, 500));
      // Another route matches first, with parameters of its own: the route's handlers must read theirs.
      built.get('/things/:other/*', (_c, next) => next());
      built.on('GET', '/things/:kind/:id', combine([guard, handler]));
      return built;
    };
    const answer = async (built: Hono, path: string) => {
      const response = await built.request(path);
      return { status: response.status, text: await response.text(), after: response.headers.get('x-after') };
    };
    const [withEvery, withInOrder] = [app((handlers) => every(...handlers)), app(inOrder)];
    for (const path of ['/things/a/1', '/things/b/refused', '/things/c/broken', '/elsewhere']) {
      expect(await answer(withInOrder, path), path).toEqual(await answer(withEvery, path));
    }
    expect(await answer(withInOrder, '/things/a/1')).toEqual({ status: 200, text: '{"id":"1","kind":"a"}', after: 'yes' });
  });

  it('takes the answer of a handler that answers at once in the same turn, without awaiting it', async () => {
    const answer = new Response('at once');
    const c = { finalized: false, res: undefined as Response | undefined };
    const chained = inOrder([(_c, next) => next(), (() => answer) as unknown as MiddlewareHandler]);
    const done = chained(c as never, async () => undefined);
    expect(c.res).toBe(answer);
    await done;
  });

  it("hands back the rest of the chain's own promise from a handler that passes on with it, its answer taken", async () => {
    const answer = new Response('later');
    const c = { finalized: false, res: undefined as Response | undefined };
    let passedOn: Promise<void> | undefined;
    const guard: MiddlewareHandler = (_c, next) => {
      passedOn = next();
      return passedOn;
    };
    const chained = inOrder([guard, (async () => answer) as unknown as MiddlewareHandler]);
    const done = chained(c as never, async () => undefined);
    // Not wrapped in a promise of its own, which would settle a turn later with nothing.
    expect(done).toBe(passedOn);
    await done;
    expect(c.res).toBe(answer);
    // A handler that passes on with the app's next (the end of the chain) is still awaited for its answer.
    const last = inOrder([guard]);
    const app = { finalized: false, res: undefined as Response | undefined };
    expect(last(app as never, async () => undefined)).not.toBe(passedOn);
  });
});

describe('validation without a turn of its own (checkedInOneTurn)', () => {
  /** A parse result as the validator's hook reads it: success, the data or the issues. */
  const outcome = (result: z.ZodSafeParseResult<unknown>) => (result.success ? { data: result.data } : { issues: result.error.issues });

  it("accepts and refuses exactly what zod's async parse does, with the same data and issues", async () => {
    const anyParams = fc.oneof(
      fc.record({ id: fc.string({ maxLength: 300, unit: 'binary' }) }),
      fc.record({ id: fc.string({ minLength: 250, maxLength: 260 }) }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.integer(), fc.constant(undefined), fc.constant(null))),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(anyParams, async (params) => {
        expect(outcome(await SessionIdParamsSchema.safeParseAsync(params))).toEqual(outcome(await z.safeParseAsync(SessionIdParamsSchema, params)));
      }),
      { numRuns: 500 },
    );
    for (const id of ['', 'a', 'x'.repeat(255), 'x'.repeat(256), '\u{1F600}'.repeat(128)]) {
      expect(outcome(await SessionIdParamsSchema.safeParseAsync({ id })), id).toEqual(outcome(await z.safeParseAsync(SessionIdParamsSchema, { id })));
    }
  });

  it("is what Hono's zod validator calls for a route's path parameters, and parses in zod's sync mode", async () => {
    const params = checkedInOneTurn(z.object({ id: z.string().max(3) }));
    const syncParse = vi.spyOn(params, 'safeParse');
    const route = createRoute({ method: 'get', path: '/things/{id}', request: { params }, responses: { 200: { description: 'the id' } } });
    const app = new OpenAPIHono().openapi(route, (c) => c.text(c.req.valid('param').id));
    expect(await (await app.request('/things/abc')).text()).toBe('abc');
    expect((await app.request('/things/abcd')).status).toBe(400);
    expect(syncParse).toHaveBeenCalledTimes(2);
  });

  it("falls back to zod's async parse for a schema that holds something async", async () => {
    const schema = checkedInOneTurn(z.object({ id: z.string().refine(async (id) => id !== 'taken', { error: 'taken' }) }));
    expect(outcome(await schema.safeParseAsync({ id: 'free' }))).toEqual({ data: { id: 'free' } });
    expect(outcome(await schema.safeParseAsync({ id: 'taken' }))).toEqual(outcome(await z.safeParseAsync(schema, { id: 'taken' })));
    expect((await schema.safeParseAsync({ id: 'taken' })).success).toBe(false);
  });
});
