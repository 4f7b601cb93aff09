/**
 * The platform every area and the HTTP layer are handed: its services and settings, as types. The bottom
 * of the platform's layers (docs/ARCHITECTURE.md "Layers"): it imports neither Hono nor any area nor the
 * HTTP layer, only the types of the services it gathers, and none of those imports it back.
 */
import type { AdminSessions } from './admin/admin-sessions.ts';
import type { KeyRing } from './auth/organizations.ts';
import type { Catalog } from './catalog/catalog.ts';
import type { ConcurrencyGate } from './concurrency/concurrency-gate.ts';
import type { Coverage } from './coverage/coverage.ts';
import type { JobEngine } from './jobs/jobs.ts';
import type { Worlds } from './namespaces/world.ts';
import type { DeclaredOperations, ResponseRecorder } from './operations/declared-operations.ts';
import type { InvalidKeyLimiter } from './rate-limit/invalid-key-limiter.ts';
import type { Retention } from './retention/retention.ts';
import type { ScenarioFiles } from './scenarios/scenario-files.ts';
import type { ScenarioRegistry } from './scenarios/scenarios.ts';
import type { Store } from './store/store.ts';
import type { UploadStore } from './uploads/uploads.ts';

export interface PublicUrls {
  /** {base_url}: what links in responses use (`--public-url`). */
  base: string;
  /** {verify_url}: hosted applicant pages. */
  verify: string;
  /** {console_url}. */
  console: string;
  docs: string;
}

export function publicUrls(base: string): PublicUrls {
  return { base, verify: `${base}/verify`, console: `${base}/console`, docs: `${base}/docs` };
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** How request lines are written (`--log-format`). */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `--cors`: `*` for any origin, or the exact origins allowed. */
export type CorsSetting = '*' | string[];

/** The app's areas, each evaluated on first use (src/areas.ts). */
export interface AreaModules {
  /** Evaluates every area, in the order of src/modules.ts (once). */
  loadAll(): Promise<void>;
}

/**
 * A port: what an area needs of an area above it, declared by the lower area (an interface and a slot made
 * with declarePort) and provided by the upper one, so the dependency between the two points one way. Both
 * are data on the areas' entries (src/modules.ts: `needs`, `provides`): the area loader connects the ports an
 * area needs, loading their implementations, before that area's first request (src/areas.ts).
 */
export interface Port<T> {
  readonly name: string;
  provide(implementation: T): void;
  /** The implementation; a use before the area loader provided it is a wiring bug, not a request's fault. */
  get(): T;
}

export function declarePort<T>(name: string): Port<T> {
  let implementation: T | undefined;
  return {
    name,
    provide(next) {
      implementation = next;
    },
    get() {
      if (implementation === undefined)
        throw new Error(`The ${name} port was used before the area loader provided it: list it in the needs of the area that uses it (src/modules.ts).`);
      return implementation;
    },
  };
}

/** An area's side of a port an area below declared: its implementation, loaded on first need. */
export interface PortProvision<T = unknown> {
  port: Port<T>;
  load(): Promise<T>;
}

/** What the operator chose (the settings that are values, not services), read where they decide. */
export interface PlatformSettings {
  /** `--admin-token`: what the control plane and the console require; undefined = open to this machine's users. */
  adminToken: string | undefined;
  /** No --public-url: links are built on the request's own origin (see publicUrlsOf). */
  urlsFromRequestHost: boolean;
  /** `--cors`: origins allowed to call the API from a browser; undefined = no CORS headers. */
  cors: CorsSetting | undefined;
  /** `--log-requests`: one log line per request. */
  logRequests: boolean;
  /** `--log-format`: the request lines as text or as one JSON object each. */
  logFormat: LogFormat;
  /** `--strict-responses`: an answer that does not match its route's declared response becomes a 500. */
  strictResponses: boolean;
  /** Told of every answer the strict check passed (the test suite records the statuses it reached). */
  responseRecorder: ResponseRecorder | undefined;
}

export interface Platform {
  settings: PlatformSettings;
  store: Store;
  keyRing: KeyRing;
  scenarios: ScenarioRegistry;
  /** Where the scenarios come from, reloaded when they change. */
  scenarioFiles: ScenarioFiles;
  worlds: Worlds;
  /** `--retention` and each namespace's own limit: the background purge. */
  retention: Retention;
  jobs: JobEngine;
  /** The areas, evaluated on first use: what the catalog, coverage and the declared operations are filled from. */
  areas: AreaModules;
  catalog: Catalog;
  /** Integration coverage: the outcome classes and which of them each namespace's answers fell into. */
  coverage: Coverage;
  uploads: UploadStore;
  urls: PublicUrls;
  /** Signed console sessions (cookie and CSRF token). */
  adminSessions: AdminSessions;
  /**
   * Key of signatures that protect nothing secret (paging tokens, request ids): derived from the seed, so
   * runs repeat byte for byte.
   */
  signingSecret: string;
  /** The private secret (presigned upload URLs, hosted-page tokens): random, never derived from the seed. */
  secret: string;
  sleep(ms: number): Promise<void>;
  log: Logger;
  /** The documented operations (from the route table, their responses learnt as areas load): what scenario stubs are checked against. */
  operations: DeclaredOperations;
  /** Wrong API keys counted per client address, across namespaces. */
  invalidKeys: InvalidKeyLimiter;
  /** Wrong admin tokens (bearer header or console login) counted per client address. */
  adminTokenGuesses: InvalidKeyLimiter;
  /** The one gate every image operation passes (bounded parallelism and queue). */
  imageRequests: ConcurrencyGate;
  /** Run by close(): areas register what they must release (worker pools, timers). */
  closers: (() => Promise<void>)[];
}
