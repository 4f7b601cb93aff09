/**
 * The coverage report in headless Chromium: the standalone HTML report (GET /__sandbox/coverage?format=html)
 * and the console's coverage page render, pass the contrast check, and offer each missed class's curl to copy.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastViolations, launchChromium, openSandbox, screenshot } from './chromium.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});

describe('the coverage report in a browser', { timeout: 180_000 }, () => {
  it('renders the HTML report and the console page, with a curl to copy for each missed class', async () => {
    const opened = await openSandbox(browser);
    const { sandbox, page } = opened;
    try {
      const answer = await fetch(`${sandbox.url}/v1/sessions/does-not-exist`, { headers: { 'x-api-key': 'sk_live_demo', 'x-sandbox-namespace': 'worker-1' } });
      expect(answer.status).toBe(404);

      await page.goto(`${sandbox.url}/__sandbox/coverage?format=html&namespace=worker-1`);
      expect(await page.title()).toBe('idv-sandbox coverage: namespace worker-1');
      expect(await page.locator('table.coverage-hit tbody tr').count()).toBe(1);
      expect(await page.locator('table.coverage-hit tbody tr td').first().textContent()).toBe('status GET /v1/sessions/{id} 404');
      expect(await contrastViolations(page), 'contrast of the HTML report').toEqual([]);
      await screenshot(page, 'coverage-report');

      await page.goto(`${sandbox.url}/console/coverage?namespace=worker-1`);
      expect(await contrastViolations(page), 'contrast of the console coverage page').toEqual([]);
      await page.getByText('status GET /v1/sessions/{id} 404').waitFor();
      const curl = page.getByRole('textbox', { name: 'curl for scenario rate-limited' });
      expect(await curl.inputValue()).toContain("-H 'X-Sandbox-Namespace: worker-1' -H 'X-Sandbox-Scenario: rate-limited'");
      // Copying selects the curl (and puts it on the clipboard where the browser allows).
      await page.getByRole('button', { name: 'Copy curl for scenario rate-limited' }).click({ timeout: 5000 });
      expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe('curl for scenario rate-limited');
      await screenshot(page, 'console-coverage');
      expect(opened.outside).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
