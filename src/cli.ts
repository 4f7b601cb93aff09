/**
 * The `idv-sandbox` command (and `npm start`). Flags win over env variables, env over the config file
 * (the settings table is in cli-settings.ts).
 */
import packageJson from '../package.json' with { type: 'json' };
import { parseFlags, readConfigFile, resolveSettings } from './cli-settings.ts';
import { readFileSync } from 'node:fs';
import { coverageCommand, finishCoverage, type CoverageExit } from './coverage-command.ts';
import { checkRecordingCommand } from './drift/check-recording-command.ts';
import { parseRequirement } from './platform/coverage/coverage-gate.ts';
import { renderContext } from './platform/coverage/coverage-report.ts';
import { createSandbox, DEFAULT_DATA_FILE, DEFAULT_SHUTDOWN_TIMEOUT_MS, type Sandbox, type SandboxOptions } from './sandbox.ts';
import { parseCorsSetting } from './platform/http/cors.ts';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './platform/http/connection-limits.ts';
import type { LogFormat } from './platform/platform.ts';
import { DEFAULT_INVALID_KEYS_PER_MINUTE } from './platform/rate-limit/invalid-key-limiter.ts';
import { DEFAULT_MAX_NAMESPACES } from './platform/namespaces/world.ts';
import { StoreOpenError } from './platform/store/store.ts';
import { writePortFile } from './port-file.ts';
import type { ShadowOptions } from './drift/shadow.ts';

/** What the command takes: the sandbox's options, plus what only the process does. */
export interface CliOptions extends SandboxOptions, CoverageExit {
  /** Where to write the address once listening (the container health check reads it). */
  portFile?: string;
}

