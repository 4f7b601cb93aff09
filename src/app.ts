/**
 * Builds the Hono app from a platform: one server, four faces (API, hosted pages, console, control
 * plane) plus the docs. No side effects on import; only the CLI listens.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { consoleGuard, controlPlaneGuard } from './platform/http/admin-guard.ts';
import { errorBody } from './platform/errors/api-error.ts';
import { RouteFamilies } from './platform/http/body-limits.ts';
import { limitImageConcurrency } from './platform/http/image-concurrency.ts';
import { publicUrlsOf, type AppEnv } from './platform/http/context.ts';
import type { Platform } from './platform/platform.ts';
import { apiReferenceRouter } from './platform/http/api-reference.ts';
import { readOperationExamples, withOperationExamples } from './platform/docs/openapi-examples.ts';
import { CORS_PATHS, corsMiddleware } from './platform/http/cors.ts';
import { requestContext } from './platform/http/middleware.ts';
import { KeptRoutes } from './platform/http/kept-routes.ts';
import { ResponseConformance } from './platform/http/response-conformance.ts';
import { loadStubbedOperations, refuseUnparseableStubs } from './platform/scenarios/stub-answers.ts';
import { requestLogLines } from './platform/http/request-log-line.ts';
import { allowedMethods } from './platform/http/method-not-allowed.ts';
import { handleError } from './platform/http/routing.ts';
import { type AreaLoader, routesOf, tableOperations } from './areas.ts';
import { AREAS } from './modules.ts';

export const API_VERSION = '0.1.0';

/** A platform whose areas are loaded by the app's stand-ins (what src/sandbox.ts builds). */
export type AppPlatform = Platform & { areas: AreaLoader };

/**
 * Readies an image thread (image-decoding.ts), whose module loads with the first image request rather than
 * at start. Its failure to load is the request's own, met on its path.
 */
const readyImageThread = () =>
  void import('./images/image-decoding.ts').then(
    ({ prepareImageThread }) => prepareImageThread(),
    () => undefined,
  );

export async function buildApp(platform: AppPlatform): Promise<OpenAPIHono<AppEnv>> {
  const app = new OpenAPIHono<AppEnv>({ router: new KeptRoutes() });

  const { cors, logRequests, strictResponses, responseRecorder } = platform.settings;
  if (cors) for (const path of CORS_PATHS) app.use(path, corsMiddleware(cors));
  if (logRequests) app.use('*', requestLogLines(platform));
  app.use('*', requestContext(platform));
  // Inside the request context, so the journal and the explain header see the 500 of a mismatch.
  const conformance = strictResponses ? new ResponseConformance(responseRecorder, platform.operations) : undefined;
  if (conformance) app.use('*', conformance.middleware());
  // Learnt below, once every route is mounted: which routes take images, hence their body limits and the
  // concurrency gate they pass.
  const families = new RouteFamilies();
  // The gate and, inside it, the body limit (which reads a chunked body whole, so within a slot); an image
  // request readies an image thread as it arrives.
  app.use('*', limitImageConcurrency(families, platform.imageRequests, readyImageThread));

  // One guard for every admin surface, whoever declares its routes ("/x/*" matches "/x" too).
  app.use('/__sandbox/*', controlPlaneGuard());
  app.use('/console/*', consoleGuard());

  // Every route, as a stand-in that evaluates its area on first use; what the start must know of them
  // (image routes, documented operations) is in the generated route table.
  families.learn(tableOperations().map(({ operation }) => operation));
  for (const area of AREAS) {
    for (const [index, [method, path]] of routesOf(area.name).routes.entries()) app.on(method, path, platform.areas.standIn(area.name, index));
  }

  // Stubs in scenario files answer for operations: a body their clients could not parse stops start-up
  // (the areas of the operations they answer for are loaded to check them).
  await loadStubbedOperations(platform.scenarios.all(), platform.operations);
  refuseUnparseableStubs(platform.scenarios.all(), platform.operations);

  // Generated once, on first request (from every area, loaded then); the server is the URL the client
  // used (or --public-url), so "try it" works through a port map.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/openapi.json', async (c) => {
    if (!document) {
      const documented = new OpenAPIHono<AppEnv>();
      for (const router of await platform.areas.routers()) documented.route('/', router);
      document = openApiDocument(documented);
    }
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

/** Loads every area of the platform's app (what a coverage report reads), when they are not yet. */
export async function loadAllAreas(platform: Platform): Promise<void> {
  await platform.areas.loadAll();
}

/** The OpenAPI document of an app holding every area's routes (their definitions, in mount order), with the security schemes and the recorded examples. */
export function openApiDocument(documented: OpenAPIHono<AppEnv>) {
  documented.openAPIRegistry.registerComponent('securitySchemes', 'ApiKeyAuth', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Organization API key. Fixture keys: sk_live_demo, sk_test_demo (sandbox), sk_live_other, sk_live_broke, sk_live_revoked.',
  });
  documented.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Only when the sandbox was started with --admin-token.',
  });
  return withOperationExamples(
    documented.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'idv-sandbox — identity verification and screening API (sandbox)',
        version: API_VERSION,
        description: 'A stateful sandbox of the identity-verification and screening API. /v1 is the API; /__sandbox is the control plane.',
      },
    }),
    readOperationExamples(),
  );
}
