/**
 * `createSandbox(options)`: builds the platform (store, keys, scenarios, worlds, jobs), the app, and
 * optionally listens. Test suites use it in-process (`app.request()` works without a socket); the CLI
 * uses it to serve. Either way an area's modules are evaluated on its first request (src/areas.ts).
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener, type ServerType } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { buildApp, type AppPlatform } from './app.ts';
import { AreaLoader, capabilitiesOf, definitionsOfAll, tableOperations } from './areas.ts';
import { AREAS, declaredJobKinds, storedRecordShapes } from './modules.ts';
import { AdminSessions } from './platform/admin/admin-sessions.ts';
import { KeyRing, parseKeysEnv, readOrganizationsFile } from './platform/auth/organizations.ts';
import { Catalog, type CatalogSection } from './platform/catalog/catalog.ts';
import { Coverage } from './platform/coverage/coverage.ts';
import type { CoverageReport } from './platform/coverage/coverage-report.ts';
import { PLATFORM_SOURCES } from './platform/coverage/sources.ts';
import { parseClockSetting, systemTime, type ClockSetting, type VirtualClock } from './platform/clock/virtual-clock.ts';
import type { AppEnv } from './platform/http/context.ts';
import { publicUrls, type CorsSetting, type LogFormat, type Logger, type Platform } from './platform/platform.ts';
import { DEFAULT_JOB_TIMINGS, JobEngine, type JobTimings } from './platform/jobs/jobs.ts';
import { capConnections, DEFAULT_CONNECTION_LIMITS, serverOptionsFor, type ConnectionLimits } from './platform/http/connection-limits.ts';
import { drainable, type Drainable } from './platform/http/drain.ts';
import { answerOnceBodyArrived } from './platform/http/body-limits.ts';
import { ConcurrencyGate, DEFAULT_IMAGE_CONCURRENCY, type ConcurrencyLimits } from './platform/concurrency/concurrency-gate.ts';
import { DEFAULT_MAX_NAMESPACES, DEFAULT_NAMESPACE, Worlds } from './platform/namespaces/world.ts';
import { resetSandbox } from './platform/namespaces/reset.ts';
import { readOperationExamples } from './platform/docs/openapi-examples.ts';
import { answerParserRefusal, answerUnbuildableRequest } from './platform/http/parser-refusals.ts';
import { hashParts, loadFaker } from './platform/random/random.ts';
import { SPEC_RATE_LIMITS, type RateLimits } from './platform/rate-limit/rate-limiter.ts';
import { ADMIN_TOKEN_GUESSES_PER_MINUTE, DEFAULT_INVALID_KEYS_PER_MINUTE, InvalidKeyLimiter } from './platform/rate-limit/invalid-key-limiter.ts';
import { ScenarioRegistry } from './platform/scenarios/scenarios.ts';
import { ScenarioFiles } from './platform/scenarios/scenario-files.ts';
import { DEFAULT_REQUEST_LOG_LIMITS, type RequestLogLimits } from './platform/request-log/request-log.ts';
import { Retention } from './platform/retention/retention.ts';
import { Store } from './platform/store/store.ts';
import { loadSandboxSecret } from './platform/secrets/sandbox-secret.ts';
import { DeclaredOperations, type ResponseRecorder } from './platform/operations/declared-operations.ts';
import { FileBlobStore, MemoryBlobStore } from './platform/uploads/blob-store.ts';
import { UPLOADS_COLLECTION, UploadStore } from './platform/uploads/uploads.ts';
import { parseSmtpUrl, SmtpCourier } from './platform/outbox/smtp-courier.ts';
import type { ShadowOptions } from './drift/shadow.ts';

export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_DATA_FILE = '.data/idv-sandbox.json';
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5000;

export interface SandboxOptions {
  /** 0 picks a free port; `null` builds the app without listening. Default 4010. */
  port?: number | null;
  host?: string;
  /** JSON data file (default .data/idv-sandbox.json). Ignored with `memory`. */
  data?: string;
  memory?: boolean;
  seed?: number;
  /**
   * Pins the private secret that signs upload URLs and hosted-page tokens (`--secret`), for byte-identical
   * runs; default: random, kept beside the data file (per process with `memory`).
   */
  secret?: string;
  /** `real`, `frozen` or `frozen@<ISO>`, or a parsed setting. */
  clock?: string | ClockSetting;
  /** Scenarios active in every namespace from the start. */
  scenarios?: string[];
  rateLimit?: boolean;
  rateLimits?: Partial<RateLimits>;
  publicUrl?: string;
  adminToken?: string;
  /** `smtp://host:port`: outbox e-mails are also delivered there (`--smtp`). */
  smtp?: string;
  /** Organizations file (default fixtures/organizations.json). */
  organizationsFile?: string;
  /** More organizations files, merged in. */
  extraOrganizationsFiles?: string[];
  /** `key=org:kind,...` as in IDV_SANDBOX_API_KEYS. */
  apiKeys?: string;
  /** The shipped scenarios (default: the package's scenarios/). */
  scenariosDir?: string;
  /** User scenario directories, loaded beside the shipped one (`--scenarios-dir`). */
  extraScenariosDirs?: string[];
  /** Extra scenario files outside scenariosDir. */
  scenarioFiles?: string[];
  jobTimings?: Partial<JobTimings>;
  /** Namespaces kept at once (default 1000); past it a new one is refused with 507, none is evicted. */
  maxNamespaces?: number;
  /** Drop records not written for this many days on their namespace's clock (`--retention`); default: keep forever. */
  retentionDays?: number;
  /** Purge every minute in the background (default: when listening). */
  retentionSweep?: boolean;
  /** Start from a damaged data file: set aside what cannot be read, keeping a copy of every file changed. */
  repair?: boolean;
  /** Journal bounds per namespace (default 1,000 entries, 2 MiB, 16 KiB per body). */
  requestLog?: Partial<RequestLogLimits>;
  /** Wrong API keys one client address may send per minute before 429 (default 30; 0 = no limit). */
  invalidKeysPerMinute?: number;
  /** Image operations running at once and waiting (default 2 and 16); past both, 429 with Retry-After. */
  imageConcurrency?: Partial<ConcurrencyLimits>;
  /** Open connections and how long a request may take to arrive (default 1024, 256 per client address; 10 s headers, 60 s request, 5 s keep-alive). */
  connections?: Partial<ConnectionLimits>;
  /** Origins allowed to call the API from a browser (`*` for any); default: no CORS. */
  cors?: CorsSetting;
  /** One line per request through the logger. */
  logRequests?: boolean;
  /** The request lines as text (default) or as one JSON object each. */
  logFormat?: LogFormat;
  /** Check every answer of a documented route against its declared response; a mismatch becomes a 500 (default off). */
  strictResponses?: boolean;
  /** With strictResponses: told of each answer that conformed (operationId, status). */
  responseRecorder?: ResponseRecorder;
  /** How long close() lets in-flight requests finish before it cuts their connections (default 5000). */
  shutdownTimeoutMs?: number;
  /** Reload scenario files when they change on disk (default: when listening). */
  watchScenarios?: boolean;
  /** Record which outcome classes the answers fall into (default on; GET /__sandbox/coverage). */
  coverage?: boolean;
  /** Forward each /v1 request to an upstream and compare its answer with this sandbox's (`--shadow-upstream`; a listening sandbox only). */
  shadow?: ShadowOptions;
  /** How scenario latency waits; tests inject a recorder instead of real sleeping. */
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger;
}

