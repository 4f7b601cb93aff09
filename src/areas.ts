/**
 * Areas evaluated on first use. A start mounts, for every route of src/routes.generated.ts, a stand-in
 * that on its first call imports the route's area (its schemas, routes and handlers)
 * and from then on runs the area's own handlers for that route, in the order Hono would
 * (validators, guard, handler), with the same error handling. What one area uses of another is declared
 * on its entry in src/modules.ts (job kinds, registered when the platform is built), never registered by
 * loading the other. Whatever reads every area (/openapi.json, the catalog, coverage reports) loads them
 * all, in the order of src/modules.ts.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Hono, MiddlewareHandler, Next } from 'hono';
import type { RouterRoute } from 'hono/types';
import { imagesInBody } from './platform/http/body-limits.ts';
import type { AppEnv } from './platform/http/context.ts';
import type { Platform } from './platform/platform.ts';
import type { AreaRoutes, OperationFacts } from './platform/operations/declared-operations.ts';
import type { AreaEntry, SandboxModule } from './platform/sandbox-module.ts';
import { AREAS } from './modules.ts';
import { ROUTE_TABLE } from './routes.generated.ts';

type Handler = RouterRoute['handler'];

/** An entry of an OpenAPI registry (routes, schemas, parameters…). */
interface RegistryDefinition {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: the registry's route config, read for facts only
  route?: any;
}

const definitionsOf = (router: Hono<AppEnv>): readonly RegistryDefinition[] =>
  (router as unknown as Partial<OpenAPIHono<AppEnv>>).openAPIRegistry?.definitions ?? [];

/** A router's routes as runs of handlers of one method and path, in registration order. */
function routeRuns(router: Hono<AppEnv>): { method: string; path: string; handlers: Handler[] }[] {
  const runs: { method: string; path: string; handlers: Handler[] }[] = [];
  for (const { method, path, handler } of router.routes) {
    const last = runs.at(-1);
    if (last && last.method === method && last.path === path) last.handlers.push(handler);
    else runs.push({ method, path, handlers: [handler] });
  }
  return runs;
}

/** An area's facts from its router: what the start mounts and learns instead of evaluating it. */
export function areaRoutesOf(module: SandboxModule): AreaRoutes {
  const router = module.router();
  const routes = routeRuns(router).map(({ method, path }): [string, string] => [method, path]);
  const operations = definitionsOf(router).flatMap((definition): OperationFacts[] => {
    const route = definition.type === 'route' ? definition.route : undefined;
    if (!route) return [];
    return [
      {
        method: String(route.method).toUpperCase(),
        path: route.path,
        ...(route.operationId === undefined ? {} : { operationId: route.operationId }),
        apiKey: ((route.security ?? []) as Record<string, unknown>[]).some((requirement) => 'ApiKeyAuth' in requirement),
        images: imagesInBody(route.request?.body?.content),
      },
    ];
  });
  return { routes, operations };
}

/** Every area's facts, evaluating them all (what `npm run generate:routes` writes, and what a test compares). */
export async function evaluatedRouteTable(): Promise<Record<string, AreaRoutes>> {
  const modules = await Promise.all(AREAS.map((area) => area.load()));
  return Object.fromEntries(modules.map((module) => [module.name, areaRoutesOf(module)]));
}

/** The facts of an area in the generated table (a missing one means the table is stale). */
export function routesOf(area: string): AreaRoutes {
  const routes = ROUTE_TABLE[area];
  if (!routes) throw new Error(`src/routes.generated.ts has no area "${area}": run npm run generate:routes.`);
  return routes;
}

interface LoadedArea {
  module: SandboxModule;
  router: Hono<AppEnv>;
  /** The handlers of each entry of the area's route table. */
  runs: Handler[][];
}

/** An error handler, as the app's onError. */
type ErrorHandler = (error: Error, c: Context<AppEnv>) => Response | Promise<Response>;

