/**
 * Areas evaluated on first use. A start mounts, for every route of src/routes.generated.ts, a stand-in
 * that on its first call imports the route's area (its schemas, routes and handlers)
 * and from then on runs the area's own handlers for that route, composed by Hono (validators, guard,
 * handler). What one area uses of another is declared on its entry in src/modules.ts (job kinds,
 * registered when the platform is built; the ports it needs, connected before its first request from the
 * entry that provides them), never registered by loading the other. What an area adds to
 * the platform's registries (catalog rows, coverage sources) is data on its module, its `capabilities`:
 * whatever reads them (the catalog, coverage reports, /openapi.json) loads every area first, in the order
 * of src/modules.ts, whichever request comes first.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono, MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import { imagesInBody } from './platform/http/body-limits.ts';
import { inOrder } from './platform/http/fast-paths.ts';
import type { AppEnv } from './platform/http/context.ts';
import type { AreaRoutes, OperationFacts } from './platform/operations/declared-operations.ts';
import type { Port, PortProvision } from './platform/platform.ts';
import type { AreaEntry, Capability, SandboxModule } from './platform/sandbox-module.ts';
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
  const decoding = new Set((module.capabilities ?? []).flatMap((capability) => capability.decodesImages ?? []));
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
        decodesImages: decoding.has(route.operationId),
      },
    ];
  });
  const unknown = [...decoding].filter((operationId) => !operations.some((operation) => operation.operationId === operationId));
  if (unknown.length > 0) throw new Error(`Area ${module.name} declares that ${unknown.join(', ')} decode images, but has no such operation.`);
  return { routes, operations };
}

/** Every area's facts, evaluating them all (what `npm run generate:routes` writes, and what a test compares). */
export async function evaluatedRouteTable(): Promise<Record<string, AreaRoutes>> {
  const modules = await Promise.all(AREAS.map((area) => area.load()));
  return Object.fromEntries(modules.map((module) => [module.name, areaRoutesOf(module)]));
}

/** The documented operations of every area in the generated table, in list order. */
export function tableOperations(areas: readonly AreaEntry[] = AREAS): { area: string; operation: OperationFacts }[] {
  return areas.flatMap((area) => routesOf(area.name).operations.map((operation) => ({ area: area.name, operation })));
}

/** The facts of an area in the generated table (a missing one means the table is stale). */
export function routesOf(area: string): AreaRoutes {
  const routes = ROUTE_TABLE[area];
  if (!routes) throw new Error(`src/routes.generated.ts has no area "${area}": run npm run generate:routes.`);
  return routes;
}

export interface LoadedArea {
  module: SandboxModule;
  router: Hono<AppEnv>;
  /** The handlers of each entry of the area's route table. */
  runs: Handler[][];
}

/** What the registries learn from areas: each one's definitions as it loads; every area once all are. */
export interface AreaListeners {
  /** Called with each area's definitions as it is loaded, before its first request runs. */
  loaded(definitions: readonly RegistryDefinition[]): void;
  /** Called once every area is loaded, with them in list order. */
  all(areas: readonly LoadedArea[]): void;
}

/** Each port the areas provide, with its provision; a port an area needs and none provides is a wiring bug. */
function portProviders(areas: readonly AreaEntry[]): Map<Port<unknown>, PortProvision> {
  const providers = new Map(areas.flatMap((area) => (area.provides ?? []).map((provision) => [provision.port, provision] as const)));
  for (const area of areas) {
    const missing = (area.needs ?? []).find((port) => !providers.has(port));
    if (missing) throw new Error(`Area ${area.name} needs the ${missing.name} port, which no area of src/modules.ts provides.`);
  }
  return providers;
}

/** The areas of one app: loaded once each, on first use, with the ports each needs connected. */
export class AreaLoader {
  private readonly loaded = new Map<string, LoadedArea>();
  private readonly loading = new Map<string, Promise<LoadedArea>>();
  private readonly providers: Map<Port<unknown>, PortProvision>;
  private readonly connected = new Map<Port<unknown>, Promise<void>>();
  private all: Promise<void> | undefined;

  constructor(
    private readonly areas: readonly AreaEntry[] = AREAS,
    private readonly listeners: AreaListeners = { loaded: () => undefined, all: () => undefined },
  ) {
    this.providers = portProviders(areas);
  }

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

  /** The ports, each provided once: its implementation loaded from the area that provides it. */
  private async connect(ports: readonly Port<unknown>[]): Promise<void> {
    await Promise.all(
      ports.map((port) => {
        let connecting = this.connected.get(port);
        if (!connecting) {
          connecting = (this.providers.get(port) as PortProvision).load().then((implementation) => port.provide(implementation));
          this.connected.set(port, connecting);
        }
        return connecting;
      }),
    );
  }

  private async evaluate(area: AreaEntry): Promise<LoadedArea> {
    const [module] = await Promise.all([area.load(), this.connect(area.needs ?? [])]);
    const router = module.router();
    const table = routesOf(area.name).routes;
    const runs = routeRuns(router);
    if (runs.length !== table.length || runs.some(({ method, path }, i) => table[i]?.[0] !== method || table[i]?.[1] !== path)) {
      throw new Error(`src/routes.generated.ts is stale (area ${area.name}): run npm run generate:routes.`);
    }
    this.listeners.loaded(definitionsOf(router));
    const loaded = { module, router, runs: runs.map((run) => run.handlers) };
    this.loaded.set(area.name, loaded);
    return loaded;
  }

  /** Every area, loaded in the order of the list, then told to the listeners once. */
  loadAll(): Promise<void> {
    this.all ??= (async () => {
      const loaded: LoadedArea[] = [];
      for (const area of this.areas) loaded.push(await this.load(area.name));
      this.listeners.all(loaded);
    })();
    return this.all;
  }

  /** The routers of every area in mount order (for /openapi.json). */
  async routers(): Promise<Hono<AppEnv>[]> {
    await this.loadAll();
    return this.areas.map((area) => (this.loaded.get(area.name) as LoadedArea).router);
  }

  /**
   * The stand-in of one entry of an area's route table: the area's handlers of that entry, run as Hono runs
   * a route's handlers (`inOrder`: the stand-in's route index kept; an Error thrown by one reaches the
   * app's onError at the stand-in).
   */
  standIn(name: string, index: number): MiddlewareHandler<AppEnv> {
    let run: MiddlewareHandler<AppEnv> | undefined;
    // Not async once loaded: an async function returning the chain's promise costs every request two turns.
    return (c, next) =>
      run !== undefined
        ? run(c, next)
        : this.load(name).then((area) => {
            run ??= inOrder(area.runs[index] as MiddlewareHandler<AppEnv>[]);
            return run(c, next);
          });
  }
}

/** Every area's definitions, in list order. */
export const definitionsOfAll = (areas: readonly LoadedArea[]): RegistryDefinition[] => areas.flatMap(({ router }) => definitionsOf(router));

/**
 * The capabilities of the areas, in list order, each counted once (one listed by several areas, where it
 * is first listed).
 */
export function capabilitiesOf(areas: readonly LoadedArea[]): Capability[] {
  return [...new Set(areas.flatMap(({ module }) => module.capabilities ?? []))];
}