export interface Sandbox {
  /**
   * Base URL of the socket, on loopback for a wildcard interface. A sandbox created with `port: null` has no
   * socket: reading it throws (a URL there would name a port some other process may serve).
   */
  readonly url: string;
  app: OpenAPIHono<AppEnv>;
  platform: Platform;
  /** The default namespace's clock. */
  clock: VirtualClock;
  /** Every namespace back to the fixtures (uploaded files too). */
  reset(seed?: number): Promise<void>;
  /** The integration-coverage report of every namespace together (or of one); it loads every area (its catalog is theirs). */
  coverage(namespace?: string): Promise<CoverageReport>;
  /**
   * Stops accepting, lets in-flight requests finish (`Connection: close`; idle keep-alive sockets closed;
   * the rest cut after `shutdownTimeoutMs`), then flushes and compacts the store and releases its lock.
   * Resolves to the coverage report of the run (every namespace); with `{ report: false }` to nothing,
   * sparing the evaluation of every area the report reads (a few hundred ms that no request needed).
   */
  close(): Promise<CoverageReport>;
  close(options: { report: false }): Promise<undefined>;
  /**
   * What close() does before it writes the store: stops accepting, lets in-flight requests finish ('cut'
   * when `shutdownTimeoutMs` passed and the rest were cut), and ends the background work (e-mail
   * deliveries, the scenario watcher, retention). close() runs this same drain: called first, it runs once.
   */
  drain(): Promise<'drained' | 'cut'>;
  /** Cuts every connection, flushes the store's journal and releases the lock, without compacting. */
  closeNow(): Promise<void>;
}

