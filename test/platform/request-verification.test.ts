/**
 * Request verification on the journal: count and find requests by method, path, query, body members,
 * status and key, in one namespace, and verify an expected count (200) or learn the nearest misses (409).
 */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

const PEP = '/v1/screening/pep-sanctions';
const ADVERSE = '/v1/screening/adverse-media';
const JANE = { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' };
const control = (path: string, body: unknown, namespace?: string) =>
  ({ path: `/__sandbox/requests/${path}`, options: { key: null, body, ...(namespace ? { namespace } : {}) } }) as const;

describe('request verification', () => {
  it('verifies that an operation was called three times, and counts and finds by path, body and query', async () => {
    const sandbox = await testSandbox();
    for (let i = 0; i < 3; i++) expect((await sandbox.call('POST', PEP, { body: JANE })).status).toBe(200);
    await sandbox.call('POST', PEP, { body: { ...JANE, firstName: 'John' } });
    await sandbox.call('GET', '/v1/sessions?limit=5');

    const verify = control('verify', { method: 'post', path: PEP, body: { firstName: 'Jane' }, count: 3 });
    const held = await sandbox.call('POST', verify.path, verify.options);
    expect([held.status, held.body]).toEqual([200, { namespace: 'default', count: 3, expected: 'exactly 3' }]);

    const count = control('count', { path: '/v1/screening/*' });
    expect((await sandbox.call('POST', count.path, count.options)).body).toEqual({ namespace: 'default', count: 4 });
    const find = control('find', { query: { limit: '5' }, key: 'sk_live_demo', status: 200 });
    const found = await sandbox.call('POST', find.path, find.options);
    expect(found.body.count).toBe(1);
    expect(found.body.requests[0]).toMatchObject({ method: 'GET', path: '/v1/sessions', query: { limit: '5' }, keyId: 'key_live_demo' });
  });

  it('answers 409 with the count and the nearest request, saying what differed', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', PEP, { body: JANE });
    await sandbox.call('GET', '/v1/auth/verify');
    const verify = control('verify', { method: 'POST', path: ADVERSE, body: { firstName: 'Jane' } });
    const missed = await sandbox.call('POST', verify.path, verify.options);
    expect(missed.status).toBe(409);
    expect(missed.body).toMatchObject({ namespace: 'default', count: 0, expected: 'at least 1' });
    expect(missed.body.nearMisses[0]).toMatchObject({ method: 'POST', path: PEP, status: 200, differences: [`path is ${PEP}, expected ${ADVERSE}`] });
    expect(missed.body.nearMisses[1].differences).toHaveLength(3);
    expect(missed.body.error).toBe(
      `Expected at least 1 request matching POST ${ADVERSE} with body {"firstName":"Jane"} in namespace "default", found 0. Nearest other request: POST ${PEP} (${missed.body.nearMisses[0].requestId}): path is ${PEP}, expected ${ADVERSE}.`,
    );

    const tooMany = control('verify', { path: PEP, atMost: 0 });
    const over = await sandbox.call('POST', tooMany.path, tooMany.options);
    expect([over.status, over.body.count, over.body.expected]).toEqual([409, 1, 'at most 0']);
  });

  it('looks in the namespace asked for only', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', PEP, { body: JANE, namespace: 'ci-1' });
    const mine = control('count', { path: PEP }, 'ci-1');
    const other = control('count', { path: PEP }, 'ci-2');
    expect((await sandbox.call('POST', mine.path, mine.options)).body).toEqual({ namespace: 'ci-1', count: 1 });
    expect((await sandbox.call('POST', other.path, other.options)).body).toEqual({ namespace: 'ci-2', count: 0 });
  });

  it('refuses bad patterns with 400 and a sentence, and the journal is unchanged', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', PEP, { body: JANE });
    const bad: [string, unknown, string][] = [
      ['find', { path: 'v1/sessions' }, 'path starts with "/"'],
      ['count', { surprise: true }, 'surprise'],
      ['count', { method: 'GET /x' }, 'method is an HTTP method'],
      ['find', { body: [1] }, 'body field "body"'],
      ['verify', { count: 1, atLeast: 1 }, 'give "count", or "atLeast" and/or "atMost", not both'],
      ['verify', { atLeast: 3, atMost: 1 }, '"atLeast" is above "atMost"'],
      ['verify', { count: -1 }, 'body field "count" must be at least 0'],
    ];
    for (const [verb, body, message] of bad) {
      const answer = await sandbox.call('POST', `/__sandbox/requests/${verb}`, { key: null, body });
      expect([verb, answer.status, answer.body.error], JSON.stringify(body)).toEqual([verb, 400, expect.stringContaining(message)]);
      expect(answer.body.error).toMatch(/^Invalid request: .*\.$/);
    }
    const notJson = await sandbox.call('POST', '/__sandbox/requests/verify', { key: null, raw: '{' });
    expect(notJson.status).toBe(400);
    const journal = await sandbox.call('GET', '/__sandbox/requests', { key: null });
    expect(journal.body.requests).toHaveLength(1);
  });
});
