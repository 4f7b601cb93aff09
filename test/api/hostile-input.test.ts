/**
 * Every operation in /openapi.json, fed malformed and hostile input: never a 500, always a JSON error
 * body with a human `error`, and never a change to stored data.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const SOME_UUID = '3b241101-e2bb-4255-8caf-4136c566a962';

const HOSTILE_BODIES: { label: string; raw: string; contentType?: string }[] = [
  { label: 'malformed JSON', raw: '{"firstName": ' },
  { label: 'a JSON array', raw: '[1, 2, 3]' },
  { label: 'a JSON string', raw: '"hello"' },
  { label: 'JSON null', raw: 'null' },
  { label: 'an empty object', raw: '{}' },
  { label: '__proto__ pollution', raw: '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}' },
  {
    label: 'wrong types everywhere',
    raw: '{"firstName": 1, "lastName": [], "email": {}, "phone": true, "files": "x", "image": 5, "source": null, "limit": "all"}',
  },
  { label: 'a very long string', raw: JSON.stringify({ firstName: 'x'.repeat(100_000), email: 'a@b.co', lastName: 'y' }) },
  { label: 'text/plain', raw: 'firstName=Jane', contentType: 'text/plain' },
  { label: 'a broken multipart body', raw: '--x\r\nContent-Disposition: form-data; name="image"\r\n\r\nabc', contentType: 'multipart/form-data; boundary=y' },
];

function snapshot(sandbox: TestSandbox): string {
  const { store } = sandbox.platform;
  return JSON.stringify(store.namespaces().map((ns) => [ns, store.partition(ns).dump()]));
}

async function operations(sandbox: TestSandbox) {
  const doc = (await sandbox.call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, SOME_UUID),
        // An operation that declares no body (a DELETE the real client sends without one, the retention purge)
        // ignores whatever is sent.
        bodyless: (methods[method] as { requestBody?: unknown }).requestBody === undefined,
      })),
  );
}

/**
 * Operations whose whole body is optional: an empty object (or one with only unknown keys) is valid. An
 * empty request pattern matches every journalled request.
 */
const BODY_OPTIONAL = new Set([
  'POST /v1/face/liveness/sessions',
  'POST /__sandbox/jobs',
  'DELETE /__sandbox/requests',
  'POST /__sandbox/reset',
  'POST /__sandbox/requests/find',
  'POST /__sandbox/requests/count',
  'POST /__sandbox/requests/verify',
]);

describe('hostile input on every mutating operation', () => {
  it('answers 4xx with a JSON error, never 500, and stores nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const ops = (await operations(sandbox)).filter((op) => !op.bodyless && !BODY_OPTIONAL.has(`${op.method} ${op.path}`));
    expect(ops.map((op) => `${op.method} ${op.path.replaceAll(SOME_UUID, '{id}')}`)).toEqual(
      expect.arrayContaining([
        'POST /v1/sessions',
        'PATCH /v1/sessions/{id}/update-status',
        'POST /v1/screening/adverse-media',
        'POST /v1/face/compare',
        'POST /v1/financial',
        'POST /v1/credit-check/hard',
        'PUT /uploads/{id}',
        'POST /__sandbox/clock',
      ]),
    );
    const before = snapshot(sandbox);
    const failures: string[] = [];
    for (const op of ops) {
      for (const body of HOSTILE_BODIES) {
        const response = await sandbox.call(op.method, op.path, { raw: body.raw, headers: { 'content-type': body.contentType ?? 'application/json' } });
        // The sentence is in `error`, or in `message` where `error` carries the code (re-verifications: the iOS client reads it there).
        const sentence = [response.body?.error, response.body?.message].find((text) => typeof text === 'string' && text.length > 10);
        const ok = response.status >= 400 && response.status < 500 && typeof response.body?.error === 'string' && sentence !== undefined;
        if (!ok) failures.push(`${op.method} ${op.path} with ${body.label}: ${response.status} ${response.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(snapshot(sandbox)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never answers 500 on the operations whose body is optional, and ignores what it does not know', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const ops = (await operations(sandbox)).filter((op) => op.bodyless || BODY_OPTIONAL.has(`${op.method} ${op.path}`));
    expect(ops.filter((op) => BODY_OPTIONAL.has(`${op.method} ${op.path}`))).toHaveLength(BODY_OPTIONAL.size);
    for (const op of ops) {
      for (const body of HOSTILE_BODIES) {
        const response = await sandbox.call(op.method, op.path, { raw: body.raw, headers: { 'content-type': body.contentType ?? 'application/json' } });
        expect(response.status, `${op.method} ${op.path} with ${body.label}`).toBeLessThan(500);
        expect(typeof response.body, `${op.method} ${op.path} with ${body.label}: a JSON body`).toBe('object');
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
