/**
 * The QA console, page by page, through app.request as a browser would use it: the session cookie of
 * the first page, the CSRF token of its forms, 303 back to the page after every write.
 */
import { describe, expect, it } from 'vitest';
import { applyControlOutcome, legalControlOutcomes } from '../../src/sessions/session-outcomes.ts';
import { CONTROL_OUTCOMES, SESSION_STATUSES, type SessionRecord } from '../../src/sessions/sessions.schemas.ts';
import { FROZEN_AT, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { createHeadlessSession, createWorkflow, submit, uploadToSession } from '../workflows/helpers.ts';
import { hostedSession } from '../workflows/steps/hosted.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' };

interface Page {
  status: number;
  location: string | null;
  cookie: string | null;
  html: string;
}

async function page(sandbox: TestSandbox, path: string, init: RequestInit = {}): Promise<Page> {
  const response = await sandbox.app.request(path, init);
  return { status: response.status, location: response.headers.get('location'), cookie: response.headers.get('set-cookie'), html: await response.text() };
}

/** A browser tab on the console: keeps the session cookie and posts every form with its CSRF token. */
async function browse(sandbox: TestSandbox, headers: Record<string, string> = {}) {
  const first = await page(sandbox, '/console', { headers });
  expect(first.status).toBe(200);
  const cookie = headers.cookie ?? (first.cookie ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(first.html)?.[1] ?? '';
  return {
    get: (path: string) => page(sandbox, path, { headers: { cookie } }),
    post: (path: string, fields: Record<string, string> = {}) =>
      page(sandbox, path, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ ...fields, csrf }) }),
  };
}

/** The outcomes the session page offers as buttons. */
const buttonsOf = (html: string) => [...html.matchAll(/data-outcome="([^"]+)"/g)].map((match) => match[1]);