const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message, error) => console.error(message, error),
};

/**
 * The platform, built in one phase: every service with what it needs (the registries with the areas they
 * are filled from, links on the address it listens on). `listening`: the socket's URL, when it has one.
 */
export async function buildPlatform(options: SandboxOptions = {}, listening?: string): Promise<AppPlatform> {
  const seed = options.seed ?? 42;
  const clockSetting = resolveClock(options.clock);
  const organizations = parseKeysEnv(
    options.apiKeys ?? '',
    [options.organizationsFile ?? `${PACKAGE_ROOT}fixtures/organizations.json`, ...(options.extraOrganizationsFiles ?? [])].flatMap(readOrganizationsFile),
  );
  const scenarioFiles = new ScenarioFiles({
    directories: [options.scenariosDir ?? `${PACKAGE_ROOT}scenarios`, ...(options.extraScenariosDirs ?? [])],
    files: options.scenarioFiles ?? [],
    activeFromStart: options.scenarios ?? [],
  });
  const scenarios = new ScenarioRegistry(scenarioFiles.read());
  for (const name of options.scenarios ?? []) {
    if (!scenarios.get(name)) throw new Error(`Unknown scenario "${name}" (--scenario). Known: ${scenarios.names().join(', ')}.`);
  }
  const dataFile = options.data ?? DEFAULT_DATA_FILE;
  const log = options.logger ?? consoleLogger;
  const courier = options.smtp === undefined ? undefined : await SmtpCourier.open(parseSmtpUrl(options.smtp), log);
  const store = await Store.open(
    options.memory ? {} : { file: dataFile, port: options.port ?? null, warn: log.warn, recordShapes: storedRecordShapes(), repair: options.repair },
  );
  const signingSecret = hashParts('signing', seed).toString('hex');
  const secret = loadSandboxSecret({ pinned: options.secret, dataFile: options.memory ? undefined : dataFile });
  const uploads = new UploadStore(options.memory ? new MemoryBlobStore() : new FileBlobStore(`${dataFile}.uploads`), secret);
  const worlds = new Worlds(
    {
      seed,
      secret,
      clock: clockSetting,
      scenarios: options.scenarios ?? [],
      rateLimits: options.rateLimit === false ? null : { ...SPEC_RATE_LIMITS, ...options.rateLimits },
      requestLog: { ...DEFAULT_REQUEST_LOG_LIMITS, ...options.requestLog },
      maxNamespaces: options.maxNamespaces ?? DEFAULT_MAX_NAMESPACES,
      ...(courier === undefined ? {} : { courier }),
    },
    store,
    scenarios,
  );
  const retention = new Retention(options.retentionDays, store, worlds, {
    dropNamespace: async (namespace) => {
      await resetSandbox(platform, namespace, undefined);
    },
    dropped: (namespace, collection, ids) => (collection === UPLOADS_COLLECTION ? uploads.forget(namespace, ids) : Promise.resolve()),
  });
  const base = (options.publicUrl ?? listening ?? `http://${options.host ?? '127.0.0.1'}:${options.port ?? 4010}`).replace(/\/+$/, '');
  const watchesScenarios = options.watchScenarios ?? listening !== undefined;
  const closers = [
    ...(courier === undefined ? [] : [() => courier.close()]),
    ...(watchesScenarios ? [async () => scenarioFiles.close()] : []),
    () => retention.stop(),
  ];
  const platform: AppPlatform = {
    settings: {
      adminToken: options.adminToken,
      urlsFromRequestHost: options.publicUrl === undefined,
      cors: options.cors,
      logRequests: options.logRequests ?? false,
      logFormat: options.logFormat ?? 'text',
      strictResponses: options.strictResponses ?? false,
      responseRecorder: options.responseRecorder,
    },
    store,
    keyRing: new KeyRing(organizations, hashParts('keys', seed).toString('hex')),
    scenarios,
    scenarioFiles,
    worlds,
    retention,
    ...areaRegistries(options, scenarios),
    uploads,
    urls: publicUrls(base),
    adminSessions: new AdminSessions(),
    signingSecret,
    secret,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    log,
    invalidKeys: new InvalidKeyLimiter(options.invalidKeysPerMinute ?? DEFAULT_INVALID_KEYS_PER_MINUTE),
    adminTokenGuesses: new InvalidKeyLimiter(ADMIN_TOKEN_GUESSES_PER_MINUTE),
    imageRequests: new ConcurrencyGate({ ...DEFAULT_IMAGE_CONCURRENCY, ...options.imageConcurrency }),
    closers,
  };
  if (watchesScenarios) scenarioFiles.watch(platform);
  if (options.retentionSweep ?? listening !== undefined) retention.startSweeping();
  return platform;
}

