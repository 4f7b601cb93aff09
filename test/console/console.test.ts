import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' };

async function page(sandbox: TestSandbox, path: string, init: RequestInit = {}) {
  const response = await sandbox.app.request(path, init);
  return { status: response.status, location: response.headers.get('location'), cookie: response.headers.get('set-cookie'), html: await response.text() };
}

/** Submits a console form as the browser would: the session cookie of the page it came from and the page's CSRF token. */
async function submit(sandbox: TestSandbox, formPage: string, action: string, fields: Record<string, string>) {
  const shown = await page(sandbox, formPage);
  const cookie = (shown.cookie ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(shown.html)?.[1] ?? '';
  return page(sandbox, action, { method: 'POST', headers: { cookie }, body: new URLSearchParams({ ...fields, csrf }) });
}

describe('QA console', () => {
  it('shows the clock, scenarios, organizations, sessions and recent requests of the namespace', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    const console = await page(sandbox, '/console');
    expect(console.status).toBe(200);
    expect(console.html).toContain('2026-01-15T09:30:00.000Z');
    expect(console.html).toContain('rate-limited');
    expect(console.html).toContain('Demo Org');
    expect(console.html).toContain(`/console/sessions/${created.body.id}?namespace=default`);
    expect(console.html).toContain('POST /v1/sessions');
  });

  it('opens the admin_console link of a session and drives it with a button, showing refusals', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    const adminLink = created.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href as string;
    const detail = await page(sandbox, new URL(adminLink).pathname);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain('Status: <strong>PENDING</strong>');
    expect(detail.html).toContain('jane.doe@example.com');

    const detailPath = new URL(adminLink).pathname;
    const verify = await submit(sandbox, detailPath, `/console/sessions/${created.body.id}/outcome?namespace=default`, { outcome: 'VERIFIED' });
    expect(verify.status).toBe(303);
    expect((await sandbox.call('GET', `/v1/sessions/${created.body.id}`)).body.session_record.status).toBe('VERIFIED');

    const refused = await submit(sandbox, detailPath, `/console/sessions/${created.body.id}/outcome?namespace=default`, { outcome: 'SUBMITTED' });
    const after = await page(sandbox, refused.location as string);
    expect(after.html).toMatch(/VERIFIED \(terminal\)/);
  });

  it('keeps a non-default namespace in the admin_console links, so they open the record in its namespace', async () => {
    const sandbox = await testSandbox();
    const session = await sandbox.call('POST', '/v1/sessions', { body: JANE, namespace: 'ci-worker-3' });
    const sessionLink = new URL(session.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href);
    expect(sessionLink.search).toBe('?namespace=ci-worker-3');
    expect((await page(sandbox, sessionLink.pathname + sessionLink.search)).status).toBe(200);
    expect((await page(sandbox, sessionLink.pathname)).status).toBe(404);

    const statement = await sandbox.call('POST', '/v1/financial', { body: { ...JANE, phone: '+14155550123' }, namespace: 'ci-worker-3' });
    const statementLink = new URL(statement.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href);
    expect(statementLink.search).toBe('?namespace=ci-worker-3');
    expect((await page(sandbox, statementLink.pathname + statementLink.search)).status).toBe(200);
  });

  it('opens the admin_console link of a bank statement, and answers 404 for unknown records', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/financial', { body: { ...JANE, phone: '+14155550123' } });
    const adminLink = created.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href as string;
    const detail = await page(sandbox, new URL(adminLink).pathname);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain(created.body.bankStatementId);
    expect(detail.html).toContain('Status: <strong>PENDING</strong>');
    expect((await page(sandbox, '/console/sessions/nope')).status).toBe(404);
    expect((await page(sandbox, '/console/bank-statements/nope')).status).toBe(404);
  });
});