describe('console guard', () => {
  const TOKEN = 'console-admin-token';

  it('sends a browser without a session to the login form, and back to the page it asked for after signing in', async () => {
    const sandbox = await testSandbox({ adminToken: TOKEN });
    const asked = await page(sandbox, '/console/sessions?namespace=qa', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe('/console/login?next=%2Fconsole%2Fsessions%3Fnamespace%3Dqa');
    const form = await page(sandbox, asked.location as string);
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="next" value="/console/sessions?namespace=qa"');
    expect(form.html).toContain('type="password" name="token"');
    // Non-browser clients keep the JSON 401.
    expect((await page(sandbox, '/console')).status).toBe(401);

    const wrong = await page(sandbox, '/console/login', {
      method: 'POST',
      body: new URLSearchParams({ token: 'nope', next: '/console/sessions?namespace=qa' }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('That is not the admin token');
    expect(wrong.cookie).toBeNull();

    const login = await page(sandbox, '/console/login', {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN, next: '/console/sessions?namespace=qa' }),
    });
    expect(login.status).toBe(303);
    expect(login.location).toBe('/console/sessions?namespace=qa');
    expect(login.cookie).toMatch(/^idv_sandbox_session=[^;]+\.admin\.[^;]+;.*HttpOnly/);
    expect(login.cookie).toMatch(/SameSite=Strict/);
    expect(login.cookie).not.toContain(TOKEN);
    const signedIn = await page(sandbox, '/console/sessions?namespace=qa', {
      headers: { cookie: (login.cookie ?? '').split(';')[0] as string, accept: 'text/html' },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.html).toContain('idv-sandbox console');
  });

  it('never sends a login back to another site', async () => {
    const sandbox = await testSandbox({ adminToken: TOKEN });
    for (const next of ['https://evil.example/console', '//evil.example/console', '/consolexyz', '/\\evil.example', '/v1/sessions']) {
      const login = await page(sandbox, '/console/login', { method: 'POST', body: new URLSearchParams({ token: TOKEN, next }) });
      expect(login.location, next).toBe('/console');
    }
  });
});

describe('console writes', () => {
  it('refuses every console write without the page’s CSRF token or from another site, changing nothing', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    const tab = await browse(sandbox);
    const cookie = ((await page(sandbox, '/console')).cookie ?? '').split(';')[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec((await page(sandbox, '/console', { headers: { cookie } })).html)?.[1] as string;
    const before = sandbox.platform.store.partition('default').dump();
    const writes: [string, Record<string, string>][] = [
      ['/console/clock?namespace=default', { advance: '1d' }],
      ['/console/reset?namespace=default', { confirm: 'default' }],
      ['/console/organizations/org_demo/balance?namespace=default', { balance: '7' }],
      ['/console/scenarios/server-error/activate?namespace=default', {}],
      [`/console/sessions/${created.body.id}/outcome?namespace=default`, { outcome: 'VERIFIED' }],
    ];
    for (const [path, fields] of writes) {
      const noToken = await page(sandbox, path, { method: 'POST', headers: { cookie }, body: new URLSearchParams(fields) });
      expect(noToken.status, path).toBe(403);
      const crossSite = await page(sandbox, path, {
        method: 'POST',
        headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        body: new URLSearchParams({ ...fields, csrf }),
      });
      expect(crossSite.status, path).toBe(403);
    }
    expect(sandbox.platform.store.partition('default').dump()).toEqual(before);
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now).toBe(FROZEN_AT);
    expect(sandbox.platform.worlds.get().scenarios.isActive('server-error')).toBe(false);
    // The same forms with the token do act.
    expect((await tab.post(writes[3]?.[0] as string)).status).toBe(303);
    expect(sandbox.platform.worlds.get().scenarios.isActive('server-error')).toBe(true);
  });
});

describe('console overview', () => {
  it('shows the clock, organizations with masked keys and rate-limit use, namespaces, the latest sessions and requests', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'ci-worker-1' });
    const overview = await page(sandbox, '/console');
    expect(overview.status).toBe(200);
    expect(overview.html).toContain(FROZEN_AT);
    expect(overview.html).toContain('Demo Org');
    expect(overview.html).toContain('sk_live_••••mo');
    expect(overview.html).not.toContain('sk_live_demo');
    expect(overview.html).toContain('1 / 10000 today');
    expect(overview.html).toContain('href="/console?namespace=ci-worker-1"');
    expect(overview.html).toContain(`/console/sessions/${created.body.id}?namespace=default`);
    expect(overview.html).toContain('POST /v1/sessions');
  });

  it('moves the clock (advance, set, freeze) through the control plane’s verb, and refuses bad input without moving it', async () => {
    const sandbox = await testSandbox();
    const tab = await browse(sandbox);
    expect((await tab.post('/console/clock?namespace=default', { advance: '2h' })).location).toBe('/console?namespace=default');
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now).toBe('2026-01-15T11:30:00.000Z');
    await tab.post('/console/clock?namespace=default', { set: '2026-03-01T00:00:00Z' });
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now).toBe('2026-03-01T00:00:00.000Z');
    await tab.post('/console/clock?namespace=default', { freeze: 'false' });
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.mode).toBe('real');
    await tab.post('/console/clock?namespace=default', { freeze: 'true' });
    const before = (await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now;

    const refused = await tab.post('/console/clock?namespace=default', { advance: 'soon' });
    expect(decodeURIComponent(refused.location ?? '')).toContain('"soon" is not a duration');
    const badSet = await tab.post('/console/clock?namespace=default', { set: 'tomorrow' });
    expect(decodeURIComponent(badSet.location ?? '')).toContain('"tomorrow" is not an instant');
    expect((await sandbox.call('GET', '/__sandbox/clock', { key: null })).body.now).toBe(before);
    expect((await tab.get(refused.location as string)).html).toContain('role="alert"');
  });

  it('edits a balance, refusing anything but a whole number of tokens', async () => {
    const sandbox = await testSandbox();
    const tab = await browse(sandbox);
    expect((await sandbox.call('POST', '/v1/sessions', { body: JANE, key: 'sk_live_broke' })).status).toBe(402);
    await tab.post('/console/organizations/org_broke/balance?namespace=default', { balance: '25' });
    expect((await sandbox.call('POST', '/v1/sessions', { body: JANE, key: 'sk_live_broke' })).status).toBe(200);
    for (const balance of ['-1', '1.5', 'lots', '']) {
      const refused = await tab.post('/console/organizations/org_broke/balance?namespace=default', { balance });
      expect(decodeURIComponent(refused.location ?? ''), balance).toContain('is not a whole number of tokens');
    }
    const unknown = await tab.post('/console/organizations/org_nope/balance?namespace=default', { balance: '5' });
    expect(decodeURIComponent(unknown.location ?? '')).toContain('Unknown organization "org_nope"');
    expect(
      (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body.organizations.find((o: { id: string }) => o.id === 'org_broke').balance,
    ).toBe(24);
  });

  it('resets the namespace only when the confirmation names it', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'qa' });
    const tab = await browse(sandbox);
    const unconfirmed = await tab.post('/console/reset?namespace=qa');
    expect(decodeURIComponent(unconfirmed.location ?? '')).toContain('Nothing was reset');
    const wrongName = await tab.post('/console/reset?namespace=qa', { confirm: 'default' });
    expect(decodeURIComponent(wrongName.location ?? '')).toContain('Nothing was reset');
    expect((await sandbox.call('GET', '/v1/sessions', { namespace: 'qa' })).body.sessions).toHaveLength(1);
    const confirmed = await tab.post('/console/reset?namespace=qa', { confirm: 'qa' });
    expect(decodeURIComponent(confirmed.location ?? '')).toContain('notice=Namespace qa is back to the fixtures');
    expect((await sandbox.call('GET', '/v1/sessions', { namespace: 'qa' })).body.sessions).toHaveLength(0);
  });

  it('shows records, size, the oldest write and the retention per namespace, and purges on demand', async () => {
    const sandbox = await testSandbox({ retentionDays: 3 });
    // The session, its organization's balance and its e-mail invitation in the outbox.
    await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'qa' });
    const tab = await browse(sandbox);
    const storage = await tab.get('/console/storage?namespace=qa');
    expect(storage.status).toBe(200);
    expect(storage.html).toMatch(
      /<td><a href="\/console\?namespace=qa">qa<\/a><\/td><td>3<\/td><td>[\d.]+ KiB<\/td>\s*<td>2026-01-15T09:30:00.000Z<\/td><td>3 days<\/td>/,
    );
    expect(storage.html).toContain('<div><code>outbox</code> 1</div>');
    await sandbox.call('POST', '/__sandbox/clock', { key: null, namespace: 'qa', body: { advance: '4d' } });
    const purged = await tab.post('/console/storage/purge?namespace=qa');
    expect(decodeURIComponent(purged.location ?? '')).toContain('notice=Purged what retention drops.');
    expect((await tab.get('/console/storage?namespace=default')).html).not.toContain('>qa</a>');
  });
});

