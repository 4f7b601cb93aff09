/**
 * /docs in headless Chromium with no network beyond the sandbox: the interactive reference renders its
 * operations from the sandbox's own assets and /openapi.json (not a blank page), and a screenshot is saved.
 */
import { describe, expect, it } from 'vitest';
import { chromiumForFile, openSandbox, screenshot } from './chromium.ts';

const browser = chromiumForFile();

describe('/docs in a browser', { timeout: 90_000 }, () => {
  it('renders the API reference offline: operations visible, nothing fetched from elsewhere', async () => {
    const opened = await openSandbox(browser());
    try {
      const { page, sandbox } = opened;
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${sandbox.url}/docs`);
      const operations = page.locator('.opblock');
      await operations.first().waitFor({ timeout: 60_000 });
      expect(await operations.count()).toBeGreaterThan(50);
      await page.getByText('/v1/sessions/{id}', { exact: true }).first().waitFor();
      expect(await page.locator('.opblock-summary-method').first().textContent()).toMatch(/^(GET|POST|PUT|PATCH|DELETE)$/);
      await screenshot(page, 'docs');
      expect(errors).toEqual([]);
      expect(opened.outside).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
