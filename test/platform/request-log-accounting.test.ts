import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentBody } from '../../src/platform/http/fast-paths.ts';
import { DEFAULT_REQUEST_LOG_LIMITS, type JournaledRequest, keptBody, RequestLog, type RequestLogEntry } from '../../src/platform/request-log/request-log.ts';

const STARTED_AT = '2026-01-15T09:30:00.000Z';
const FINISHED_AT = '2026-01-15T09:30:00.012Z';

const entry = (requestId: string, bodies: Pick<RequestLogEntry, 'requestBody' | 'responseBody'>): JournaledRequest => ({
  requestId,
  method: 'POST',
  path: '/v1/things',
  query: { q: 'é' },
  headers: { 'content-type': 'application/json' },
  ...bodies,
  status: 200,
  keyId: null,
  scenarios: [],
  firedRules: [],
  durationMs: 1.5,
  startedAtMs: Date.parse(STARTED_AT),
  finishedAtMs: Date.parse(FINISHED_AT),
});

/** The entry as the journal gives it back: its members in the journal's one order, its instants written out as the last. */
const asRead = (added: JournaledRequest): RequestLogEntry => ({
  requestId: added.requestId,
  method: added.method,
  path: added.path,
  query: added.query,
  headers: added.headers,
  requestBody: added.requestBody,
  status: added.status,
  responseBody: added.responseBody,
  explain: added.explain,
  keyId: added.keyId,
  scenarios: added.scenarios,
  firedRules: added.firedRules,
  durationMs: added.durationMs,
  startedAt: new Date(added.startedAtMs).toISOString(),
  finishedAt: new Date(added.finishedAtMs).toISOString(),
});