describe('console sessions', () => {
  it('offers exactly the moves the state machine allows, drives them with the control plane’s service, and shows refusals', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, redirectUrl: 'https://app.example/done' } });
    const id = created.body.id as string;
    const adminLink = new URL(created.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href);
    const tab = await browse(sandbox);
    const pending = await tab.get(adminLink.pathname + adminLink.search);
    expect(pending.status).toBe(200);
    expect(buttonsOf(pending.html)).toEqual(['SUBMITTED', 'VERIFIED', 'REJECTED', 'VOIDED', 'FAILED', 'abandoned', 'expired']);
    expect(pending.html).toContain('jane.doe@example.com');
    expect(pending.html).toContain(
      `/verify/${id}?oid=org_demo&amp;redirect_url=${encodeURIComponent('https://app.example/done')}&amp;token=${sandbox.pageToken(id)}`,
    );

    await tab.post(`/console/sessions/${id}/outcome?namespace=default`, { outcome: 'SUBMITTED' });
    const submitted = await tab.get(`/console/sessions/${id}?namespace=default`);
    expect(buttonsOf(submitted.html)).toEqual(['VERIFIED', 'REJECTED', 'VOIDED']);
    expect(submitted.html).toContain('submitted by the applicant');
    expect(submitted.html).toContain('applicantSubmission');

    const verified = await tab.post(`/console/sessions/${id}/outcome?namespace=default`, { outcome: 'VERIFIED' });
    expect(verified.location).toBe(`/console/sessions/${id}?namespace=default`);
    expect((await sandbox.call('GET', `/v1/sessions/${id}`)).body.session_record.status).toBe('VERIFIED');
    const terminal = await tab.get(`/console/sessions/${id}?namespace=default`);
    expect(buttonsOf(terminal.html)).toEqual([]);
    expect(terminal.html).toContain('VERIFIED is terminal');
    expect(terminal.html).toContain(`GET /v1/sessions/${id} → 200`);

    const refused = await tab.post(`/console/sessions/${id}/outcome?namespace=default`, { outcome: 'VOIDED' });
    expect(decodeURIComponent(refused.location ?? '')).toContain(`Session ${id} is VERIFIED (terminal); it cannot move to VOIDED`);
    const unknown = await tab.post(`/console/sessions/${id}/outcome?namespace=default`, { outcome: 'APPROVED' });
    expect(decodeURIComponent(unknown.location ?? '')).toContain('Unknown outcome "APPROVED"');
    expect((await sandbox.call('GET', `/v1/sessions/${id}`)).body.session_record.status).toBe('VERIFIED');
  });

  it('sets and removes a workflow session’s attempt script, which then decides the step, and shows a script that does not parse as the problem', async () => {
    const sandbox = await testSandbox();
    const id = await hostedSession(sandbox, ['DOCUMENT_UPLOAD']);
    const plain = (await sandbox.call('POST', '/v1/sessions', { body: JANE })).body.id as string;
    const tab = await browse(sandbox);
    const detail = `/console/sessions/${id}?namespace=default`;
    const script = `/console/sessions/${id}/attempt-script?namespace=default`;
    expect((await tab.get(detail)).html).toContain('<input id="attempt-script" name="script" size="70" value="">');
    expect((await tab.get(`/console/sessions/${plain}?namespace=default`)).html).not.toContain('Attempt script');

    const bad = await tab.post(script, { script: 'DOCUMENT_UPLOAD=maybe' });
    expect(decodeURIComponent(bad.location ?? '')).toContain('problem=Invalid request: script does not parse');
    expect((await tab.get(detail)).html).toContain('name="script" size="70" value=""');

    const set = await tab.post(script, { script: 'DOCUMENT_UPLOAD=DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED' });
    expect(decodeURIComponent(set.location ?? '')).toContain('notice=Attempt script set');
    expect((await tab.get(detail)).html).toContain('value="DOCUMENT_UPLOAD=DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED"');
    const keys = await uploadToSession(sandbox, id, { id_front: 'passport.jpg' });
    const scripted = await submit(sandbox, id, 'DOCUMENT_UPLOAD', { uploads: { document: keys.id_front } });
    expect(scripted.body).toMatchObject({ step_status: 'IN_PROGRESS', failure: { code: 'DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED' } });

    await tab.post(script, { script: '' });
    expect((await tab.get(detail)).html).toContain('name="script" size="70" value=""');
    expect((await submit(sandbox, id, 'DOCUMENT_UPLOAD', { uploads: { document: keys.id_front } })).body.step_status).toBe('COMPLETED');
  });

  it('offers only VOIDED on an expired session', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    const tab = await browse(sandbox);
    await tab.post(`/console/sessions/${created.body.id}/outcome?namespace=default`, { outcome: 'expired' });
    expect(buttonsOf((await tab.get(`/console/sessions/${created.body.id}?namespace=default`)).html)).toEqual(['VOIDED']);
  });

  it('computes the buttons from the machine so that each offered move succeeds and each withheld one is refused', () => {
    const base = {
      id: 's',
      organization_id: 'o',
      user_id: 'u',
      sender_user_id: 'x',
      type: 'session',
      session_progress: 'PENDING',
      created_at: FROZEN_AT,
      updated_at: FROZEN_AT,
    } as const;
    const now = Date.parse(FROZEN_AT);
    const user = { first_name: 'Jane', last_name: 'Doe' };
    for (const status of SESSION_STATUSES) {
      for (const expires_at of [undefined, '2026-01-15T09:00:00.000Z', '2026-01-16T09:00:00.000Z']) {
        const record = { ...base, status, ...(expires_at ? { expires_at } : {}) } as SessionRecord;
        for (const autoDecline of [false, true]) {
          const legal = legalControlOutcomes(record, now, autoDecline);
          for (const outcome of CONTROL_OUTCOMES) {
            const result = applyControlOutcome(record, { outcome }, { nowIso: FROZEN_AT, user, autoDecline });
            expect(result.ok, `${status} ${expires_at} ${outcome} autoDecline=${autoDecline}`).toBe(legal.includes(outcome));
          }
        }
      }
    }
  });

  it('filters and pages the sessions table', async () => {
    const sandbox = await testSandbox();
    for (let n = 0; n < 27; n += 1) {
      await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, externalId: `cust-${n}` } });
      sandbox.clock.advance(60_000);
    }
    await sandbox.call('POST', '/v1/sessions', { body: JANE, key: 'sk_live_other' });
    const tab = await browse(sandbox);
    const first = await tab.get('/console/sessions?namespace=default');
    expect(first.html).toContain('28 sessions, newest first · page 1 of 2');
    expect(first.html.match(/<tr><td><a href="\/console\/sessions\//g)).toHaveLength(25);
    expect(first.html).toContain('rel="next"');
    const second = await tab.get('/console/sessions?namespace=default&page=2');
    expect(second.html.match(/<tr><td><a href="\/console\/sessions\//g)).toHaveLength(3);
    expect(second.html).toContain('cust-0');

    expect((await tab.get('/console/sessions?namespace=default&organization=org_other')).html).toContain('1 session, newest first');
    const byExternal = await tab.get('/console/sessions?namespace=default&external_id=cust-5');
    expect(byExternal.html).toContain('1 session, newest first');
    expect(byExternal.html).toContain('cust-5');
    expect((await tab.get('/console/sessions?namespace=default&status=VERIFIED')).html).toContain('No sessions match.');
    expect((await tab.get('/console/sessions?namespace=default&status=PENDING&type=session&created_from=2026-01-15&created_to=2026-01-15')).html).toContain(
      '28 sessions',
    );
    expect((await tab.get('/console/sessions?namespace=default&created_from=2026-01-16')).html).toContain('0 sessions');
  });

  it('answers 404 pages for records that are not in the namespace', async () => {
    const sandbox = await testSandbox();
    const session = await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'ci-worker-3' });
    const link = new URL(session.body.links.find((l: { rel: string }) => l.rel === 'admin_console').href);
    expect(link.search).toBe('?namespace=ci-worker-3');
    expect((await page(sandbox, link.pathname + link.search)).status).toBe(200);
    expect((await page(sandbox, link.pathname)).status).toBe(404);
    expect((await page(sandbox, '/console/sessions/nope')).html).toContain('No session <code>nope</code>');
    expect((await page(sandbox, '/console/bank-statements/nope')).status).toBe(404);
    expect((await page(sandbox, '/console/requests/nope')).status).toBe(404);
  });
});