export const HELP = `idv-sandbox — a stateful sandbox of the identity-verification and screening API

Usage: idv-sandbox [options]
       idv-sandbox check-recording FILE... [--out FILE] [--fail-on-drift]   (compare with recorded traffic: docs/drift.md)

Each option may also be set in a config file (--config), under its flag's name; a flag wins over its env
variable, which wins over the config file.

  --config <file>       JSON config file: { "port": 4010, "seed": 7, "scenario": ["slow"], ... } (env IDV_SANDBOX_CONFIG);
                        a key that is not a flag, or a value of the wrong kind, stops the start with the key and the reason
  --port <n>            port (env PORT, default 4010; 0 = any free port)
  --host <addr>         interface (env HOST, default 127.0.0.1)
  --data <file>         JSON data file (env IDV_SANDBOX_DATA, default ${DEFAULT_DATA_FILE})
  --memory              keep everything in memory, no file
  --repair              start from a damaged data file: set aside what cannot be read (journal lines, records,
                        an unreadable snapshot), keeping a copy of every file it changes (<file>.before-repair)
  --max-namespaces <n>  namespaces at once; past it a new one is refused with 507, none is evicted
                        (env IDV_SANDBOX_MAX_NAMESPACES, default ${DEFAULT_MAX_NAMESPACES})
  --retention <days>    drop records not written for that many days on their namespace's virtual clock, and
                        namespaces none of whose records was (env IDV_SANDBOX_RETENTION; default: keep forever;
                        a namespace may set its own: PUT /__sandbox/retention)
  --seed <n>            seed for ids and synthetic data (env IDV_SANDBOX_SEED, default 42)
  --secret <s>          pin the private secret that signs upload URLs and hosted-page links (env IDV_SANDBOX_SECRET;
                        at least 16 characters), for byte-identical runs; default: random, kept in <data file>.secret
                        (mode 0600), per process with --memory
  --clock <mode>        real | frozen | frozen@<ISO 8601> (env IDV_SANDBOX_CLOCK, default real)
  --scenarios-dir <d>   load your scenario files from this directory too (repeatable; env IDV_SANDBOX_SCENARIOS_DIR=d1,d2)
  --scenario <name>     activate a scenario in every namespace (repeatable; env IDV_SANDBOX_SCENARIOS=a,b)
  --no-rate-limit       turn off the 25/s, burst 35, 10,000/day limits
  --public-url <url>    base URL used in links (env IDV_SANDBOX_PUBLIC_URL; for Docker port maps)
  --admin-token <t>     require "Authorization: Bearer <t>" on /__sandbox and /console (env IDV_SANDBOX_ADMIN_TOKEN)
  --smtp <url>          also deliver the outbox's e-mails to this SMTP server, e.g. a local Mailpit at
                        smtp://127.0.0.1:1025 (env IDV_SANDBOX_SMTP); a failed delivery never fails a request
  --cors [origins]      answer CORS on /v1 for browser tools: any origin, or a comma-separated list (env IDV_SANDBOX_CORS)
  --log-requests        print one line per request (env IDV_SANDBOX_LOG_REQUESTS=1)
  --log-format <f>      text | json: json prints one JSON object per line (the start too, and every request:
                        namespace, operation, status, duration, fired scenario rules) (env IDV_SANDBOX_LOG_FORMAT, default text)
  --strict-responses    check every answer against its route's declared response; a mismatch answers 500
                        naming the operation, the status and the problem (env IDV_SANDBOX_STRICT_RESPONSES=1)
  --shutdown-timeout <ms>  on SIGTERM/SIGINT, how long in-flight requests (and e-mail deliveries) may take; then
                        the snapshot is written to its end. Past it they are cut, the journal kept, exit 1
                        (env IDV_SANDBOX_SHUTDOWN_TIMEOUT, default ${DEFAULT_SHUTDOWN_TIMEOUT_MS}); a second signal stops at once
  --invalid-keys-per-minute <n>  wrong API keys one client address may send in a minute before 429
                        (env IDV_SANDBOX_INVALID_KEYS_PER_MINUTE, default ${DEFAULT_INVALID_KEYS_PER_MINUTE}; 0 = no limit)
  --max-connections <n>    open connections at once; more are closed at once (env IDV_SANDBOX_MAX_CONNECTIONS, default ${DEFAULT_CONNECTION_LIMITS.maxConnections})
  --max-connections-per-client <n>  open connections of one client address at once; more are closed at once
                        (env IDV_SANDBOX_MAX_CONNECTIONS_PER_CLIENT, default ${DEFAULT_CONNECTION_LIMITS.maxConnectionsPerClient})
  --headers-timeout <ms>   time for a request's headers to arrive, else 408 (env IDV_SANDBOX_HEADERS_TIMEOUT, default ${DEFAULT_CONNECTION_LIMITS.headersTimeoutMs})
  --request-timeout <ms>   time for a whole request, body included, to arrive, else 408 (env IDV_SANDBOX_REQUEST_TIMEOUT, default ${DEFAULT_CONNECTION_LIMITS.requestTimeoutMs})
  --keep-alive-timeout <ms>  idle time before a keep-alive connection is closed (env IDV_SANDBOX_KEEP_ALIVE_TIMEOUT, default ${DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs})
  --organizations <f>   extra organizations file, merged with fixtures/organizations.json (repeatable; env IDV_SANDBOX_ORGANIZATIONS=f1,f2)
  --no-coverage         do not record which outcome classes the answers fall into (GET /__sandbox/coverage)
  --coverage-out <f>    on stop, write the coverage report of every namespace: .json, .md, .xml (JUnit) or .html
                        (env IDV_SANDBOX_COVERAGE_OUT)
  --require-coverage <spec>  on stop, exit 1 listing the classes missed unless coverage reaches this percentage,
                        or hits every class listed in this file (\`idv-sandbox coverage init\` writes one)
                        (env IDV_SANDBOX_REQUIRE_COVERAGE)
  --shadow-upstream <url>  shadow mode: forward each /v1 request to this service and answer with its answer,
                        untouched (502 when it cannot be reached); answer it here too, in namespace "shadow", and
                        report the difference at GET /__sandbox/drift (docs/drift.md) (env IDV_SANDBOX_SHADOW_UPSTREAM)
  --record <dir>        with --shadow-upstream: append each exchange to a JSONL file in this folder, for
                        idv-sandbox check-recording (env IDV_SANDBOX_RECORD)
  --port-file <f>       once listening, write {"url","pid"} here for health checks and scripts (env IDV_SANDBOX_PORT_FILE)
  --version             the version
  --help                this text

Env IDV_SANDBOX_API_KEYS="<key>=<org>:<live|sandbox|revoked>,..." adds API keys.`;

