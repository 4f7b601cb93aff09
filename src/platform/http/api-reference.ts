/**
 * `/docs`: the interactive API reference (Swagger UI), served entirely by the sandbox from the installed
 * swagger-ui-dist package, so it renders on a machine with no internet. No asset comes from another
 * origin; the validator badge (which calls an external service) is off.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from './context.ts';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files the page loads, by the name it asks for them under /docs/assets/. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const page = (title: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <noscript>This reference needs JavaScript; the document itself is <a href="/openapi.json">/openapi.json</a>.</noscript>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
    <script src="/docs/assets/api-reference.js"></script>
  </body>
</html>
`;

/** Starts the UI on the sandbox's own document; a separate file, so the page needs no inline script. */
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

export function apiReferenceRouter(title: string) {
  const router = new Hono<AppEnv>();
  const cache = new Map<string, Buffer>();
  router.get('/docs', (c) => c.html(page(title)));
  router.get('/docs/assets/api-reference.js', (c) => c.body(INITIALIZER, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  router.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.json({ error: `No docs asset "${file}".` }, 404);
    let bytes = cache.get(file);
    if (!bytes) {
      bytes = await readFile(join(SWAGGER_UI_DIR, file));
      cache.set(file, bytes);
    }
    return c.body(new Uint8Array(bytes), 200, { 'content-type': type, 'cache-control': 'public, max-age=3600' });
  });
  return router;
}