describe('console scenarios and requests', () => {
  it('toggles a scenario per namespace and shows how often its rules fired', async () => {
    const sandbox = await testSandbox();
    const tab = await browse(sandbox);
    await tab.post('/console/scenarios/server-error/activate?namespace=qa');
    expect((await sandbox.call('GET', '/v1/sessions', { namespace: 'qa' })).status).toBe(500);
    expect((await sandbox.call('GET', '/v1/sessions')).status).toBe(200);
    const shown = await tab.get('/console/scenarios?namespace=qa');
    expect(shown.html).toMatch(/id="scenario-server-error">[\s\S]*?badge on[\s\S]*?data-fires="server-error:0">1</);
    expect(shown.html).toContain('aria-label="Deactivate server-error"');
    const unknown = await tab.post('/console/scenarios/no-such/activate?namespace=qa');
    expect(decodeURIComponent(unknown.location ?? '')).toContain('Unknown scenario "no-such"');
    await tab.post('/console/scenarios/server-error/deactivate?namespace=qa');
    expect((await sandbox.call('GET', '/v1/sessions', { namespace: 'qa' })).status).toBe(200);
  });

  it('filters the journal by method, path, status, key and fired scenario, serves the live rows, and shows one request with its bodies and explanation', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/v1/sessions', { body: JANE });
    await sandbox.call('GET', '/v1/sessions', { key: 'sk_live_other' });
    await sandbox.call('GET', '/v1/sessions', { headers: { 'x-sandbox-scenario': 'rate-limited' } });
    const tab = await browse(sandbox);
    const rowsOf = (html: string) =>
      [...html.matchAll(/<code>(GET|POST) ([^<]+)<\/code><\/a><\/td><td><span class="badge [A-Z]+">(\d+)/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    expect(rowsOf((await tab.get('/console/requests?namespace=default')).html)).toEqual([
      'GET /v1/sessions 429',
      'GET /v1/sessions 200',
      'POST /v1/sessions 200',
    ]);
    expect(rowsOf((await tab.get('/console/requests?namespace=default&method=POST')).html)).toEqual(['POST /v1/sessions 200']);
    expect(rowsOf((await tab.get('/console/requests?namespace=default&status=429')).html)).toEqual(['GET /v1/sessions 429']);
    expect(rowsOf((await tab.get('/console/requests?namespace=default&key=sk_live_other')).html)).toEqual(['GET /v1/sessions 200']);
    expect(rowsOf((await tab.get('/console/requests?namespace=default&path=/v1/sess*&scenario=rate-limited')).html)).toEqual(['GET /v1/sessions 429']);
    const rows = await tab.get('/console/requests?namespace=default&method=POST&rows=1');
    expect(rows.html.startsWith('<tr>')).toBe(true);
    expect(rows.html).not.toContain('<html');

    const id = /href="\/console\/requests\/([^?]+)\?namespace=default"><code>POST/.exec(
      (await tab.get('/console/requests?namespace=default')).html,
    )?.[1] as string;
    const detail = await tab.get(`/console/requests/${id}?namespace=default`);
    expect(detail.html).toContain('jane.doe@example.com');
    expect(detail.html).toContain('session_url');
    expect(detail.html).toContain('key_live_demo');
  });
});

describe('console records of other areas', () => {
  it('opens the admin_console link of a bank statement', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/financial', { body: { ...JANE, phone: '+14155550123' }, namespace: 'ci-worker-3' });
    const link = new URL(created.body.links.find((l: { rel: string }) => l.rel === 'admin_console').href);
    expect(link.search).toBe('?namespace=ci-worker-3');
    const detail = await page(sandbox, link.pathname + link.search);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain(created.body.bankStatementId);
    expect(detail.html).toContain('<span class="badge PENDING">PENDING</span>');
    expect(detail.html).toMatch(
      /<h2>Status machine<\/h2><ol class="timeline"><li><code>2026-01-15T09:30:00.000Z<\/code> <span class="badge PENDING">PENDING<\/span> request created<\/li><\/ol>/,
    );
    expect(detail.html).toContain('Waiting for the applicant on the hosted page.');
    const id = created.body.bankStatementId;
    expect(detail.html).toContain(`/verify/bank-statements/${id}?token=${sandbox.pageToken(id, 'ci-worker-3')}&amp;namespace=ci-worker-3`);
  });

  it('lists workflows with headless sessions and their steps, bank statements, async jobs, the registry, AML enrolments and credit records', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const headless = await createHeadlessSession(sandbox, workflowId);
    const statement = await sandbox.call('POST', '/v1/financial', { body: { ...JANE, phone: '+14155550123' } });
    const job = await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: { input: { hello: 'console' } } });
    await sandbox.call('POST', '/v1/igaming/self-exclusion/identity', {
      body: { document_number: 'X1234567', reason: 'operator request', first_name: 'Jane', last_name: 'Doe' },
    });
    await sandbox.call('POST', '/v1/aml/bots/bot_daily/monitored-users', { body: { subject_user_id: 'cust_001' } });
    const tab = await browse(sandbox);

    const workflows = await tab.get('/console/workflows?namespace=default');
    expect(workflows.html).toContain(workflowId);
    expect(workflows.html).toMatch(new RegExp(`${headless}[\\s\\S]*?<code>ID_VERIFICATION</code> <span class="badge [A-Za-z_]+">`));
    expect((await tab.get('/console/bank-statements?namespace=default')).html).toContain(statement.body.bankStatementId);

    const pending = await tab.get('/console/jobs?namespace=default');
    expect(pending.html).toContain(`data-job-status="${job.body.jobId}"><span class="badge pending">pending</span>`);
    await tab.post('/console/clock?namespace=default', { advance: '5s' });
    const ready = await tab.get('/console/jobs?namespace=default');
    expect(ready.html).toContain(`data-job-status="${job.body.jobId}"><span class="badge ready">ready</span>`);
    expect(ready.html).toContain('&quot;hello&quot;: &quot;console&quot;');

    const registry = await tab.get('/console/registry?namespace=default');
    expect(registry.html).toContain('<code>X1234567</code> Jane Doe');
    expect(registry.html).toMatch(/<code>bot_daily<\/code>[\s\S]*?<code>cust_001<\/code> Alice Martin \(GB\)/);
    expect((await tab.get('/console/records?namespace=default')).status).toBe(200);
  });

  it('shows a session’s uploads as thumbnails served from the upload store', async () => {
    const sandbox = await testSandbox();
    const workflowId = await createWorkflow(sandbox);
    const id = await createHeadlessSession(sandbox, workflowId);
    await uploadToSession(sandbox, id, { selfie_front: 'face.jpg' });
    const tab = await browse(sandbox);
    const detail = await tab.get(`/console/sessions/${id}?namespace=default`);
    const src = /<img src="([^"]+)" alt="selfie_front upload"/.exec(detail.html)?.[1];
    expect(src).toBeDefined();
    const image = await sandbox.app.request((src as string).replaceAll('&amp;', '&'), { headers: { cookie: '' } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(0, 2)
        .toString('hex'),
    ).toBe('ffd8');
    expect((await tab.get(`/console/sessions/${id}/uploads/nope?namespace=default`)).status).toBe(404);
  });
});

