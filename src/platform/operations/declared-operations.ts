/**
 * The documented operations of an app and the responses their routes declare: what `--strict-responses`
 * checks answers against (http/response-conformance.ts), what scenario stubs are checked against and what
 * coverage names its classes by. Known from the generated route table at start-up, their schemas learnt
 * from each area's registry when the area is loaded.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import type { z } from 'zod';

/** What the start knows of a documented operation without evaluating its area. */
export interface OperationFacts {
  method: string;
  /** The OpenAPI path template, `/v1/sessions/{id}`. */
  path: string;
  operationId?: string;
  /** Behind the API-key guard (security ApiKeyAuth). */
  apiKey: boolean;
  /** Images its request body takes (binary parts), for its body limit and the image gate. */
  images: number;
  /** Decodes an image, however it came (the area's `decodesImages` capability): its first call starts the image engine. */
  decodesImages: boolean;
}

/** An area's facts, as src/routes.generated.ts holds them. */
export interface AreaRoutes {
  /** Its Hono routes in registration order, `[method, path]`, one entry per run of handlers of the same pair. */
  routes: readonly (readonly [string, string])[];
  operations: readonly OperationFacts[];
}

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
export interface RegistryDefinition {
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

  /**
   * The operations of the route table, in order, and how to load areas: those that declare some
   * operations' responses (which `learn` them), or every one.
   */
  constructor(
    operations: readonly { area: string; operation: OperationFacts }[] = [],
    private readonly areas: { load(names: string[]): Promise<void>; loadAll(): Promise<void> } = {
      load: async () => undefined,
      loadAll: async () => undefined,
    },
  ) {
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

  /** Loads every area (a scenario file's stubs are checked against every operation). */
  loadAll(): Promise<void> {
    return this.areas.loadAll();
  }

  /** Loads the areas of these operations, so that their responses are known. */
  load(operations: readonly DeclaredOperation[]): Promise<void> {
    const areas = new Set(operations.flatMap((operation) => this.areaOf.get(routingKeyOf(operation.method, operation.path)) ?? []));
    return areas.size === 0 ? Promise.resolve() : this.areas.load([...areas]);
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
    if (area !== undefined && !this.learnt.has(routingKey)) await this.areas.load([area]);
    return this.at(routingKey);
  }

  all(): DeclaredOperation[] {
    return [...this.byRoutingKey.values()];
  }
}
