import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { RequestLogEntrySchema } from '../../src/control/control.schemas.ts';
import { explain, noteOutcome, type AppEnv } from '../../src/platform/http/context.ts';
import { requestContext } from '../../src/platform/http/middleware.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, KEYS, silentLogger, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const PEP = '/v1/screening/pep-sanctions';
const JANE = { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' };

/** The journal entry of a response, read back by its X-Request-Id. */
async function entryOf(sandbox: TestSandbox, response: { headers: Headers }) {
  const id = response.headers.get('x-request-id');
  const entry = await sandbox.call('GET', `/__sandbox/requests/${id}`);
  expect(entry.status).toBe(200);
  return RequestLogEntrySchema.parse(entry.body);
}

describe('the request journal', () => {
  it('keeps what was received and answered, with the explanation, and returns one entry whole by its id', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', PEP, { body: JANE, headers: { 'x-sandbox-scenario': 'slow' } });
    expect(answer.status).toBe(200);
    const entry = await entryOf(sandbox, answer);
    expect(entry).toMatchObject({ method: 'POST', path: PEP, status: 200, keyId: 'key_live_demo', requestBody: JANE, responseBody: answer.body });
    expect(entry.explain).toBe(answer.headers.get('x-sandbox-explain'));
    expect(entry.headers['content-type']).toBe('application/json');
    expect(entry.headers['x-sandbox-scenario']).toBe('slow');
  });

  it('answers 404 naming the namespace for an id it does not hold', async () => {
    const sandbox = await testSandbox();
    const missing = await sandbox.call('GET', '/__sandbox/requests/req_nope', { namespace: 'ci-7' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('No request "req_nope" in the journal of namespace "ci-7"');
  });

  it('never stores the API key, the Authorization header or cookies, nor members named like secrets', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', PEP, {
      body: { ...JANE, password: 'hunter2', nested: { apiKey: 'sk_live_demo' } },
      headers: { authorization: 'Bearer admin-secret', cookie: 'idv_sandbox_admin=admin-secret' },
    });
    const entry = await entryOf(sandbox, answer);
    const stored = JSON.stringify(await sandbox.call('GET', '/__sandbox/requests').then((r) => r.body));
    for (const secret of [KEYS.live, 'admin-secret', 'hunter2']) expect(stored).not.toContain(secret);
    expect(entry.headers).not.toHaveProperty('x-api-key');
    expect(entry.requestBody).toMatchObject({ password: '[redacted]', nested: { apiKey: '[redacted]' } });
  });

  it('never stores an upload-URL signature: not from the presign answer, not from the upload request', async () => {
    const sandbox = await testSandbox();
    const presign = await sandbox.call('POST', '/v1/upload/presign', { body: { files: [{ contentType: 'image/jpeg', byteLength: 4 }] } });
    const uploadUrl = new URL(presign.body.uploads[0].uploadUrl as string);
    const signature = uploadUrl.searchParams.get('signature') as string;
    expect(signature.length).toBeGreaterThan(20);
    const put = await sandbox.app.request(uploadUrl.pathname + uploadUrl.search, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    });
    expect(put.status).toBe(200);

    const journal = await sandbox.call('GET', '/__sandbox/requests');
    expect(journal.text).not.toContain(signature);
    const upload = journal.body.requests.find((r: { method: string }) => r.method === 'PUT');
    expect(upload.query.signature).toBe('[redacted]');
    expect(upload.requestBody).toBe('[4 bytes of image/jpeg]');
  });

  it('caps each body: long strings are shortened and a body past 16 KiB is kept as a shortened string', async () => {
    const sandbox = await testSandbox();
    const image = 'A'.repeat(40_000);
    const answer = await sandbox.call('POST', '/v1/face/detect', { body: { image } });
    const entry = await entryOf(sandbox, answer);
    expect((entry.requestBody as { image: string }).image).toMatch(/^A{256}… \[39744 more characters\]$/);

    const many = await sandbox.call('POST', PEP, { body: { ...JANE, list: Array.from({ length: 4000 }, (_, i) => `item-${i}`) } });
    const kept = (await entryOf(sandbox, many)).requestBody;
    expect(typeof kept).toBe('string');
    expect(kept as string).toMatch(/more characters\]$/);
    expect(Buffer.byteLength(kept as string)).toBeLessThan(17 * 1024);
  });

  it('holds at most 2 MiB per namespace by default, dropping the oldest entries first', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const long = 'q'.repeat(15_000);
    let last = '';
    for (let i = 0; i < 200; i += 1) {
      const answer = await sandbox.call('GET', `/v1/unknown/${long}`);
      last = answer.headers.get('x-request-id') as string;
    }
    const world = sandbox.platform.worlds.get();
    expect(world.requestLog.bytes()).toBeLessThanOrEqual(2 * 1024 * 1024);
    const journal = await sandbox.call('GET', '/__sandbox/requests');
    expect(journal.text.length).toBeLessThan(2.1 * 1024 * 1024);
    expect(journal.body.requests.at(-1).requestId).toBe(last);
    expect(journal.body.requests.length).toBeLessThan(200);
  });

  it('holds at most the configured count and bytes', async () => {
    const sandbox = await testSandbox({ requestLog: { entries: 3 } });
    for (let i = 0; i < 5; i += 1) await sandbox.call('GET', '/v1/auth/verify');
    expect((await sandbox.call('GET', '/__sandbox/requests')).body.requests).toHaveLength(3);
    const small = await testSandbox({ requestLog: { bytes: 4096 } });
    for (let i = 0; i < 20; i += 1) await small.call('GET', '/v1/auth/verify');
    expect(small.platform.worlds.get().requestLog.bytes()).toBeLessThanOrEqual(4096);
  });

  it('filters by the raw API key, mapped to its key id, as well as by the key id', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('GET', '/v1/auth/verify');
    await sandbox.call('GET', '/v1/auth/verify', { key: KEYS.other });
    const byKey = await sandbox.call('GET', `/__sandbox/requests?key=${KEYS.other}`);
    const byId = await sandbox.call('GET', '/__sandbox/requests?key=key_live_other');
    expect(byKey.body.requests.map((r: { keyId: string }) => r.keyId)).toEqual(['key_live_other']);
    expect(byId.body.requests).toEqual(byKey.body.requests);
  });

  it('records the scenario rules that fired, not merely the active ones', async () => {
    const dir = temporaryDirectory('idv-journal-scenarios-');
    const file = join(dir, 'second-fails.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'second-fails',
        description: 'The second verify answers 503',
        rules: [{ match: { path: '/v1/auth/verify' }, afterN: 1, firstN: 1, respond: { status: 503, error: 'down' } }],
      }),
    );
    const sandbox = await testSandbox({ scenarioFiles: [file], scenarios: ['second-fails'] });
    const first = await entryOf(sandbox, await sandbox.call('GET', '/v1/auth/verify'));
    const second = await entryOf(sandbox, await sandbox.call('GET', '/v1/auth/verify'));
    expect(first).toMatchObject({ status: 200, scenarios: ['second-fails'], firedRules: [] });
    expect(second).toMatchObject({ status: 503, scenarios: ['second-fails'], firedRules: [{ scenario: 'second-fails', rule: 0, effect: 'respond 503' }] });
    expect(second.explain).toBe('scenario second-fails');
  });

  it('records a behaviour scenario when it acts, and counts it', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/__sandbox/scenarios/async-jobs-fail/activate');
    const person = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23', country: 'GB' };
    const queued = await sandbox.call('POST', '/v1/screening/adverse-media', { body: person });
    expect(queued.status).toBe(202);
    expect((await entryOf(sandbox, queued)).firedRules).toEqual([{ scenario: 'async-jobs-fail', effect: 'behaviour async-jobs-fail' }]);
    const verify = await entryOf(sandbox, await sandbox.call('GET', '/v1/auth/verify'));
    expect(verify).toMatchObject({ scenarios: ['async-jobs-fail'], firedRules: [] });
    const scenarios = await sandbox.call('GET', '/__sandbox/scenarios');
    const view = scenarios.body.scenarios.find((s: { name: string }) => s.name === 'async-jobs-fail');
    expect(view.behaviourFires).toEqual({ 'async-jobs-fail': 1 });
  });
});