/**
 * The areas of one app and the registries filled from them: the declared operations (each area's
 * responses, learnt as it loads), the catalog and coverage (every area's capabilities, added in list order
 * when either is first read), and the job engine with every kind declared in src/modules.ts. Wired to each
 * other when built, nothing set later: a fresh set is a freshly started server's, whatever its data.
 */
export function areaRegistries(
  options: Pick<SandboxOptions, 'jobTimings' | 'coverage'>,
  scenarios: ScenarioRegistry,
): Pick<AppPlatform, 'areas' | 'jobs' | 'catalog' | 'coverage' | 'operations'> {
  // The listeners run once areas load, after every registry below exists.
  const areas = new AreaLoader(AREAS, {
    loaded: (definitions) => operations.learn(definitions),
    all: (loaded) => {
      for (const capability of capabilitiesOf(loaded)) {
        for (const [section, entries] of Object.entries(capability.catalog ?? {})) catalog.add(section as CatalogSection, entries);
        for (const source of capability.coverage ?? []) coverage.addSource(source);
      }
      catalog.close();
      coverage.learn(definitionsOfAll(loaded), readOperationExamples, { scenarios: scenarios.all(), catalogEntries: (section) => catalog.rows(section) });
    },
  });
  const operations = new DeclaredOperations(tableOperations(), {
    load: async (names) => {
      for (const name of names) await areas.load(name);
    },
    loadAll: () => areas.loadAll(),
  });
  const catalog = new Catalog(() => areas.loadAll());
  const coverage = new Coverage(options.coverage !== false, PLATFORM_SOURCES, () => areas.loadAll());
  return { areas, jobs: new JobEngine({ ...DEFAULT_JOB_TIMINGS, ...options.jobTimings }, declaredJobKinds()), catalog, coverage, operations };
}

/** A frozen clock without an instant freezes at start-up, once, so resets return to the same instant. */
function resolveClock(clock: SandboxOptions['clock']): ClockSetting {
  const setting = typeof clock === 'string' ? parseClockSetting(clock) : (clock ?? { mode: 'real' });
  return setting.mode === 'frozen' && setting.at === undefined ? { mode: 'frozen', at: systemTime() } : setting;
}

const STARTING_BODY = JSON.stringify({ error: 'The sandbox is still starting: retry in a moment.' });

/**
 * The answer to a request that comes while the sandbox starts (the port is bound first; a health check polls
 * it during a long store load). The bytes `Response.json` sends, built from a string with a plain record of
 * headers: the server writes it as it is, where `Response.json` would load the platform's Response class
 * (undici on Node 20, some 40 ms of the start).
 */
export const startingAnswer = () =>
  new Response(STARTING_BODY, {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '1', 'content-length': String(Buffer.byteLength(STARTING_BODY)) },
  });

