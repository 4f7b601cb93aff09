/**
 * The coverage report after a known set of requests: the exact classes hit, a sample of those missed with
 * their triggers, in JSON, Markdown, JUnit XML (valid against the upstream Jenkins and Ant JUnit schemas,
 * and parsed for the structure JUnit consumers read) and HTML.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { CoverageReportSchema } from '../../src/control/control.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { junitSchemaErrors } from './junit-schemas.ts';

let sandbox: TestSandbox;
afterEach(async () => {
  await sandbox.close();
});

/** Happy paths, one magic value, one scenario, one 404 and one 429 (the 36th request of a burst with one key). */
async function knownTraffic(s: TestSandbox, namespace?: string): Promise<void> {
  expect((await s.call('GET', '/v1/auth/verify', { namespace })).status).toBe(200);
  const session = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', redirect_url: 'https://example.com/done' };
  expect((await s.call('POST', '/v1/sessions', { body: session, namespace })).status).toBe(200);
  expect((await s.call('POST', '/v1/screening/phone-trust', { body: { phone: '+447700900003' }, namespace })).status).toBe(200);
  const scenario = await s.call('POST', '/v1/screening/phone-trust', {
    body: { phone: '+447700900001' },
    headers: { 'X-Sandbox-Scenario': 'server-error' },
    namespace,
  });
  expect(scenario.status).toBe(500);
  expect((await s.call('GET', '/v1/sessions/does-not-exist', { namespace })).status).toBe(404);
  const statuses: number[] = [];
  for (let i = 0; i < 35; i += 1) statuses.push((await s.call('GET', '/v1/auth/verify', { key: KEYS.other, namespace })).status);
  expect(statuses.every((status) => status === 200)).toBe(true);
  expect((await s.call('GET', '/v1/auth/verify', { key: KEYS.other, namespace })).status).toBe(429);
}

const EXPECTED_HITS = [
  'magic-value POST /v1/screening/phone-trust phone +447700900003',
  'refusal rate',
  'scenario server-error',
  'scenario-kind error',
  'status GET /v1/auth/verify 200',
  'status GET /v1/auth/verify 429',
  'status GET /v1/sessions/{id} 404',
  'status POST /v1/screening/phone-trust 200',
  'status POST /v1/screening/phone-trust 500',
  'status POST /v1/sessions 200',
];

