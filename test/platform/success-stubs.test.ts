/**
 * Runtime stubs that answer a 2xx: the body is checked against the response the operation declares, so a
 * stub is one the service's clients can parse; one they could not is refused with the field at fault.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globReachesTemplate } from '../../src/platform/scenarios/stub-answers.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';
import { RealClient } from '../api/real-client/client.ts';

/** A real answer of GET /v1/sessions/{id}, to stub with. */
async function sessionAnswer(sandbox: TestSandbox) {
  const answer = await sandbox.call('GET', '/v1/sessions/test_verified', { key: KEYS.sandbox });
  expect(answer.status).toBe(200);
  return answer.body;
}

function stubScenario(body: unknown, match: Record<string, unknown> = { methods: ['GET'], path: '/v1/sessions/stubbed-session' }, status = 200) {
  return { name: 'stubbed', description: 'a session that only the stub knows', rules: [{ match, respond: { status, body } }] };
}

describe('2xx stubs', () => {
  it('serves a stub whose body fits the operation, and the real client parses it', async () => {
    const sandbox = await testSandbox();
    const body = await sessionAnswer(sandbox);
    const stub = { ...body, session_record: { ...body.session_record, status: 'REJECTED' } };
    const added = await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: stubScenario(stub) });
    expect(added.status).toBe(201);
    await sandbox.call('POST', '/__sandbox/scenarios/stubbed/activate', { key: null });

    const client = new RealClient(sandbox, KEYS.live);
    const answer = await client.sessions.retrieve('stubbed-session');
    expect(answer.status).toBe(200);
    expect(answer.raw).toEqual(stub);
    expect(answer.data.session_record.status).toBe('REJECTED');

    const journal = await sandbox.call('GET', '/__sandbox/requests?path=/v1/sessions/stubbed-session', { key: null });
    expect(journal.body.requests[0].firedRules).toEqual([{ scenario: 'stubbed', rule: 0, effect: 'respond 200' }]);
  });

  it('refuses a body the clients could not parse with 400 naming the field, and adds nothing', async () => {
    const sandbox = await testSandbox();
    const body = await sessionAnswer(sandbox);
    const bad = { ...body, session_record: { ...body.session_record, status: 'DONE' } };
    const refused = await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: stubScenario(bad) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Invalid scenario: rules\.0\.respond: rules\.0\.respond\.body\.session_record\.status: .*GET \/v1\/sessions\/\{id\}/);
    const undeclared = await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: stubScenario({ ...body, surprise: 1 }) });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toContain('undeclared key "rules.0.respond.body.surprise"');
    const list = await sandbox.call('GET', '/__sandbox/scenarios', { key: null });
    expect(list.body.scenarios.map((scenario: { name: string }) => scenario.name)).not.toContain('stubbed');
  });

  it('refuses a status the operation does not answer, a rule reaching no operation, and a body on an error', async () => {
    const sandbox = await testSandbox();
    const body = await sessionAnswer(sandbox);
    const created = await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: stubScenario(body, undefined, 201) });
    expect([created.status, created.body.error]).toEqual([400, expect.stringContaining('status 201 is not declared')]);
    const nowhere = await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: stubScenario(body, { path: '/v1/nothing-here' }) });
    expect([nowhere.status, nowhere.body.error]).toEqual([400, expect.stringContaining('rules.0.match matches no /v1 operation')]);
    // Every operation under /v1/sessions/ is reached: the body fits GET /v1/sessions/{id} only.
    const broad = await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: stubScenario(body, { path: '/v1/sessions/**' }) });
    expect([broad.status, broad.body.error]).toEqual([400, expect.stringContaining('narrow "match"')]);
    const errorWithBody = await sandbox.call('POST', '/__sandbox/scenarios', {
      key: null,
      body: { name: 'x', description: 'x', rules: [{ respond: { status: 503, error: 'down', body: {} } }] },
    });
    expect([errorWithBody.status, errorWithBody.body.error]).toEqual([400, expect.stringContaining('"body" is for 2xx answers')]);
    const successWithoutBody = await sandbox.call('POST', '/__sandbox/scenarios', {
      key: null,
      body: { name: 'x', description: 'x', rules: [{ respond: { status: 200 } }] },
    });
    expect([successWithoutBody.status, successWithoutBody.body.error]).toEqual([400, expect.stringContaining('a 200 answer needs "body"')]);
    const list = await sandbox.call('GET', '/__sandbox/scenarios', { key: null });
    expect(list.body.scenarios).toHaveLength(9);
  });

  it('stops start-up on a scenario file whose stub does not fit its operation', async () => {
    const directory = temporaryDirectory('idv-stubs-');
    writeFileSync(
      join(directory, 'bad.json'),
      JSON.stringify({
        name: 'bad-stub',
        description: 'x',
        rules: [{ match: { methods: ['GET'], path: '/v1/auth/verify' }, respond: { status: 200, body: { nope: true } } }],
      }),
    );
    await expect(testSandbox({ extraScenariosDirs: [directory] })).rejects.toThrow(/^Scenario "bad-stub" is invalid at rules\.0\.respond: /);
  });
});

describe('which operations a path glob reaches', () => {
  it('reads a template parameter as any one segment, * within a segment and ** across segments', () => {
    expect(globReachesTemplate('/v1/sessions/abc', '/v1/sessions/{id}')).toBe(true);
    expect(globReachesTemplate('/v1/sessions/*', '/v1/sessions/{id}')).toBe(true);
    expect(globReachesTemplate('/v1/sessions/*', '/v1/sessions')).toBe(false);
    expect(globReachesTemplate('/v1/**', '/v1/sessions/{id}/steps/{step}')).toBe(true);
    expect(globReachesTemplate('/v1/screening/**', '/v1/sessions/{id}')).toBe(false);
    expect(globReachesTemplate('/v1/credit-check/*', '/v1/credit-check/hard')).toBe(true);
    expect(globReachesTemplate('/v1/credit-check/h*', '/v1/credit-check/soft')).toBe(false);
  });
});
