/**
 * Route-table tests: every /v1 operation of /openapi.json, checked against what the contract says of it
 * (test/api/spec-route-table.ts): the status of a missing key, whether it may refuse for funds, where it
 * declares 400 and 403, and the sandbox key refused on every write. A new route without a row fails here
 * with the row to add.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox.ts';
import { apiOperations, callOperation, type ApiOperation } from '../helpers/api-operations.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { SPEC_ROUTES } from './spec-route-table.ts';

/** Calls every operation, with a body on writes, and collects `name → answer`. */
async function callEach(sandbox: TestSandbox, operations: ApiOperation[], key: string | null, headers: Record<string, string> = {}) {
  const answers = new Map<string, { status: number; body: any; explain: string | null }>();
  for (const operation of operations) {
    const answer = await callOperation(sandbox, operation, { key, headers });
    answers.set(operation.name, { status: answer.status, body: answer.body, explain: answer.headers.get('x-sandbox-explain') });
  }
  return answers;
}

describe('the route table covers every /v1 operation', () => {
  it('has a row for every operation of /openapi.json, and an operation for every row', async () => {
    const sandbox = await testSandbox();
    const names = (await apiOperations(sandbox)).map((operation) => operation.name);
    const missing = names.filter((name) => !(name in SPEC_ROUTES));
    expect(
      missing,
      `Add a row per operation to SPEC_ROUTES in test/api/spec-route-table.ts, read from the operation's error list in the spec: ${missing
        .map((name) => `'${name}': { missingKey: 401 | 403, lists402: true | false, source: '<spec section>' }`)
        .join(', ')}`,
    ).toEqual([]);
    const stale = Object.keys(SPEC_ROUTES).filter((name) => !names.includes(name));
    expect(stale, 'These SPEC_ROUTES rows name no operation of /openapi.json: remove them or fix the method/path').toEqual([]);
    expect(names.length).toBeGreaterThanOrEqual(27);
  });

  it('documents each operation’s error list as the contract gives it: 402 exactly where it has 402, 400 and 403 exactly where they can be answered', async () => {
    const sandbox = await testSandbox();
    for (const operation of await apiOperations(sandbox)) {
      const facts = SPEC_ROUTES[operation.name];
      if (!facts) continue; // reported by the coverage test
      expect(operation.responses.includes('402'), `${operation.name}: 402 listed (${facts.source})`).toBe(facts.lists402);
      // A write refuses a sandbox key (Authentication 4); a read refuses a missing key on the "403 key missing"
      // paths, and another organization's resource when it reads one by id. A list of one's own has no 403.
      const answers403 = operation.method !== 'GET' || facts.missingKey === 403 || facts.readsOneResource === true;
      expect(operation.responses.includes('403'), `${operation.name}: 403 listed (${facts.source})`).toBe(answers403);
      // Only an operation that takes input can fail its validation.
      expect(operation.responses.includes('400'), `${operation.name}: 400 listed`).toBe(operation.takesInput);
      // The body limit reads the body of every method but GET (whose body is never read).
      expect(operation.responses.includes('413'), `${operation.name}: 413 listed`).toBe(operation.method !== 'GET');
      expect(operation.responses, operation.name).toEqual(expect.arrayContaining(['401', '429', '500']));
      expect(operation.security, operation.name).toEqual([{ ApiKeyAuth: [] }]);
    }
  });

  it('declares 413 on every operation but GET ones, whose bodies are never read', async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, Record<string, { responses: object }>> };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.hasOwn(operation.responses, '413'), `${method.toUpperCase()} ${path}: 413 listed`).toBe(method !== 'get');
      }
    }
    const overLimit = { pad: 'a'.repeat(1024 * 1024) };
    expect((await sandbox.call('DELETE', '/v1/igaming/anti-cheat/session-1', { body: overLimit })).status).toBe(413);
    expect((await sandbox.call('DELETE', '/__sandbox/requests', { key: null, body: overLimit })).status).toBe(413);
    // A GET body can only come over a socket (fetch refuses one); the server answers without reading it.
    const server = await createSandbox({ port: 0, memory: true, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    try {
      const text = JSON.stringify(overLimit);
      const get = (path: string) =>
        new Promise<number>((resolve, reject) => {
          const headers = { 'x-api-key': KEYS.live, 'content-type': 'application/json', 'content-length': String(text.length) };
          const request = httpRequest(`${server.url}${path}`, { method: 'GET', headers }, (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          });
          request.on('error', reject);
          request.end(text);
        });
      expect(await get('/v1/sessions')).toBe(200);
      expect(await get('/__sandbox/clock')).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a sandbox key on every write but the AML enrolment, with the message naming the live key', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const writes = (await apiOperations(sandbox)).filter((operation) => operation.method !== 'GET' && operation.operationId !== 'addMonitoredUser');
    for (const [name, answer] of await callEach(sandbox, writes, KEYS.sandbox)) {
      expect(answer.status, name).toBe(403);
      expect(answer.body.error, name).toBe('Sandbox API keys are read-only: a live API key is needed to create or modify resources.');
    }
  });
});

