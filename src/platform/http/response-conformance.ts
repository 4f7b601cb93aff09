/**
 * `--strict-responses`: every answer of a documented route is checked against the response its route
 * declares for that status (the same zod schema /openapi.json documents). A mismatch — a body the schema
 * refuses, a key it does not declare, a status the route does not list, a JSON body where the route
 * declares none — is replaced by a 500 naming the operation, the status and the problem, and logged, so a
 * test that meets it fails. Off by default: a sandbox in front of an integrator keeps answering; the test
 * suite runs with it on.
 */
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { errorBody } from '../errors/api-error.ts';
import { DeclaredOperations, type RegistryDefinition, type ResponseRecorder, responseMismatch } from '../operations/declared-operations.ts';
import { errorFamilyOf, type AppEnv } from './context.ts';

/** Checks the answers of the documented operations. */
export class ResponseConformance {
  constructor(
    private readonly recorder?: ResponseRecorder,
    private readonly routes = new DeclaredOperations(),
  ) {}

  learn(definitions: readonly RegistryDefinition[]): void {
    this.routes.learn(definitions);
  }

  middleware() {
    return createMiddleware<AppEnv>(async (c, next) => {
      await next();
      const matched = matchedRoutes(c).find(({ method, path }) => this.routes.at(`${method} ${path}`) !== undefined);
      const route = matched && (await this.routes.declaredAt(`${matched.method} ${matched.path}`));
      if (!route || !c.res) return;
      const status = c.res.status;
      const contentType = c.res.headers.get('content-type') ?? '';
      let body: unknown;
      if (/^application\/json\b/i.test(contentType)) {
        const text = await c.res.clone().text();
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      // 507 is the platform's, on any route: the disk is full or the namespace limit is reached.
      if (status === 507) return;
      // A scenario's answer is the fault QA wrote (any status, any extras): only its status may count as reached.
      if (c.get('answeredByScenario')) {
        if (status in route.responses) this.recorder?.(route.operationId, status);
        return;
      }
      const problem = responseMismatch(route, status, contentType, body);
      if (problem === undefined) {
        this.recorder?.(route.operationId, status);
        return;
      }
      const message = `Response does not conform to the API contract: ${route.operationId} (${route.name}) answered ${status}: ${problem}.`;
      c.get('platform').log.error(message);
      c.res = undefined;
      c.res = c.json(errorBody(errorFamilyOf(c), message), 500);
    });
  }
}