/** The areas of one app: loaded once each, on first use. */
export class AreaLoader {
  private readonly loaded = new Map<string, LoadedArea>();
  private readonly loading = new Map<string, Promise<LoadedArea>>();
  private all: Promise<void> | undefined;
  /** Called with each area as it is loaded (its definitions), before its first request runs. */
  onLoad: (definitions: readonly RegistryDefinition[]) => void = () => undefined;
  /** Called once every area is loaded and set up, with every definition in mount order. */
  onAll: (definitions: readonly RegistryDefinition[]) => void = () => undefined;

  constructor(
    private readonly platform: Platform,
    private readonly areas: readonly AreaEntry[] = AREAS,
  ) {}

  entry(name: string): AreaEntry {
    const area = this.areas.find((candidate) => candidate.name === name);
    if (!area) throw new Error(`no area named ${name}`);
    return area;
  }

  isLoaded(name: string): boolean {
    return this.loaded.has(name);
  }

  /** The area, imported on the first call. */
  load(name: string): Promise<LoadedArea> {
    let loading = this.loading.get(name);
    if (!loading) {
      loading = this.evaluate(this.entry(name));
      this.loading.set(name, loading);
    }
    return loading;
  }

  private async evaluate(area: AreaEntry): Promise<LoadedArea> {
    const module = await area.load();
    const router = module.router();
    const table = routesOf(area.name).routes;
    const runs = routeRuns(router);
    if (runs.length !== table.length || runs.some(({ method, path }, i) => table[i]?.[0] !== method || table[i]?.[1] !== path)) {
      throw new Error(`src/routes.generated.ts is stale (area ${area.name}): run npm run generate:routes.`);
    }
    this.onLoad(definitionsOf(router));
    const loaded = { module, router, runs: runs.map((run) => run.handlers) };
    this.loaded.set(area.name, loaded);
    return loaded;
  }

  /** Every area, loaded in the order of the list; then their set-up (catalog rows, coverage sources) in that order. */
  loadAll(): Promise<void> {
    this.all ??= (async () => {
      const loaded: LoadedArea[] = [];
      for (const area of this.areas) loaded.push(await this.load(area.name));
      for (const { module } of loaded) module.setup?.(this.platform);
      this.onAll(loaded.flatMap(({ router }) => definitionsOf(router)));
    })();
    return this.all;
  }

  /** The routers of every area in mount order (for /openapi.json). */
  async routers(): Promise<Hono<AppEnv>[]> {
    await this.loadAll();
    return this.areas.map((area) => (this.loaded.get(area.name) as LoadedArea).router);
  }

  /**
   * The stand-in of one entry of an area's route table: the area's handlers of that entry, composed as
   * Hono composes a route's handlers (each `next` runs the following one, the last runs the app's next;
   * an Error thrown by one is answered by `onError` there, so that the handlers before it see an answer).
   * `first` is awaited before the route's first request (every area, for a route that reads what they all add).
   */
  standIn(name: string, index: number, onError: ErrorHandler, first: () => Promise<void> | undefined): MiddlewareHandler<AppEnv> {
    let handlers: Handler[] | undefined;
    const run = (c: Context<AppEnv>, next: Next) => runHandlers(handlers as Handler[], c, next, onError);
    return async (c, next) => {
      if (!handlers) {
        await first();
        handlers = (await this.load(name)).runs[index];
      }
      return run(c, next);
    };
  }
}

/** Hono's compose over one route's handlers, inside the stand-in's own dispatch (route index and params are the stand-in's, whose path is theirs). */
async function runHandlers(handlers: readonly Handler[], c: Context<AppEnv>, next: Next, onError: ErrorHandler): Promise<void> {
  let index = -1;
  const dispatch = async (i: number): Promise<void> => {
    if (i <= index) throw new Error('next() called multiple times');
    index = i;
    const handler = handlers[i];
    if (!handler) {
      await next();
      return;
    }
    let res: unknown;
    let isError = false;
    try {
      res = await handler(c, () => dispatch(i + 1));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      res = await onError(error, c);
      isError = true;
    }
    if (res && (c.finalized === false || isError)) c.res = res as Response;
  };
  await dispatch(0);
}