describe('a missing key answers the status the operation’s error list gives (issue: phone checks answered 401)', () => {
  it('answers 401 or 403, per the table, with an error and a detail naming the header, on every operation', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const operations = await apiOperations(sandbox);
    for (const [name, answer] of await callEach(sandbox, operations, null)) {
      const facts = SPEC_ROUTES[name];
      if (!facts) continue;
      expect(answer.status, `${name} without x-api-key (${facts.source})`).toBe(facts.missingKey);
      expect(answer.body, name).toMatchObject({ error: 'Missing API key', detail: 'Send your organization API key in the x-api-key header.' });
    }
    for (const [name, answer] of await callEach(sandbox, operations, '   ')) {
      expect(answer.status, `${name} with a blank x-api-key`).toBe(SPEC_ROUTES[name]?.missingKey ?? answer.status);
    }
  });

  it('answers 401 for an unknown or a revoked key on every operation, whatever its missing-key status', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const operations = await apiOperations(sandbox);
    for (const key of ['sk_live_unknown', KEYS.revoked]) {
      for (const [name, answer] of await callEach(sandbox, operations, key)) {
        expect(answer.status, `${name} with ${key}`).toBe(401);
        expect(answer.body.detail, name).toMatch(/key/);
      }
    }
  });

  it('names the phone checks: 403 for a missing key, 401 for an invalid one', async () => {
    const sandbox = await testSandbox();
    for (const path of ['/v1/screening/phone-ownership', '/v1/screening/phone-trust']) {
      const body = { phone: '+447700900001', firstName: 'Jane', lastName: 'Doe' };
      expect((await sandbox.call('POST', path, { key: null, body })).status, path).toBe(403);
      expect((await sandbox.call('POST', path, { key: 'sk_live_typo', body })).status, path).toBe(401);
      expect((await sandbox.call('POST', path, { body })).status, path).toBe(200);
    }
  });
});

describe('only operations whose error list has 402 refuse for funds (issue: PEP answered 402)', () => {
  it('the insufficient-funds scenario answers 402 on every write that lists 402 and on no other operation', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const operations = await apiOperations(sandbox);
    for (const [name, answer] of await callEach(sandbox, operations, KEYS.live, { 'x-sandbox-scenario': 'insufficient-funds' })) {
      const facts = SPEC_ROUTES[name];
      if (!facts) continue;
      if (!facts.lists402) {
        expect(answer.status, `${name} (${facts.source})`).not.toBe(402);
      } else if (name.startsWith('POST ')) {
        expect(answer.status, name).toBe(402);
      }
    }
    const pep = (
      await callEach(
        sandbox,
        operations.filter((o) => o.name === 'POST /v1/screening/pep-sanctions'),
        KEYS.live,
        { 'x-sandbox-scenario': 'insufficient-funds' },
      )
    ).get('POST /v1/screening/pep-sanctions');
    expect(pep?.explain).toContain('scenario insufficient-funds: no 402 here');
  });

  it('screens PEP and sanctions for an organization with an empty balance, spending nothing it does not have', async () => {
    const sandbox = await testSandbox();
    const person = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' };
    const answer = await sandbox.call('POST', '/v1/screening/pep-sanctions', { key: KEYS.broke, body: person });
    expect(answer.status).toBe(200);
    expect(answer.body.totalMatches).toBe(0);
    expect(answer.headers.get('x-sandbox-explain')).toContain("billing: balance 0 < 1, served anyway: this operation's spec lists no 402");
    const organizations = (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body;
    expect(JSON.stringify(organizations)).toMatch(/"org_broke"[^}]*"balance":0/);
    // An organization with tokens still pays for it.
    const paid = await sandbox.call('POST', '/v1/screening/pep-sanctions', { body: person });
    expect(paid.headers.get('x-sandbox-explain')).toContain('billing: PEP and sanctions screening charged 1 token (balance 999)');
  });

  it('queues an adverse-media job for an organization with an empty balance (its error list has no 402)', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', '/v1/screening/adverse-media', {
      key: KEYS.broke,
      body: { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('pending');
  });

  it('still answers 402 to an empty balance where the error list has it, storing nothing', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/screening/phone-trust', { key: KEYS.broke, body: { phone: '+447700900001' } });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatch(/^Insufficient funds/);
  });
});