/** `--cors` may stand alone (any origin): give parseArgs its value explicitly. */
const withCorsValue = (argv: string[]) =>
  argv.flatMap((arg, i) => (arg === '--cors' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--')) ? ['--cors=*'] : [arg]));

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliOptions | 'help' | 'version' {
  const values = parseFlags(withCorsValue(argv));
  if (values.help) return 'help';
  if (values.version) return 'version';
  const configFile = values.config ?? env.IDV_SANDBOX_CONFIG;
  // Flag > env > config file > default.
  const s = resolveSettings(values, env, configFile === undefined ? {} : readConfigFile(configFile));
  const integer = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number, got "${value}"`);
    return Number(value);
  };
  const logFormat = s['log-format'] as LogFormat | undefined;
  const connections: Partial<ConnectionLimits> = {};
  const connectionSettings = [
    ['max-connections', 'maxConnections'],
    ['max-connections-per-client', 'maxConnectionsPerClient'],
    ['headers-timeout', 'headersTimeoutMs'],
    ['request-timeout', 'requestTimeoutMs'],
    ['keep-alive-timeout', 'keepAliveTimeoutMs'],
  ] as const;
  for (const [flag, setting] of connectionSettings) {
    const value = integer(`--${flag}`, s[flag]);
    if (value === 0) throw new Error(`--${flag} must be at least 1`);
    if (value !== undefined) connections[setting] = value;
  }
  const maxNamespaces = integer('--max-namespaces', s['max-namespaces']);
  if (maxNamespaces === 0) throw new Error('--max-namespaces must be at least 1 (the default namespace always exists)');
  return {
    port: integer('--port', s.port) ?? 4010,
    host: s.host ?? '127.0.0.1',
    data: s.data,
    memory: s.memory ?? false,
    repair: s.repair ?? false,
    maxNamespaces,
    retentionDays: retentionDays(integer('--retention', s.retention)),
    seed: integer('--seed', s.seed),
    secret: s.secret,
    clock: s.clock,
    scenarios: s.scenario,
    extraScenariosDirs: s['scenarios-dir'],
    rateLimit: !s['no-rate-limit'],
    publicUrl: s['public-url'],
    adminToken: s['admin-token'],
    smtp: s.smtp,
    extraOrganizationsFiles: s.organizations,
    apiKeys: env.IDV_SANDBOX_API_KEYS,
    cors: s.cors === undefined ? undefined : parseCorsSetting(s.cors),
    logRequests: (s['log-requests'] ?? false) || logFormat === 'json',
    logFormat,
    strictResponses: s['strict-responses'] ?? false,
    shutdownTimeoutMs: integer('--shutdown-timeout', s['shutdown-timeout']),
    invalidKeysPerMinute: integer('--invalid-keys-per-minute', s['invalid-keys-per-minute']),
    connections,
    portFile: s['port-file'],
    coverage: !s['no-coverage'],
    coverageOut: s['coverage-out'],
    requireCoverage: requirementOf(s['require-coverage']),
    shadow: shadowOf(s['shadow-upstream'], s.record),
  };
}

function shadowOf(upstream: string | undefined, recordDir: string | undefined): ShadowOptions | undefined {
  if (upstream === undefined) {
    if (recordDir !== undefined) throw new Error('--record writes what the shadow mode forwards: give --shadow-upstream <URL> with it');
    return undefined;
  }
  if (!URL.canParse(upstream) || !/^https?:$/.test(new URL(upstream).protocol))
    throw new Error(`--shadow-upstream must be the service's http or https URL (https://staging.example), got "${upstream}"`);
  return recordDir === undefined ? { upstream } : { upstream, recordDir };
}

function retentionDays(days: number | undefined): number | undefined {
  if (days === 0) throw new Error('--retention must be at least 1 day (leave it out to keep records forever)');
  return days;
}

function requirementOf(spec: string | undefined) {
  if (spec === undefined) return undefined;
  return parseRequirement(spec, (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(
        `--require-coverage ${spec}: neither a percentage nor a readable file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  });
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** The loud warning for a sandbox reachable beyond this machine without an admin token. */
export function exposureWarning(host: string, adminToken: string | undefined): string | undefined {
  if (LOOPBACK.test(host) || adminToken) return undefined;
  return `\n*** WARNING: bound to ${host} without an admin token. Anyone who can reach this port can reset the sandbox and drive its state. Set --admin-token or IDV_SANDBOX_ADMIN_TOKEN. ***\n`;
}

/** What the start prints: where everything is, how it is set up, and the fixture keys. */
export function banner(sandbox: Sandbox): string {
  const { urls, keyRing, store, worlds, settings } = sandbox.platform;
  const { cors } = settings;
  const world = worlds.get();
  const clock = world.clock.state();
  const keys = keyRing.fixtureKeys().map((k) => `    ${k.key.padEnd(18)} ${k.kind.padEnd(8)} ${k.organizationId} (${k.organizationName})`);
  return [
    `idv-sandbox listening on ${sandbox.url}`,
    `  API (base_url)      ${urls.base}      (every endpoint under /v1)`,
    `  Docs                ${urls.docs}  (OpenAPI: ${urls.base}/openapi.json)`,
    `  Console             ${urls.console}`,
    `  Hosted pages        ${urls.verify}`,
    `  Control plane       ${urls.base}/__sandbox`,
    `  Outbox              ${urls.base}/__sandbox/outbox${world.courier ? ` (e-mails also to SMTP ${world.courier.server})` : ''}`,
    `  Store               ${store.file ?? 'memory'}`,
    `  Seed                ${world.seed}`,
    `  Clock               ${clock.mode === 'frozen' ? `frozen at ${clock.now}` : `real (now ${clock.now})`}`,
    `  Scenarios active    ${world.scenarios.activeNames().join(', ') || 'none'}`,
    ...(cors ? [`  CORS on /v1         ${cors === '*' ? 'any origin' : cors.join(', ')}`] : []),
    ...(sandbox.platform.settings.strictResponses ? ['  Strict responses    on (a mismatch answers 500)'] : []),
    `  API keys (x-api-key):`,
    ...keys,
  ].join('\n');
}

/** The start as one JSON object, for `--log-format json` (a log collector reads it like the request lines). */
export function startLine(sandbox: Sandbox) {
  const { urls, store, worlds } = sandbox.platform;
  const world = worlds.get();
  return {
    event: 'listening',
    version: packageJson.version,
    url: sandbox.url,
    api: `${urls.base}/v1`,
    docs: urls.docs,
    console: urls.console,
    controlPlane: `${urls.base}/__sandbox`,
    store: store.file ?? 'memory',
    seed: world.seed,
    clock: world.clock.state(),
    scenarios: world.scenarios.activeNames(),
  };
}

export async function main(): Promise<void> {
  if (process.argv[2] === 'coverage') process.exit(await coverageCommand(process.argv.slice(3)));
  if (process.argv[2] === 'check-recording') process.exit(await checkRecordingCommand(process.argv.slice(3)));
  let options: ReturnType<typeof parseCli>;
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`idv-sandbox: ${(error as Error).message}\nRun idv-sandbox --help for the options.`);
    process.exit(2);
  }
  if (options === 'help' || options === 'version') {
    console.log(options === 'help' ? HELP : packageJson.version);
    return;
  }
  let sandbox;
  try {
    sandbox = await createSandbox(options);
  } catch (error) {
    const message = error instanceof StoreOpenError || error instanceof Error ? error.message : String(error);
    console.error(`idv-sandbox could not start: ${message}`);
    process.exit(1);
  }
  // Before the banner: whoever waits for the banner finds the port file written.
  if (options.portFile) {
    try {
      writePortFile(options.portFile, sandbox.url, process.pid);
    } catch (error) {
      console.error(`idv-sandbox: could not write the port file (--port-file): ${(error as Error).message}; a health check reading it will fail.`);
    }
  }
  console.log(options.logFormat === 'json' ? JSON.stringify(startLine(sandbox)) : banner(sandbox));
  // The image codecs load on the first image request: a sandbox that never sees an image keeps its
  // start-up time and memory free of them.
  const warning = exposureWarning(options.host ?? '127.0.0.1', options.adminToken);
  if (warning) console.warn(warning);
  // First signal: the shutdown bound covers what clients and mail servers make the stop wait for (the
  // drain); the snapshot write after it runs to its end, however long a large store takes (a clean stop
  // leaves the whole state in the JSON file). A second signal, or the bound passing first, stops at once
  // after the journal is flushed. The lock goes last, so a restart never overlaps this process.
  const bound = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let closing = false;
  let forcing = false;
  const stopNow = (reason: string) => {
    if (forcing) return;
    forcing = true;
    console.error(`idv-sandbox: ${reason}: cutting open connections, flushing the store and stopping`);
    sandbox
      .closeNow()
      .catch((error: unknown) => console.error('idv-sandbox: error while stopping', error))
      .finally(() => process.exit(1));
  };
  const shutdown = (signal: string) => {
    if (closing) return stopNow(`second ${signal}`);
    closing = true;
    console.log(`idv-sandbox: ${signal} received, finishing in-flight requests (at most ${bound} ms), writing the store and stopping`);
    const cut = () => stopNow(`the shutdown bound of ${bound} ms passed`);
    const bounded = setTimeout(cut, bound).unref();
    void sandbox.drain().then(
      (outcome) => (outcome === 'cut' ? cut() : clearTimeout(bounded)),
      () => undefined, // close() meets the same failure and reports it
    );
    // The coverage report only when a file or a gate reads it: building it evaluates every area.
    const stopped = options.coverageOut || options.requireCoverage ? sandbox.close() : sandbox.close({ report: false });
    stopped
      // A forced stop (bound or second signal) exits by itself, once its flush is done.
      .then(
        (report) =>
          forcing ||
          process.exit(report ? finishCoverage(report, renderContext(sandbox.url, sandbox.clock), options, { info: console.log, error: console.error }) : 0),
      )
      .catch((error: unknown) => {
        console.error('idv-sandbox: error while stopping', error);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
