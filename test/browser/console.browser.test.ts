/**
 * The console and the applicant's hosted page in headless Chromium: the flows a QA engineer clicks
 * through (and the coverage report), checked against the API, every page's WCAG AA contrast computed by axe-core, and a screenshot
 * of each page in test-results/screenshots/. One browser for the file; a fresh sandbox and context per test.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type BrowserSandbox, contrastViolations, chromiumForFile, docsScreenshot, launchChromium, openSandbox, screenshot } from './chromium.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' };

const browser = chromiumForFile();

/** An API call the way an integrator's code makes it (not through the browser). */
async function api(sandbox: BrowserSandbox['sandbox'], method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': 'sk_live_demo', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Opens a page, checks its contrast and saves its screenshot. */
async function visit(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  expect(await contrastViolations(page), `contrast on ${name}`).toEqual([]);
  await screenshot(page, name);
}

async function withSandbox(run: (opened: BrowserSandbox) => Promise<void>, options = {}, fulfil = {}): Promise<void> {
  const opened = await openSandbox(browser(), options, fulfil);
  try {
    await run(opened);
    expect(opened.outside).toEqual([]);
  } finally {
    await opened.close();
  }
}

describe('the console in a browser', { timeout: 60_000 }, () => {
  it('fails, saying how to install it, when Chromium is missing', async () => {
    await expect(launchChromium('/nonexistent/chromium')).rejects.toThrow(/not there\. Install Debian's package: "sudo apt-get install -y chromium"/);
  });

  it('has a contrast check that catches faint text', async () => {
    const page = await browser().newPage();
    await page.setContent('<main><p style="color:#999;background:#fff">faint caption</p><p style="color:#1d2330">legible</p></main>');
    const violations = await contrastViolations(page);
    await page.close();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('contrast of 2.84');
  });

  it('toggles a scenario, and the next API call answers accordingly', () =>
    withSandbox(async ({ sandbox, page }) => {
      await visit(page, `${sandbox.url}/console/scenarios`, 'console-scenarios');
      await page.getByRole('button', { name: 'Activate server-error' }).click();
      await page.getByRole('button', { name: 'Deactivate server-error' }).waitFor();
      expect((await api(sandbox, 'GET', '/v1/sessions')).status).toBe(500);
      await page.reload();
      expect(await page.locator('[data-fires="server-error:0"]').textContent()).toBe('1');
      await page.getByRole('button', { name: 'Deactivate server-error' }).click();
      await page.getByRole('button', { name: 'Activate server-error' }).waitFor();
      expect((await api(sandbox, 'GET', '/v1/sessions')).status).toBe(200);
    }));

  it('drives a session to VERIFIED from its page, as GET /v1/sessions/{id} then reports', () =>
    withSandbox(async ({ sandbox, page }) => {
      const created = await api(sandbox, 'POST', '/v1/sessions', JANE);
      const adminLink = created.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href as string;
      await visit(page, adminLink, 'console-session-pending');
      await docsScreenshot(page, 'console-session');
      await page.locator('button[data-outcome="VERIFIED"]').click();
      await page.getByText('VERIFIED is terminal').waitFor();
      expect(await page.locator('button[data-outcome]').count()).toBe(0);
      await screenshot(page, 'console-session-verified');
      expect((await api(sandbox, 'GET', `/v1/sessions/${created.body.id}`)).body.session_record.status).toBe('VERIFIED');
      await visit(page, `${sandbox.url}/console/sessions`, 'console-sessions');
      await visit(page, `${sandbox.url}/console/requests`, 'console-requests');
      // The journal refreshes itself: a call made after the page loaded appears without a reload.
      await api(sandbox, 'GET', '/v1/sessions?limit=3');
      await page.locator('#journal-rows').getByText('GET /v1/sessions', { exact: true }).first().waitFor();
      expect(await page.locator('#journal-rows tr').count()).toBe(3);
    }));

  it("wraps a rejected session's meta_data and analysis inside their panels, however long their lines", () =>
    withSandbox(async ({ sandbox, page }) => {
      const created = await api(sandbox, 'POST', '/v1/sessions', JANE);
      expect((await api(sandbox, 'POST', `/__sandbox/sessions/${created.body.id}/outcome`, { outcome: 'REJECTED' }, { 'x-api-key': '' })).status).toBe(200);
      const adminLink = created.body.links.find((link: { rel: string }) => link.rel === 'admin_console').href as string;
      await visit(page, adminLink, 'console-session-rejected');
      const metaData = page.locator('section.card', { has: page.getByRole('heading', { name: 'meta_data' }) });
      expect(await metaData.locator('pre').textContent()).toContain('"applicantSubmissionLocation": "Chicago, Illinois, United States"');
      // Long lines wrap: no JSON panel hides text past its right edge.
      for (const block of await page.locator('pre').all()) {
        expect(await block.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      }
    }));

  it('advances the clock from the overview and a pending async job becomes ready', () =>
    withSandbox(async ({ sandbox, page }) => {
      const job = await api(sandbox, 'POST', '/__sandbox/jobs', { input: { from: 'browser' } }, { 'x-api-key': '' });
      expect(job.status).toBe(201);
      await visit(page, `${sandbox.url}/console/jobs`, 'console-jobs-pending');
      expect(await page.locator(`[data-job-status="${job.body.jobId}"]`).textContent()).toBe('pending');
      await visit(page, `${sandbox.url}/console`, 'console-overview');
      await docsScreenshot(page, 'console-overview');
      await page.getByLabel('Advance by').fill('5s');
      await page.getByRole('button', { name: 'Advance', exact: true }).click();
      await page.getByText('2026-01-15T09:30:05.000Z').waitFor();
      await visit(page, `${sandbox.url}/console/jobs`, 'console-jobs-ready');
      expect(await page.locator(`[data-job-status="${job.body.jobId}"]`).textContent()).toBe('ready');
      expect((await api(sandbox, 'GET', `/v1/async-jobs/${job.body.jobId}`)).body.status).toBe('ready');
      const statement = await api(sandbox, 'POST', '/v1/financial', {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane.doe@example.com',
        phone: '+14155550123',
      });
      await visit(page, statement.body.bankStatementUrl, 'hosted-bank-statement-page');
      for (const [path, name] of [
        ['/console/workflows', 'console-workflows'],
        ['/console/bank-statements', 'console-bank-statements'],
        ['/console/registry', 'console-registry'],
        ['/console/records', 'console-records'],
        ['/console/outbox', 'console-outbox'],
      ]) {
        await visit(page, `${sandbox.url}${path}`, name as string);
      }
    }));

  it('clicks through the applicant’s hosted page to the redirect with session_id and status', () =>
    withSandbox(
      async ({ sandbox, page }) => {
        const created = await api(sandbox, 'POST', '/v1/sessions', { ...JANE, redirectUrl: 'https://app.example/verified' });
        await visit(page, created.body.session_url, 'hosted-page');
        await page.getByRole('button', { name: /Finish verification/ }).click();
        await page.waitForURL(/^https:\/\/app\.example\/verified/);
        const landed = new URL(page.url());
        expect(landed.searchParams.get('session_id')).toBe(created.body.id);
        expect(landed.searchParams.get('status')).toBe('success');
        expect(landed.searchParams.has('reason')).toBe(false);
        expect((await api(sandbox, 'GET', `/v1/sessions/${created.body.id}`)).body.session_record.status).toBe('SUBMITTED');
      },
      {},
      { 'https://app.example': () => '<!doctype html><title>Integrator app</title><p>back in the app</p>' },
    ));

  it('logs in with the admin token and keeps a signed HttpOnly SameSite=Strict session, never the token', () =>
    withSandbox(
      async ({ sandbox, page, context }) => {
        await page.goto(`${sandbox.url}/console/scenarios`);
        expect(new URL(page.url()).pathname).toBe('/console/login');
        expect(await contrastViolations(page)).toEqual([]);
        await screenshot(page, 'console-login');
        await page.getByLabel('Admin token').fill('wrong');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('That is not the admin token').waitFor();
        await page.getByLabel('Admin token').fill('browser-admin-token');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(/\/console\/scenarios$/);
        await page.getByRole('heading', { name: 'Scenarios' }).waitFor();
        const [cookie] = await context.cookies();
        expect(cookie?.name).toBe('idv_sandbox_session');
        expect(cookie?.httpOnly).toBe(true);
        expect(cookie?.sameSite).toBe('Strict');
        expect(cookie?.value).not.toContain('browser-admin-token');
        await page.getByRole('button', { name: 'Activate slow' }).click();
        await page.getByRole('button', { name: 'Deactivate slow' }).waitFor();
      },
      { adminToken: 'browser-admin-token' },
    ));
});

// The coverage report: the standalone HTML report (GET /__sandbox/coverage?format=html) and the console's
// coverage page render, pass the contrast check, and offer each missed class's curl to copy.
describe('the coverage report in a browser', { timeout: 180_000 }, () => {
  it('opens on a summary per area with bars, folds the classes by area and operation, and gives a curl to copy for each missed class', async () => {
    await withSandbox(async ({ sandbox, page }) => {
      const worker = { 'x-sandbox-namespace': 'worker-1' };
      expect((await api(sandbox, 'GET', '/v1/sessions/does-not-exist', undefined, worker)).status).toBe(404);
      expect((await api(sandbox, 'POST', '/v1/sessions', JANE, worker)).status).toBe(200);
      expect((await api(sandbox, 'GET', '/v1/auth/verify', undefined, worker)).status).toBe(200);
      expect((await api(sandbox, 'POST', '/v1/screening/phone-trust', { phone: '+447700900003' }, worker)).status).toBe(200);

      await page.goto(`${sandbox.url}/__sandbox/coverage?format=html&namespace=worker-1`);
      expect(await page.title()).toBe('idv-sandbox coverage: namespace worker-1');
      expect(await page.locator('table.coverage-hit tbody tr').count()).toBe(5);
      expect(await page.locator('table.coverage-hit tbody tr td').first().textContent()).toBe('status GET /v1/auth/verify 200');
      expect(await page.getByRole('meter', { name: /^sessions: 2 of \d+ hit$/ }).count()).toBe(1);
      expect(await contrastViolations(page), 'contrast of the HTML report').toEqual([]);
      await screenshot(page, 'coverage-report');

      await visit(page, `${sandbox.url}/console/coverage?namespace=worker-1`, 'console-coverage');
      // The page opens on the summary: one row and one bar per area, every class folded away.
      const report = (await (await fetch(`${sandbox.url}/__sandbox/coverage?namespace=worker-1`)).json()) as { areas: { area: string }[] };
      expect(await page.locator('table.coverage-areas tbody tr').count()).toBe(report.areas.length);
      expect(await page.getByRole('meter').count()).toBe(report.areas.length);
      expect(await page.getByText('status GET /v1/sessions/{id} 404').isVisible()).toBe(false);
      await docsScreenshot(page, 'console-coverage');
      await page.locator('summary', { hasText: /^sessions: 2 of/ }).click();
      await page.locator('summary', { hasText: /^GET \/v1\/sessions\/\{id\}: 1 of/ }).click();
      await page.getByText('status GET /v1/sessions/{id} 404').waitFor();

      await page.locator('summary', { hasText: /^every operation: 0 of/ }).click();
      const curl = page.getByRole('textbox', { name: 'curl for scenario rate-limited' });
      expect(await curl.inputValue()).toContain("-H 'X-Sandbox-Namespace: worker-1' -H 'X-Sandbox-Scenario: rate-limited'");
      // Copying selects the curl (and puts it on the clipboard where the browser allows).
      await page.getByRole('button', { name: 'Copy curl for scenario rate-limited' }).click({ timeout: 5000 });
      expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe('curl for scenario rate-limited');
    });
  });
});