describe('console outbox', () => {
  it('lists the messages with their links and text, filters them like the control plane, and empties the outbox', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, phone: '+14155550123' } });
    const tab = await browse(sandbox);
    const all = await tab.get('/console/outbox?namespace=default');
    expect(all.status).toBe(200);
    expect(all.html).toContain('aria-current="page">Outbox</a>');
    expect([...all.html.matchAll(/<tr id="(msg_\d+)"/g)].map((match) => match[1])).toEqual(['msg_00000002', 'msg_00000001']);
    expect(all.html).toContain(`<a href="${created.body.session_url.replaceAll('&', '&amp;')}">Open the page</a>`);
    expect(all.html).toContain('<summary>Verify your identity for Demo Org</summary>');

    const sms = await tab.get('/console/outbox?namespace=default&channel=sms&recipient=&session=');
    expect([...sms.html.matchAll(/<tr id="(msg_\d+)"/g)].map((match) => match[1])).toEqual(['msg_00000002']);
    const paged = await tab.get('/console/outbox?namespace=default&limit=1');
    const older = /href="([^"]+)" rel="next"/.exec(paged.html)?.[1]?.replaceAll('&amp;', '&') as string;
    expect([...(await tab.get(older)).html.matchAll(/<tr id="(msg_\d+)"/g)].map((match) => match[1])).toEqual(['msg_00000001']);

    const refused = await tab.get('/console/outbox?namespace=default&channel=fax');
    expect(refused.status).toBe(303);
    expect(decodeURIComponent(refused.location ?? '')).toContain('problem=channel must be "email" or "sms"');

    const cleared = await tab.post('/console/outbox/clear?namespace=default');
    expect(cleared.status).toBe(303);
    expect((await sandbox.call('GET', '/__sandbox/outbox', { key: null })).body.messages).toEqual([]);
    expect((await tab.get('/console/outbox?namespace=default')).html).toContain('No messages.');
  });
});