describe('X-Sandbox-Explain on errors', () => {
  it('says why on 401, 402, 429 and validation failures', async () => {
    const sandbox = await testSandbox({ rateLimits: { burst: 1, perSecond: 1 } });
    const missing = await sandbox.call('GET', '/v1/auth/verify', { key: null });
    expect(missing.headers.get('x-sandbox-explain')).toBe('401: Missing API key');
    const invalid = await sandbox.call('GET', '/v1/auth/verify', { key: 'sk_live_typo' });
    expect(invalid.headers.get('x-sandbox-explain')).toBe('401: Invalid API key');
    const broke = await sandbox.call('POST', '/v1/face/detect', { key: KEYS.broke, body: { image: 'AAAA' } });
    expect(broke.status).toBe(402);
    expect(broke.headers.get('x-sandbox-explain')).toMatch(/^402: /);
    const invalidBody = await sandbox.call('POST', PEP, { key: KEYS.other, body: { firstName: 'Jane' } });
    expect(invalidBody.status).toBe(400);
    expect(invalidBody.headers.get('x-sandbox-explain')).toBe(`400: ${invalidBody.body.error}`);
    await sandbox.call('GET', '/v1/auth/verify');
    const limited = await sandbox.call('GET', '/v1/auth/verify');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-sandbox-explain')).toBe(`429: ${limited.body.error}`);
    const entry = await entryOf(sandbox, limited);
    expect(entry.explain).toBe(limited.headers.get('x-sandbox-explain'));
  });

  it('journals what a real server sent, as sent, with its secrets redacted only in the journal', async () => {
    const server = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, logger: silentLogger });
    try {
      const presign = await fetch(`${server.url}/v1/upload/presign`, {
        method: 'POST',
        headers: { 'x-api-key': KEYS.live, 'content-type': 'application/json' },
        body: JSON.stringify({ files: [{ contentType: 'image/jpeg', byteLength: 4 }] }),
      });
      const sentText = await presign.text();
      const signature = new URL(JSON.parse(sentText).uploads[0].uploadUrl).searchParams.get('signature') as string;
      expect(signature.length).toBeGreaterThan(20);
      expect(presign.headers.get('content-length')).toBe(String(Buffer.byteLength(sentText)));

      const journal = await fetch(`${server.url}/__sandbox/requests/${presign.headers.get('x-request-id')}`);
      const journalText = await journal.text();
      expect(journalText).not.toContain(signature);
      const entry = RequestLogEntrySchema.parse(JSON.parse(journalText));
      const kept = JSON.parse(sentText.replaceAll(signature, '[redacted]'));
      expect(entry.responseBody).toEqual(kept);
      expect(entry.requestBody).toEqual({ files: [{ contentType: 'image/jpeg', byteLength: 4 }] });
    } finally {
      await server.closeNow();
    }
  });
});

