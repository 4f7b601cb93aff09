/**
 * Request size per route family (413 before parsing): image operations keep room for their images (15 MB
 * each, as base64), every other route of /openapi.json, present and future, refuses a body over 1 MB.
 */
import { describe, expect, it } from 'vitest';
import { bodyLimitFor, SMALL_BODY_BYTES } from '../../src/platform/http/body-limits.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

/** The spec's image operations and how many images each takes. */
const IMAGE_ROUTES: Record<string, number> = {
  'POST /v1/document/scan': 1,
  'POST /v1/face/detect': 1,
  'POST /v1/face/compare': 2,
  'POST /v1/face/estimate-age': 1,
  'POST /v1/identity/verify': 2,
  'PUT /uploads/{id}': 1,
};

type Document = { paths: Record<string, Record<string, unknown>> };

async function operations(sandbox: TestSandbox): Promise<{ route: string; method: string; path: string }[]> {
  const document = (await sandbox.call('GET', '/openapi.json')).body as Document;
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.keys(methods).map((method) => ({
      route: `${method.toUpperCase()} ${template}`,
      method: method.toUpperCase(),
      path: template.replace(/\{[^}]+\}/g, 'x'),
    })),
  );
}

/** A JSON body of exactly `bytes` bytes. */
const jsonOf = (bytes: number) => `{"pad":"${'a'.repeat(bytes - 10)}"}`;

describe('request body limits per route family', () => {
  it('refuses a 16 MB JSON body on POST /v1/sessions with 413 before parsing it', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/sessions', { raw: jsonOf(16 * 1024 * 1024) });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe('Request body too large: POST /v1/sessions takes at most 1 MB (only image operations take more).');
  });

  it('gives every route of /openapi.json that is not an image operation the 1 MB limit', async () => {
    const sandbox = await testSandbox();
    const routes = (await operations(sandbox)).filter(({ route, method }) => IMAGE_ROUTES[route] === undefined && method !== 'GET');
    expect(routes.length).toBeGreaterThanOrEqual(25);
    for (const { route, method, path } of routes) {
      const over = await sandbox.call(method, path, { raw: jsonOf(SMALL_BODY_BYTES + 1), key: 'sk_live_demo' });
      expect(over.status, route).toBe(413);
      expect(over.body.error, route).toMatch(/takes at most 1 MB/);
      const under = await sandbox.call(method, path, { raw: jsonOf(SMALL_BODY_BYTES), key: 'sk_live_demo' });
      expect(under.status, route).not.toBe(413);
    }
  });

  it('gives each image operation room for its images, and no more', async () => {
    const sandbox = await testSandbox();
    const all = await operations(sandbox);
    const images = all.filter(({ route }) => IMAGE_ROUTES[route] !== undefined);
    expect(images.map(({ route }) => route).sort()).toEqual(Object.keys(IMAGE_ROUTES).sort());
    for (const { route, method, path } of images) {
      const limit = bodyLimitFor(IMAGE_ROUTES[route] ?? 0);
      expect(limit).toBeGreaterThanOrEqual((IMAGE_ROUTES[route] ?? 0) * Math.ceil((15 * 1024 * 1024) / 3) * 4);
      const over = await sandbox.call(method, path, { raw: jsonOf(limit + 1) });
      expect(over.status, route).toBe(413);
      expect(over.body.error, route).toMatch(/image/);
      expect(Array.isArray(over.body.hints), route).toBe(true);
      const under = await sandbox.call(method, path, { raw: jsonOf(SMALL_BODY_BYTES * 2) });
      expect(under.status, route).not.toBe(413);
    }
  }, 60_000);
});
