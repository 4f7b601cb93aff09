/**
 * Builds the Hono app from a platform: one server, four faces (API, hosted pages, console, control
 * plane) plus the docs. No side effects on import; only the CLI listens.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { consoleGuard, controlPlaneGuard } from './platform/admin/admin-guard.ts';
import { errorBody } from './platform/errors/api-error.ts';
import { RouteFamilies } from './platform/http/body-limits.ts';
import { limitImageConcurrency } from './platform/http/image-concurrency.ts';
import { publicUrlsOf, type AppEnv, type Platform } from './platform/http/context.ts';
import { apiReferenceRouter } from './platform/docs/api-reference.ts';
import { readOperationExamples, withOperationExamples } from './platform/docs/openapi-examples.ts';
import { CORS_PATHS, corsMiddleware } from './platform/http/cors.ts';
import { requestContext } from './platform/http/middleware.ts';
import { KeptRoutes } from './platform/http/kept-routes.ts';
import { ResponseConformance } from './platform/http/response-conformance.ts';
import { refuseUnparseableStubs } from './platform/scenarios/stub-answers.ts';
import { requestLogLines } from './platform/request-log/request-log-line.ts';
import { allowedMethods } from './platform/http/method-not-allowed.ts';
import { handleError } from './platform/http/routing.ts';
import { controlPlane } from './control/index.ts';
import { consoleRouter } from './console/console.router.ts';
import { MODULES } from './modules.ts';

export const API_VERSION = '0.1.0';

export function buildApp(platform: Platform): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ router: new KeptRoutes() });

  if (platform.cors) for (const path of CORS_PATHS) app.use(path, corsMiddleware(platform.cors));
  if (platform.logRequests) app.use('*', requestLogLines(platform));
  app.use('*', requestContext(platform));
  // Inside the request context, so the journal and the explain header see the 500 of a mismatch.
  const conformance = platform.strictResponses ? new ResponseConformance(platform.responseRecorder, platform.operations) : undefined;
  if (conformance) app.use('*', conformance.middleware());
  // Learnt below, once every route is mounted: which routes take images, hence their body limits and the
  // concurrency gate they pass.
  const families = new RouteFamilies();
  // The gate comes first: the body limit reads a chunked body whole, which must happen inside a slot.
  app.use('*', limitImageConcurrency(families, platform.imageRequests));
  app.use('*', families.bodyLimits());

  // One guard for every admin surface, whoever declares its routes ("/x/*" matches "/x" too).
  app.use('/__sandbox/*', controlPlaneGuard());
  app.use('/console/*', consoleGuard());

  for (const module of MODULES) {
    module.setup?.(platform);
    app.route('/', module.router(platform));
  }
  app.route('/', controlPlane(platform));
  app.route('/', consoleRouter);

  families.learn(app.openAPIRegistry.definitions);
  platform.operations.learn(app.openAPIRegistry.definitions);
  // Stubs in scenario files answer for operations: now that they are known, a body their clients could not parse stops start-up.
  refuseUnparseableStubs(platform.scenarios.all(), platform.operations);
  platform.coverage.learn(app.openAPIRegistry.definitions, readOperationExamples, {
    scenarios: platform.scenarios.all(),
    catalogEntries: (section) => platform.catalog.list(section),
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKeyAuth', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Organization API key. Fixture keys: sk_live_demo, sk_test_demo (sandbox), sk_live_other, sk_live_broke, sk_live_revoked.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Only when the sandbox was started with --admin-token.',
  });
  // Generated once, on first request (after every route is registered); the server is the URL the client
  // used (or --public-url), so "try it" works through a port map.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get('/openapi.json', (c) => {
    document ??= withOperationExamples(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'idv-sandbox — identity verification and screening API (sandbox)',
          version: API_VERSION,
          description: 'A stateful sandbox of the identity-verification and screening API. /v1 is the API; /__sandbox is the control plane.',
        },
      }),
      readOperationExamples(),
    );
    return c.json({ ...document, servers: [{ url: publicUrlsOf(c).base }] }, 200);
  });
  app.route('/', apiReferenceRouter('idv-sandbox API reference'));
  // Up while the disk is full: reads are served; `problem` says why writes are refused and what to do.
  app.get('/healthz', (c) => {
    const problem = platform.store.problem?.message ?? platform.store.compactionFailure;
    return c.json(problem ? { status: 'degraded', problem } : { status: 'ok' }, 200);
  });

  app.notFound((c) => {
    const allowed = allowedMethods(app.routes, c.req.path);
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return c.json(errorBody('default', `Method ${c.req.method} is not allowed on ${c.req.path}: use ${allowed.join(', ')}.`), 405);
    }
    return c.json(errorBody('default', `No route ${c.req.method} ${c.req.path}. The endpoints are listed at ${publicUrlsOf(c).docs}.`), 404);
  });
  app.onError(handleError);
  return app;
}