describe('the request journal’s bookkeeping', () => {
  it('counts each entry as the bytes of its JSON, bodies measured once when kept', () => {
    const log = new RequestLog();
    const entries = [
      entry('a', {
        requestBody: keptBody('{"name":"Zoë","token":"t","nested":[{"password":"p"}]}', 'application/json', DEFAULT_REQUEST_LOG_LIMITS),
        responseBody: keptBody('{"ok":true}', 'application/json', DEFAULT_REQUEST_LOG_LIMITS),
      }),
      entry('b', { requestBody: keptBody('plain text ✓', 'text/plain', DEFAULT_REQUEST_LOG_LIMITS) }),
      entry('c', { responseBody: keptBody(JSON.stringify({ image: 'x'.repeat(1000) }), 'application/json', DEFAULT_REQUEST_LOG_LIMITS) }),
      entry('d', { responseBody: keptBody('[1,2,3]', 'application/json', DEFAULT_REQUEST_LOG_LIMITS) }),
      entry('e', { responseBody: keptBody('x'.repeat(20_000), 'application/json', DEFAULT_REQUEST_LOG_LIMITS) }),
    ];
    let expected = 0;
    for (const one of entries) {
      log.add(one);
      expected += Buffer.byteLength(JSON.stringify(asRead(one)));
      expect(log.bytes()).toBe(expected);
    }
  });

  it('counts the bytes of every kind of JSON text and number an entry can hold exactly', () => {
    const log = new RequestLog();
    const awkward = entry('awkward "quoted" \\ back', {
      requestBody: [
        'tab\there',
        'new\nline',
        '\u0000\u001f\u007f',
        'é ✓ 😀',
        '\ud800 lone',
        1e21,
        -0,
        0.1,
        Number.NaN,
        null,
        true,
        false,
        undefined,
        [],
        {},
        [[{}]],
      ],
      responseBody: 'plain',
    });
    awkward.query = { ünïcode: 'ключ', '"': '\\' };
    awkward.headers = { 'x-empty': '', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) "quoted"' };
    awkward.explain = 'scenario a,b: +20 ms; 404: not found';
    awkward.keyId = 'key_1';
    awkward.scenarios = ['a', 'b'];
    awkward.firedRules = [
      { scenario: 'a', rule: 0, effect: 'latency 20 ms' },
      { scenario: 'b', effect: 'behaviour async-jobs-fail' },
    ];
    awkward.durationMs = 12345.67;
    log.add(awkward);
    expect(log.bytes()).toBe(Buffer.byteLength(JSON.stringify(asRead(awkward))));
    expect(JSON.stringify(log.get(awkward.requestId))).toBe(JSON.stringify(asRead(awkward)));
  });

  it('keeps a member named __proto__ as a member', () => {
    expect(keptBody('{"__proto__":{"polluted":true},"a":1}', 'application/json', DEFAULT_REQUEST_LOG_LIMITS)).toEqual(
      JSON.parse('{"__proto__":{"polluted":true},"a":1}'),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a text response once and hands back one with the same status, headers and bytes', async () => {
    const bytes = Buffer.from('{"name":"Zoë","signature":"s"}', 'utf8');
    const original = new Response(bytes, { status: 201, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } });
    const sent = await sentBody(original, DEFAULT_REQUEST_LOG_LIMITS);
    const log = new RequestLog();
    log.add(entry('sent', { responseBody: sent.body }));
    expect(log.get('sent')?.responseBody).toEqual({ name: 'Zoë', signature: '[redacted]' });
    expect(sent.response.status).toBe(201);
    expect(sent.response.headers.get('x-request-id')).toBe('req_1');
    expect(Buffer.from(await sent.response.arrayBuffer())).toEqual(bytes);

    const empty = await sentBody(new Response(null, { status: 204 }), DEFAULT_REQUEST_LOG_LIMITS);
    expect(empty.body).toBeUndefined();
    expect(empty.response.status).toBe(204);
  });

  it('keeps a JSON body as sent until its entry is read, then counts the entry at its kept size', async () => {
    const text = JSON.stringify({ name: 'Zoë', password: 'hunter2', image: 'x'.repeat(1000) });
    const log = new RequestLog();
    log.add(
      entry('a', { responseBody: (await sentBody(new Response(text, { headers: { 'content-type': 'application/json' } }), DEFAULT_REQUEST_LOG_LIMITS)).body }),
    );
    const unread = entry('a', { responseBody: '' });
    expect(log.bytes()).toBe(Buffer.byteLength(JSON.stringify(asRead(unread))) - 2 + Buffer.byteLength(text));

    const read = log.get('a');
    expect(read?.responseBody).toEqual(keptBody(text, 'application/json', DEFAULT_REQUEST_LOG_LIMITS));
    expect(JSON.stringify(read)).not.toContain('hunter2');
    expect(log.bytes()).toBe(Buffer.byteLength(JSON.stringify(read)));
    // Read once: the same kept entry on every later read.
    expect(log.list()[0]).toBe(read);
  });

  it('takes a body sent as bytes as it is, counted at the size of its text and decoded only when its entry is read', async () => {
    // The node adapter's Response (what the server answers with) keeps the bytes it was given.
    getRequestListener(() => new Response(null));
    const utf8 = (text: string) => [...new TextEncoder().encode(text)];
    const bodies = [
      Uint8Array.from(utf8('{"name":"Zoë","password":"p"}')),
      Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('{"bom":true}')]),
      Uint8Array.from([...utf8('{"broken":"'), 0xff, 0xfe, ...utf8('"}')]),
    ];
    for (const bytes of bodies) {
      const response = new Response(bytes, { headers: { 'content-type': 'application/json' } });
      const sent = await sentBody(response, DEFAULT_REQUEST_LOG_LIMITS);
      expect(sent.response).toBe(response);
      const text = new TextDecoder().decode(bytes);
      const log = new RequestLog();
      log.add(entry('a', { responseBody: sent.body }));
      expect(log.bytes()).toBe(Buffer.byteLength(JSON.stringify(asRead(entry('a', { responseBody: '' })))) - 2 + Buffer.byteLength(text));
      const read = log.get('a');
      expect(read?.responseBody).toEqual(keptBody(text, 'application/json', DEFAULT_REQUEST_LOG_LIMITS));
      expect(log.bytes()).toBe(Buffer.byteLength(JSON.stringify(read)));
    }
  });

  it('holds its byte bound when reading makes an entry larger than the text it was sent as', async () => {
    // The body grows when kept: each short secret becomes "[redacted]".
    const grows = JSON.stringify(Array.from({ length: 40 }, () => ({ token: 1 })));
    expect(Buffer.byteLength(JSON.stringify(keptBody(grows, 'application/json', DEFAULT_REQUEST_LOG_LIMITS)))).toBeGreaterThan(Buffer.byteLength(grows));
    const limits = { ...DEFAULT_REQUEST_LOG_LIMITS, bytes: 4096 };
    const log = new RequestLog(limits);
    for (let i = 0; i < 8; i += 1) {
      const sent = await sentBody(new Response(grows, { headers: { 'content-type': 'application/json' } }), limits);
      log.add(entry(`e${i}`, { responseBody: sent.body }));
    }
    expect(log.bytes()).toBeLessThanOrEqual(4096);
    const unreadCount = log.bytes();
    const read = log.list();
    expect(log.bytes()).toBeLessThanOrEqual(4096);
    expect(log.bytes()).toBe(read.reduce((sum, one) => sum + Buffer.byteLength(JSON.stringify(one)), 0));
    expect(log.bytes()).not.toBe(unreadCount);
    expect(read.at(-1)?.requestId).toBe('e7');
    expect(JSON.stringify(read)).not.toContain('"token":1');
  });
  it('keeps the newest entries within its bounds across many drops, and the entry being read among them', () => {
    const log = new RequestLog({ ...DEFAULT_REQUEST_LOG_LIMITS, entries: 3 });
    const size = (id: string) => Buffer.byteLength(JSON.stringify(asRead(entry(id, {}))));
    for (let i = 0; i < 200; i += 1) log.add(entry(`e${i}`, {}));
    expect(log.list().map((one) => one.requestId)).toEqual(['e197', 'e198', 'e199']);
    expect(log.bytes()).toBe(size('e197') + size('e198') + size('e199'));
    // Read while the journal is over its bound (a smaller bound by bytes): the entry read stays, the next oldest goes.
    const bytesBound = new RequestLog({ ...DEFAULT_REQUEST_LOG_LIMITS, entries: 100, bytes: 3 * size('e100') });
    for (let i = 100; i < 300; i += 1) bytesBound.add(entry(`e${i}`, {}));
    expect(bytesBound.get('e297')?.requestId).toBe('e297');
    expect(bytesBound.list().map((one) => one.requestId)).toEqual(['e297', 'e298', 'e299']);
    expect(bytesBound.clear()).toBe(3);
    expect(bytesBound.list()).toEqual([]);
  });

  it('keeps the entry being read when reading makes it the oldest one over the byte bound: the next oldest goes', async () => {
    // Each short secret becomes "[redacted]" when read: the entry grows past the bound it was added within.
    const grows = JSON.stringify(Array.from({ length: 40 }, () => ({ token: 1 })));
    const response = async () => (await sentBody(new Response(grows, { headers: { 'content-type': 'application/json' } }), DEFAULT_REQUEST_LOG_LIMITS)).body;
    const sizes = new RequestLog();
    sizes.add(entry('e0', { responseBody: await response() }));
    const unread = sizes.bytes();
    sizes.list();
    const read = sizes.bytes();
    // Three unread entries fit, and two read ones; one read beside two unread does not.
    expect(read).toBeGreaterThan(unread);
    expect(read).toBeLessThan(2 * unread);
    const log = new RequestLog({ ...DEFAULT_REQUEST_LOG_LIMITS, bytes: Math.max(3 * unread, 2 * read) });
    for (const id of ['e0', 'e1', 'e2']) log.add(entry(id, { responseBody: await response() }));
    expect(log.bytes()).toBe(3 * unread);

    expect(log.get('e0')?.requestId).toBe('e0');
    expect(log.bytes()).toBe(read + unread);
    expect(log.get('e1')).toBeUndefined();
    expect(log.list().map((one) => one.requestId)).toEqual(['e0', 'e2']);
    expect(log.bytes()).toBe(2 * read);
  });

  it('holds the same entries as a list of them would, through any adds, reads and clears within any bounds', () => {
    const operation = fc.oneof(
      fc.record({ add: fc.oneof(fc.nat({ max: 20 }), fc.nat({ max: 2000 })) }),
      fc.record({ get: fc.nat({ max: 60 }) }),
      fc.constant({ list: true }),
      fc.constant({ clear: true }),
    );
    fc.assert(
      fc.property(fc.nat({ max: 40 }), fc.integer({ min: 200, max: 20_000 }), fc.array(operation, { maxLength: 300 }), (entries, bytes, operations) => {
        const log = new RequestLog({ ...DEFAULT_REQUEST_LOG_LIMITS, entries, bytes });
        // The model: the kept entries as a list, oldest first, each with its size as read.
        let model: { id: string; size: number }[] = [];
        const overBound = () => model.length > 1 && (model.length > entries || model.reduce((sum, one) => sum + one.size, 0) > bytes);
        let added = 0;
        for (const step of operations) {
          if ('add' in step) {
            const one = entry(`e${added++}`, { responseBody: 'x'.repeat(step.add) });
            log.add(one);
            model.push({ id: one.requestId, size: Buffer.byteLength(JSON.stringify(asRead(one))) });
            while (overBound()) model.shift();
          } else if ('get' in step) {
            const id = `e${added - 1 - step.get}`;
            expect(log.get(id)?.requestId).toBe(model.some((one) => one.id === id) ? id : undefined);
          } else if ('list' in step) {
            expect(log.list().map((one) => one.requestId)).toEqual(model.map((one) => one.id));
          } else {
            expect(log.clear()).toBe(model.length);
            model = [];
          }
          expect(log.bytes()).toBe(model.reduce((sum, one) => sum + one.size, 0));
        }
        expect(log.list().map((one) => one.requestId)).toEqual(model.map((one) => one.id));
      }),
      {
        numRuns: 300,
        // Large entries dropped by bytes before the journal fills its first slots: it grows while its oldest is not at the start.
        examples: [
          [40, 8000, [...Array.from({ length: 5 }, () => ({ add: 2000 })), ...Array.from({ length: 20 }, () => ({ add: 0 })), { list: true as const }]],
        ],
      },
    );
  });

  it('writes an entry’s instants out when it is read, as its last members, counted at that size from the start', () => {
    const log = new RequestLog();
    const added = entry('timed', { responseBody: { ok: true } });
    log.add(added);
    const countedUnread = log.bytes();
    const read = log.get('timed');
    expect(read?.startedAt).toBe(STARTED_AT);
    expect(read?.finishedAt).toBe(FINISHED_AT);
    expect(Object.keys(read ?? {}).slice(-2)).toEqual(['startedAt', 'finishedAt']);
    expect(read).not.toHaveProperty('startedAtMs');
    expect(countedUnread).toBe(Buffer.byteLength(JSON.stringify(read)));
    expect(log.bytes()).toBe(countedUnread);
  });
});
