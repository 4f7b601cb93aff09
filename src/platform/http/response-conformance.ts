/**
 * `--strict-responses`: every answer of a documented route is checked against the response its route
 * declares for that status (the same zod schema /openapi.json documents). A mismatch — a body the schema
 * refuses, a key it does not declare, a status the route does not list, a JSON body where the route
 * declares none — is replaced by a 500 naming the operation, the status and the problem, and logged, so a
 * test that meets it fails. Off by default: a sandbox in front of an integrator keeps answering; the test
 * suite runs with it on.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { z } from 'zod';
import { errorBody } from '../errors/api-error.ts';
import type { OperationFacts } from '../sandbox-module.ts';
import type { AppEnv } from './context.ts';

/** Called with each answer that conformed (the test suite records which statuses its tests reached). */
export type ResponseRecorder = (operationId: string, status: number) => void;

export interface DeclaredRoute {
  operationId: string;
  /** `GET /v1/sessions/{id}`. */
  name: string;
  responses: RouteConfig['responses'];
}

/** A documented operation, as its route declares it. */
export interface DeclaredOperation extends DeclaredRoute {
  method: string;
  /** The OpenAPI path template, `/v1/sessions/{id}`. */
  path: string;
  /** Behind the API-key guard (a /v1 operation), where scenario rules act. */
  apiKey: boolean;
}

/** An entry of the OpenAPI registry (routes, schemas, parameters…). */
interface RegistryDefinition {
  type: string;
  route?: RouteConfig;
}

interface DeclaredContent {
  schema?: unknown;
}

/**
 * The problem with one answer, or undefined when it conforms. Field paths are written after `bodyPath`
 * (a scenario stub names them from the top of the scenario it sits in).
 */
export function responseMismatch(route: DeclaredRoute, status: number, contentType: string, body: unknown, bodyPath = ''): string | undefined {
  const declared = route.responses[status] as { content?: Record<string, DeclaredContent> } | undefined;
  if (!declared) return `status ${status} is not declared (declared: ${Object.keys(route.responses).join(', ')})`;
  const content = declared.content ?? {};
  const isJson = /^application\/json\b/i.test(contentType);
  const json = content['application/json'];
  if (!isJson) {
    const type = contentType.split(';')[0]?.trim() ?? '';
    if (json && Object.keys(content).length === 1) return `the body is ${type || 'empty'}, the route declares application/json`;
    return undefined;
  }
  if (!json) return `the body is JSON, the route declares ${Object.keys(content).join(', ') || 'no body'}`;
  const schema = json.schema as z.ZodType | undefined;
  if (!schema || typeof schema.safeParse !== 'function') return undefined;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${[bodyPath.replace(/\.$/, ''), ...issue.path.map(String)].filter(Boolean).join('.') || '(body)'}: ${issue.message}`)
      .join('; ');
  }
  const extra = undeclaredKeys(body, parsed.data, bodyPath);
  if (extra.length > 0) return `undeclared key${extra.length > 1 ? 's' : ''} ${extra.slice(0, 5).join(', ')}`;
  return undefined;
}

/**
 * Keys of the body the schema dropped: zod objects strip what they do not declare, so a key in the body
 * and not in the parsed value is one the contract does not have (loose objects and records keep theirs).
 */
function undeclaredKeys(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((item, i) => undeclaredKeys(item, parsed[i], `${path}${i}.`));
  if (!isPlainObject(sent) || !isPlainObject(parsed)) return [];
  return Object.entries(sent).flatMap(([key, value]) => (key in parsed ? undeclaredKeys(value, parsed[key], `${path}${key}.`) : [`"${path}${key}"`]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path Hono routes on, as @hono/zod-openapi registers it: `{id}` → `:id`. */
export const routingKeyOf = (method: string, path: string) => `${method} ${path.replaceAll(/\/{(.+?)}/g, '/:$1')}`;

/**
 * The documented operations of an app: known from the route table when it is built, their declared
 * responses (zod schemas) learnt from each area's registry when the area is loaded.
 */
export class DeclaredOperations {
  private readonly byRoutingKey = new Map<string, DeclaredOperation>();
  private readonly areaOf = new Map<string, string>();
  /** The routing keys whose declared responses are known (their area is loaded). */
  private readonly learnt = new Set<string>();
  private loadAreas: (areas: string[]) => Promise<void> = async () => undefined;
  /** Loads every area (set by the app). */
  loadAll: () => Promise<void> = async () => undefined;

  /** The operations of the route table, in order, and how to load the areas that declare their responses. */
  know(operations: readonly { area: string; operation: OperationFacts }[], loadAreas: (areas: string[]) => Promise<void>): void {
    this.loadAreas = loadAreas;
    for (const { area, operation } of operations) {
      const { method, path, operationId, apiKey } = operation;
      if (operationId === undefined) continue;
      const key = routingKeyOf(method, path);
      this.areaOf.set(key, area);
      if (this.byRoutingKey.has(key)) continue;
      const name = `${method} ${path}`;
      this.byRoutingKey.set(key, {
        operationId,
        name,
        method,
        path,
        apiKey,
        get responses(): never {
          throw new Error(`The responses of ${name} were read before its area (${area}) was loaded.`);
        },
      });
    }
  }

  /** Loads the areas of these operations, so that their responses are known. */
  load(operations: readonly DeclaredOperation[]): Promise<void> {
    const areas = new Set(operations.flatMap((operation) => this.areaOf.get(routingKeyOf(operation.method, operation.path)) ?? []));
    return areas.size === 0 ? Promise.resolve() : this.loadAreas([...areas]);
  }

  learn(definitions: readonly RegistryDefinition[]): void {
    for (const { type, route } of definitions) {
      if (type !== 'route' || !route?.operationId) continue;
      const method = route.method.toUpperCase();
      const key = routingKeyOf(method, route.path);
      this.learnt.add(key);
      this.byRoutingKey.set(key, {
        operationId: route.operationId,
        name: `${method} ${route.path}`,
        responses: route.responses,
        method,
        path: route.path,
        apiKey: (route.security ?? []).some((requirement) => 'ApiKeyAuth' in requirement),
      });
    }
  }

  /** The operation Hono matched as `METHOD /routing/:path`. */
  at(routingKey: string): DeclaredOperation | undefined {
    return this.byRoutingKey.get(routingKey);
  }

  /**
   * The operation with its declared responses: its area is loaded first when no request has loaded it
   * (an answer given before the area's handlers ran: a rate limit, a body over the limit).
   */
  async declaredAt(routingKey: string): Promise<DeclaredOperation | undefined> {
    const area = this.areaOf.get(routingKey);
    if (area !== undefined && !this.learnt.has(routingKey)) await this.loadAreas([area]);
    return this.at(routingKey);
  }

  all(): DeclaredOperation[] {
    return [...this.byRoutingKey.values()];
  }
}

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
      c.res = c.json(errorBody(c.get('errorFamily') ?? 'default', message), 500);
    });
  }
}