describe('GET /__sandbox/coverage', () => {
  it('lists exactly the classes the known traffic hit, with counts and first and last request ids', async () => {
    sandbox = await testSandbox();
    await knownTraffic(sandbox);
    const response = await sandbox.call('GET', '/__sandbox/coverage', { key: null });
    expect(response.status).toBe(200);
    const report = CoverageReportSchema.parse(response.body);
    expect(report.hit.map((h) => h.id).sort()).toEqual(EXPECTED_HITS);
    expect(report.namespace).toBe('default');
    expect(report.hitCount).toBe(EXPECTED_HITS.length);
    expect(report.classes).toBe(report.hit.length + report.missed.length);
    expect(report.percent).toBe(Math.round((EXPECTED_HITS.length / report.classes) * 1000) / 10);

    const verify = report.hit.find((h) => h.id === 'status GET /v1/auth/verify 200');
    expect(verify?.count).toBe(36);
    expect(verify?.byKey).toEqual({ key_live_demo: 1, key_live_other: 35 });
    const journal = (await sandbox.call('GET', '/__sandbox/requests?path=/v1/auth/verify', { key: null })).body.requests as {
      requestId: string;
      status: number;
    }[];
    const ok = journal.filter((entry) => entry.status === 200).map((entry) => entry.requestId);
    expect(ok).toContain(verify?.firstRequestId);
    expect(ok).toContain(verify?.lastRequestId);
    expect(verify?.firstRequestId).not.toBe(verify?.lastRequestId);

    const trust = report.operations.find((o) => o.operation === 'POST /v1/screening/phone-trust');
    expect(trust?.hit).toBe(3);
    expect(trust?.percent).toBe(Math.round((3 / (trust?.classes ?? 1)) * 1000) / 10);
  });

  it('names only requests the journal holds: ids answered before a reset (they restart from the seed) are null', async () => {
    sandbox = await testSandbox();
    const journalPath = async (requestId: string | null) => {
      const { requests } = (await sandbox.call('GET', '/__sandbox/requests', { key: null })).body as { requests: { requestId: string; path: string }[] };
      return requests.find((entry) => entry.requestId === requestId)?.path;
    };
    const verify = () => sandbox.call('GET', '/v1/auth/verify');
    const before = (await verify()).headers.get('x-request-id');
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null })).status).toBe(200);
    // The first request after the reset takes the id the key check had.
    const other = await sandbox.call('GET', '/v1/sessions/does-not-exist');
    expect(other.headers.get('x-request-id')).toBe(before);
    const onlyBefore = (await sandbox.coverage('default')).hit.find((h) => h.id === 'status GET /v1/auth/verify 200');
    expect(onlyBefore).toMatchObject({ count: 1, firstRequestId: null, lastRequestId: null });

    const after = (await verify()).headers.get('x-request-id');
    const both = (await sandbox.coverage('default')).hit.find((h) => h.id === 'status GET /v1/auth/verify 200');
    expect(both).toMatchObject({ count: 2, firstRequestId: null, lastRequestId: after });
    expect(await journalPath(both?.lastRequestId ?? null)).toBe('/v1/auth/verify');
    const markdown = (await sandbox.call('GET', '/__sandbox/coverage?format=markdown', { key: null })).text;
    expect(markdown).toContain(`| \`status GET /v1/auth/verify 200\` | 2 | before a reset, ${after} |`);
  });

  it("fills a curl's path with a record of the namespace, or says which call makes one, never an id placeholder", async () => {
    sandbox = await testSandbox();
    const missed = async (id: string) => (await sandbox.coverage('default')).missed.find((m) => m.id === id);
    const read = 'status GET /v1/sessions/{id} 200';
    expect(await missed(read)).toMatchObject({ how: expect.stringContaining('{id} (POST /v1/sessions makes one)') });
    expect((await missed(read))?.curl).toBeUndefined();
    expect((await sandbox.coverage('default')).missed.filter((m) => m.curl?.match(/\/\{\w+\}/))).toEqual([]);

    const created = await sandbox.call('POST', '/v1/sessions', { body: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' } });
    const curl = (await missed(read))?.curl;
    expect(curl).toBe(`curl -sS 'http://127.0.0.1:4010/v1/sessions/${created.body.id}' -H 'x-api-key: sk_live_demo'`);
    expect((await sandbox.call('GET', new URL(/'(http[^']+)'/.exec(curl ?? '')?.[1] ?? '').pathname)).status).toBe(200);
    // Another namespace has made no session: its report says so rather than lend this one's.
    expect(await sandbox.coverage('other')).toMatchObject({
      missed: expect.arrayContaining([expect.objectContaining({ id: read, how: expect.stringContaining('POST /v1/sessions makes one') })]),
    });
  });

  it('says how to trigger each class never hit, as a curl where one request does it', async () => {
    sandbox = await testSandbox();
    await knownTraffic(sandbox);
    const report = CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body);
    const missed = new Map(report.missed.map((m) => [m.id, m]));
    expect(missed.get('scenario rate-limited')?.curl).toBe(
      `curl -sS -X POST 'http://127.0.0.1:4010/v1/screening/phone-trust' -H 'x-api-key: sk_live_demo' -H 'X-Sandbox-Scenario: rate-limited' -H 'content-type: application/json' -d '{"phone":"+447700900003"}'`,
    );
    expect(missed.get('test-identifier GET /v1/sessions/{id} test_verified')?.curl).toBe(
      `curl -sS 'http://127.0.0.1:4010/v1/sessions/test_verified' -H 'x-api-key: sk_test_demo'`,
    );
    expect(missed.get('error-code BOT_CADENCE_INVALID')?.curl).toContain(`/v1/aml/bots/bot_misconfigured/monitored-users`);
    expect(missed.get('refusal funds')?.curl).toContain(`-H 'x-api-key: sk_live_broke'`);
    expect(missed.get('validation malformed_json')?.how).toContain('{"phone":');
    expect(missed.get('refusal quota')).toMatchObject({ how: expect.stringContaining('10,001 requests'), kind: 'refusal' });
    expect(missed.get('refusal quota')?.curl).toBeUndefined();
    expect(missed.has('status GET /v1/sessions/{id} 404')).toBe(false);
  });

  it('renders the same report as Markdown, JUnit XML and HTML', async () => {
    sandbox = await testSandbox();
    await knownTraffic(sandbox);
    const json = CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body);

    const markdown = await sandbox.call('GET', '/__sandbox/coverage?format=markdown', { key: null });
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.text).toContain(`**${json.percent}%** of outcome classes hit: 10 of ${json.classes}.`);
    expect(markdown.text).toContain('| `status GET /v1/auth/verify 200` | 36 |');
    expect(markdown.text).toContain(
      '| `scenario rate-limited` | 0 | header X-Sandbox-Scenario: rate-limited (or activate it in the namespace)<br>`curl -sS -X POST',
    );
    for (const id of EXPECTED_HITS) expect(markdown.text).toContain(`| \`${id}\` |`);
    // First the summary per area, a bar each; then each area's classes, folded, by operation.
    const auth = json.areas.find((a) => a.area === 'auth');
    expect(auth).toEqual({ area: 'auth', classes: expect.any(Number), hit: 2, percent: Math.round((2 / (auth?.classes ?? 1)) * 1000) / 10 });
    expect(json.areas.map((a) => a.area).at(-1)).toBe('every operation');
    expect(json.areas.reduce((sum, a) => sum + a.classes, 0)).toBe(json.classes);
    expect(markdown.text).toContain(`| auth | 2 | ${auth?.classes} | ${auth?.percent} | \`${'█'.repeat(Math.round((auth?.percent ?? 0) / 5))}`);
    const summaryEnd = markdown.text.indexOf('<details>');
    expect(markdown.text.slice(0, summaryEnd).split('\n').length).toBeLessThan(json.areas.length + 12);
    expect(markdown.text).toContain(`<details><summary><b>auth</b>: 2 of ${auth?.classes} hit</summary>\n\n**\`GET /v1/auth/verify\`**: 2 of `);

    const junit = await sandbox.call('GET', '/__sandbox/coverage?format=junit', { key: null });
    expect(junit.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await junitSchemaErrors(junit.text, 'jenkins')).toEqual([]);
    expect(await junitSchemaErrors(junit.text, 'ant')).toEqual([]);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(
      junit.text,
    );
    const suites = parsed.testsuites.testsuite as {
      name: string;
      id: string;
      timestamp: string;
      hostname: string;
      tests: string;
      failures: string;
      properties: { property: { name: string; value: string } };
      'system-out': string;
      testcase: { name: string; classname: string; failure?: { message: string; type: string; '#text': string } }[];
    }[];
    const cases = suites.flatMap((suite) => suite.testcase);
    expect(suites.reduce((sum, suite) => sum + Number(suite.tests), 0)).toBe(json.classes);
    expect(suites.reduce((sum, suite) => sum + Number(suite.failures), 0)).toBe(json.missed.length);
    expect(cases).toHaveLength(json.classes);
    expect(suites.map((suite) => suite.id)).toEqual(suites.map((_, index) => String(index)));
    for (const suite of suites) {
      expect(Number(suite.tests)).toBe(suite.testcase.length);
      expect(Number(suite.failures)).toBe(suite.testcase.filter((c) => c.failure).length);
      // The frozen clock of the test sandbox, without fraction or zone; the host the sandbox answers on.
      expect(suite.timestamp).toBe(sandbox.clock.iso().slice(0, 19));
      expect(suite.hostname).toBe('127.0.0.1');
      expect(suite.properties.property).toEqual({ name: 'namespace', value: 'default' });
    }
    const statusSuite = suites.find((suite) => suite.name === 'coverage.status');
    expect(statusSuite?.['system-out']).toContain('status GET /v1/auth/verify 200: hit 36 time(s), first ');
    const failing = cases.filter((c) => c.failure).map((c) => c.name);
    expect(failing.sort()).toEqual(json.missed.map((m) => m.id).sort());
    const passing = cases.filter((c) => !c.failure).map((c) => c.name);
    expect(passing.sort()).toEqual(EXPECTED_HITS);
    const rateLimited = cases.find((c) => c.name === 'scenario rate-limited');
    expect(rateLimited?.classname).toBe('coverage.scenario');
    expect(rateLimited?.failure?.type).toBe('NotCovered');
    expect(rateLimited?.failure?.['#text']).toContain("-H 'X-Sandbox-Scenario: rate-limited'");

    const html = await sandbox.call('GET', '/__sandbox/coverage?format=html', { key: null });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toContain(`<strong>${json.percent}%</strong>`);
    expect(html.text).toContain(
      `<tr><td>auth</td><td>2</td><td>${auth?.classes}</td><td>${auth?.percent}</td><td><meter min="0" max="${auth?.classes}" value="2" aria-label="auth: 2 of ${auth?.classes} hit"></meter></td></tr>`,
    );
    expect(html.text).toContain(
      `<details class="coverage-area"><summary><strong>auth</strong>: 2 of ${auth?.classes} hit</summary>\n<details class="coverage-operation"><summary><code>GET /v1/auth/verify</code>: 2 of `,
    );
    expect(html.text).toContain('<textarea class="curl" readonly rows="2" aria-label="curl for scenario rate-limited">curl -sS -X POST');
    expect(html.text).toContain('<td><code>status GET /v1/sessions/{id} 404</code></td><td>1</td>');
  });

  it('checks JUnit against schemas that refuse what CI servers cannot read (a missing count, a count that is no number, output inside a test case)', async () => {
    sandbox = await testSandbox();
    const junit = (await sandbox.call('GET', '/__sandbox/coverage?format=junit', { key: null })).text;
    expect(await junitSchemaErrors(junit, 'jenkins')).toEqual([]);
    expect(await junitSchemaErrors(junit, 'ant')).toEqual([]);
    const withoutCount = junit.replace(/ tests="\d+"/, '');
    expect((await junitSchemaErrors(withoutCount, 'jenkins')).join('\n')).toContain("The attribute 'tests' is required");
    expect((await junitSchemaErrors(withoutCount, 'ant')).join('\n')).toContain("The attribute 'tests' is required");
    const notANumber = junit.replace(/ tests="\d+"/, ' tests="many"');
    expect((await junitSchemaErrors(notANumber, 'ant')).join('\n')).toContain("'many' is not a valid value");
    const outputInCase = junit.replace('</failure>', '</failure><system-out>hit</system-out>');
    expect(outputInCase).not.toBe(junit);
    expect(await junitSchemaErrors(outputInCase, 'jenkins')).toEqual([]);
    expect((await junitSchemaErrors(outputInCase, 'ant')).join('\n')).toContain("Element 'system-out': This element is not expected");
  });

  it('counts a validation failure under its status and the validation kind', async () => {
    sandbox = await testSandbox();
    expect((await sandbox.call('POST', '/v1/screening/phone-trust', { body: { phone: 7700900003 } })).status).toBe(400);
    expect((await sandbox.call('POST', '/v1/screening/phone-trust', { raw: '{"phone":' })).status).toBe(400);
    const report = CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body);
    expect(report.hit.map((h) => [h.id, h.count])).toEqual([
      ['status POST /v1/screening/phone-trust 400', 2],
      ['validation malformed_json', 1],
      ['validation invalid_type', 1],
    ]);
  });

  it('reports one key only with ?key=, given the key or its id', async () => {
    sandbox = await testSandbox();
    await knownTraffic(sandbox);
    const byKey = CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage?key=sk_live_other', { key: null })).body);
    expect(byKey.keyId).toBe('key_live_other');
    expect(byKey.hit.map((h) => [h.id, h.count])).toEqual([
      ['status GET /v1/auth/verify 200', 35],
      ['status GET /v1/auth/verify 429', 1],
      ['refusal rate', 1],
    ]);
    const byId = CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage?key=key_live_other', { key: null })).body);
    expect(byId.hit).toEqual(byKey.hit);
  });

  it('outlives POST /__sandbox/reset, and DELETE clears it', async () => {
    sandbox = await testSandbox();
    await sandbox.call('GET', '/v1/auth/verify');
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null })).status).toBe(200);
    expect(CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body).hitCount).toBe(1);
    const cleared = await sandbox.call('DELETE', '/__sandbox/coverage', { key: null });
    expect(cleared.body).toEqual({ cleared: ['default'] });
    expect(CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body).hitCount).toBe(0);
  });

  it('refuses an unknown format with a 400 naming the formats', async () => {
    sandbox = await testSandbox();
    const response = await sandbox.call('GET', '/__sandbox/coverage?format=pdf', { key: null });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('format');
    expect(response.body.error).toContain('junit');
  });

  it('recognises a magic value in a body the journal keeps shortened, and in one it keeps whole', async () => {
    // 8 bytes per body: the journal keeps the phone-trust body shortened, not as the text that was sent.
    for (const bodyBytes of [8, 16 * 1024]) {
      sandbox = await testSandbox({ requestLog: { bodyBytes } });
      const answer = await sandbox.call('POST', '/v1/screening/phone-trust', { body: { phone: '+447700900003', note: 'x'.repeat(64) } });
      expect(answer.status).toBe(200);
      const report = CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body);
      expect(report.hit.map((h) => h.id)).toContain('magic-value POST /v1/screening/phone-trust phone +447700900003');
      await sandbox.close();
    }
    sandbox = await testSandbox();
  });

  it('records nothing when the sandbox runs without coverage', async () => {
    sandbox = await testSandbox({ coverage: false });
    await sandbox.call('GET', '/v1/auth/verify');
    expect(CoverageReportSchema.parse((await sandbox.call('GET', '/__sandbox/coverage', { key: null })).body).hitCount).toBe(0);
  });

  it('returns the report of every namespace from close()', async () => {
    sandbox = await testSandbox();
    await sandbox.call('GET', '/v1/auth/verify', { namespace: 'w1' });
    await sandbox.call('GET', '/v1/sessions/does-not-exist', { namespace: 'w2' });
    const report = await sandbox.close();
    expect(report.namespace).toBe('*');
    expect(report.hit.map((h) => h.id)).toEqual(['status GET /v1/auth/verify 200', 'status GET /v1/sessions/{id} 404']);
    sandbox = await testSandbox();
  });
});
