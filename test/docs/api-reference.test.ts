import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

/** Every URL a page names in src/href attributes and CSS url(), as written. */
const referencedUrls = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"|url\(([^)]+)\)/g)].map((m) => (m[1] ?? m[2] ?? '').trim());

describe('/docs works offline', () => {
  it('serves the page and every asset it references from the app itself, none from another origin', async () => {
    const sandbox = await testSandbox();
    const page = await sandbox.app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    const urls = referencedUrls(html);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) {
      expect(url, `${url} must be a path on the sandbox`).toMatch(/^\/[^/]/);
      const asset = await sandbox.app.request(url);
      expect(asset.status, url).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
    }
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('starts the reference on /openapi.json with the external validator off', async () => {
    const sandbox = await testSandbox();
    const initializer = await (await sandbox.app.request('/docs/assets/api-reference.js')).text();
    expect(initializer).toContain("url: '/openapi.json'");
    expect(initializer).toContain('validatorUrl: null');
    const css = await (await sandbox.app.request('/docs/assets/swagger-ui.css')).text();
    expect(referencedUrls(css).filter((url) => /^(https?:)?\/\//.test(url))).toEqual([]);
  });

  it('answers 404 with a JSON error for an asset it does not serve', async () => {
    const sandbox = await testSandbox();
    const missing = await sandbox.app.request('/docs/assets/../../package.json');
    expect(missing.status).toBe(404);
    const unknown = await sandbox.app.request('/docs/assets/index.html');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No docs asset "index.html".' });
  });
});