describe("a request's lists of explanations, fired rules and outcome facts", () => {
  it('are made on their first item: a request that adds none has none, and what is added is journaled and sent', async () => {
    const sandbox = await testSandbox();
    const lists: Record<string, unknown>[] = [];
    const app = new Hono<AppEnv>().use('*', requestContext(sandbox.platform)).get('/v1/things/:n', (c) => {
      if (c.req.param('n') === '2') {
        explain(c, 'first reason');
        explain(c, 'second reason');
        noteOutcome(c, 'value:things=2');
      }
      lists.push({ explanations: c.get('explanations'), firedRules: c.get('firedRules'), outcomeFacts: c.get('outcomeFacts') });
      return c.text('ok');
    });
    const plain = await app.request('/v1/things/1');
    const explained = await app.request('/v1/things/2');
    // Unset rather than empty: a stored read then sets few enough variables for Hono's map of them not to grow.
    expect(lists).toEqual([
      { explanations: undefined, firedRules: undefined, outcomeFacts: undefined },
      { explanations: ['first reason', 'second reason'], firedRules: undefined, outcomeFacts: ['value:things=2'] },
    ]);
    expect(plain.headers.get('x-sandbox-explain')).toBeNull();
    expect(explained.headers.get('x-sandbox-explain')).toBe('first reason; second reason');
    const journal = sandbox.platform.worlds.get('default').requestLog.list({ path: '/v1/things/*' });
    expect(journal.map(({ explain, firedRules }) => ({ explain, firedRules }))).toEqual([
      { explain: undefined, firedRules: [] },
      { explain: 'first reason; second reason', firedRules: [] },
    ]);
  });
});