const SOCKETLESS_URL =
  'This sandbox has no socket (createSandbox({ port: null })), so it has no URL: send requests with sandbox.app.request(path, init), or create it with port: 0 to listen on a free port.';

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // The port is bound before the data directory is touched: a taken port fails with nothing written.
  // The node server's bindings (`env`) go through: they carry the socket, hence the client's address.
  let handle: (request: Request, env: unknown) => Response | Promise<Response> = startingAnswer;
  const listener = options.port === null ? undefined : await listen(options, (request, env) => handle(request, env));
  let platform: AppPlatform;
  try {
    platform = await buildPlatform({ ...options, port: listener?.port ?? options.port }, listener?.url);
  } catch (error) {
    if (listener) await new Promise<void>((resolve) => listener.server.close(() => resolve()));
    throw error;
  }
  let app: OpenAPIHono<AppEnv>;
  try {
    app = await buildApp(platform);
  } catch (error) {
    // A scenario file's stub that fits no operation: nothing served, the store's lock released.
    for (const closer of platform.closers) await closer();
    await platform.store.closeWithoutCompaction();
    if (listener) await new Promise<void>((resolve) => listener.server.close(() => resolve()));
    throw error;
  }
  // Before the first answer: every first create names the organization's sender with en_US faker, whose
  // entry point (some 10 ms of CPU) would otherwise land in an integrator's first call.
  loadFaker('en_US');
  // The shadow mode's code loads only when it is on.
  if (listener) handle = options.shadow ? (await import('./drift/shadow.ts')).shadowing(platform, app.fetch, options.shadow) : app.fetch;
  const server = listener?.connections;
  // The journal whose records fill the report's curls: the namespace's, or the default one's, which the
  // curls of a report of every namespace call.
  const journalOf = (namespace: string | undefined) => platform.worlds.existing(namespace ?? DEFAULT_NAMESPACE)?.requestLog.list() ?? [];

  let draining: Promise<'drained' | 'cut'> | undefined;
  const drain = () => {
    draining ??= (async (): Promise<'drained' | 'cut'> => {
      const outcome = server ? await server.drain(options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) : 'drained';
      for (const closer of platform.closers) await closer();
      return outcome;
    })();
    return draining;
  };

  return {
    get url() {
      if (!listener) throw new Error(SOCKETLESS_URL);
      return listener.url;
    },
    app,
    platform,
    get clock() {
      return platform.worlds.get(DEFAULT_NAMESPACE).clock;
    },
    reset: async (seed) => {
      await resetSandbox(platform, undefined, seed);
    },
    coverage: async (namespace) => {
      await platform.coverage.whenReady();
      return platform.coverage.report({ namespace, baseUrl: platform.urls.base, journal: journalOf(namespace) });
    },
    close: (async (closing?: { report: false }) => {
      await drain();
      await platform.store.close();
      if (closing?.report === false) return undefined;
      await platform.coverage.whenReady();
      return platform.coverage.report({ baseUrl: platform.urls.base, journal: journalOf(undefined) });
    }) as Sandbox['close'],
    drain,
    closeNow: async () => {
      server?.cut();
      await platform.store.closeWithoutCompaction();
    },
  };
}

async function listen(
  options: SandboxOptions,
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
): Promise<{ server: ServerType; connections: Drainable; port: number; url: string }> {
  const host = options.host ?? '127.0.0.1';
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
    // The node adapter's listener, with the sandbox's answer for requests it cannot turn into a Request
    // (`GET *`), and without its own body clean-up (answerOnceBodyArrived does it).
    const listener = getRequestListener(answerOnceBodyArrived(fetch), { hostname: host, autoCleanupIncoming: false, errorHandler: answerUnbuildableRequest });
    const created = createServer(serverOptionsFor(limits), listener);
    server = created;
    created.listen(options.port ?? 4010, host, () => resolve((created.address() as AddressInfo).port));
    server.once('error', reject);
    server.on('clientError', answerParserRefusal);
    capConnections(server as HttpServer, limits, (options.logger ?? consoleLogger).warn);
  });
  return { server: server as ServerType, connections: drainable(server as HttpServer), port, url: `http://${reachableHost(host)}:${port}` };
}

/** The address a client on this machine opens: a wildcard interface (0.0.0.0, ::) is reached on loopback. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
