/**
 * `npm run bench`: the sandbox against two baseline apps in the same run, on this machine, over real sockets.
 *
 * Every server is a child process started the way users start it (`bin/idv-sandbox.js`), pinned to core 0
 * while autocannon (this process) runs on core 1, when the machine has two cores and `taskset`. The
 * baselines (bench/baselines/) answer with the sandbox's own JSON bodies, captured at the start of the run,
 * so the sizes match. Stores of 10k and 100k sessions are prefilled in bulk through the store's own write
 * path (bench/prefill.ts). A ratio compares two servers running at once, loaded in alternate 1 s bursts
 * (`alternated`), so the drift of a shared machine falls on both, over several fresh pairs of processes, so
 * the luck of one process's heap and compiled code does not decide it. Every timed load starts once each of
 * its connections has been answered (`timedLoad`). Prints a markdown table with ratios and targets, and
 * writes the figures as JSON.
 *
 *   npm run bench                         (BENCH_SECONDS per case, default 5, after BENCH_WARMUP_REQUESTS
 *                                          untimed ones, default 1000; BENCH_CONNECTIONS, default 20; a
 *                                          comparison over BENCH_PAIRS fresh pairs of servers, default 3)
 *   npm run bench -- read list            (only the cases whose name contains one of the words;
 *   npm run bench -- --case list             `--case <word>` and `--case=<word>` say the same)
 *   npm run bench -- --no-coverage        (every sandbox without integration-coverage recording)
 *   npm run bench -- --scale              (a store of 1M sessions instead of 10k and 100k: start-up, memory,
 *                                          reads, creates and lists at 1M against an empty store)
 *   npm run bench -- coverage             (recording on against off, both running, in alternate 1 s bursts, for reads and creates)
 *   npm run bench -- coverage --aa        (and off against off: how far apart two servers of one build measure)
 *   npm run bench -- "first control"      (reads in flight while a fresh server's first control-plane request arrives)
 *   BENCH_JSON=out.json npm run bench     (where the JSON goes; default bench-results.json)
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" npm run bench -- create
 *                                         (Node flags for the sandbox processes; they then stop with SIGTERM,
 *                                          so a profile is written)
 *
 * No test asserts on these figures: speed targets live here.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { binLaunch } from '../scripts/bin-launch.mjs';
import { driftRecording } from './drift-recording.ts';
import { CI_SUITE_FLAGS, firstCallsByArea, median, runSuite, type SuiteRun } from './ci-suite.ts';
import { BENCH_EXTERNAL_ID, BENCH_LIVE_KEY, BENCH_ORGANIZATIONS, PREFILL_SPACING_MS, PREFILL_START, prefill } from './prefill.ts';
import { type BenchResults, type Figures, README_RUNS, type Row, renderBenchTable, sandboxFigures, writeReadmeTable } from './table.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/**
 * Untimed requests before each case, all answered before timing starts: a server measured first after
 * start-up would otherwise be compared, cold (unoptimized code, a heap still growing), with one warmed by
 * earlier cases.
 */
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP_REQUESTS ?? 1000);
const JSON_OUT = process.env.BENCH_JSON ?? 'bench-results.json';
const SANDBOX_NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
/** The bin's first line's Node flags and environment, which `npm start` and Docker use too. */
const { nodeFlags: BIN_NODE_FLAGS, env: BIN_ENV } = binLaunch();
/** A sandbox's environment: the bin's variables (a baseline runs without them, as a plain app does). */
const SANDBOX_ENV = { ...process.env, ...BIN_ENV };
const ROOT = new URL('..', import.meta.url).pathname;
const LIVE = { 'x-api-key': BENCH_LIVE_KEY };
const SANDBOX_KEY = { 'x-api-key': 'sk_test_demo' };
const WITHOUT_COVERAGE = process.argv.includes('--no-coverage');
const SCALE = process.argv.includes('--scale');
const WITH_AA = process.argv.includes('--aa');
const chosen = process.argv
  .slice(2)
  .filter((arg) => arg !== '--case' && arg !== '--no-coverage' && arg !== '--scale' && arg !== '--aa')
  .map((arg) => arg.replace(/^--case=/, ''));
const wanted = (name: string) => chosen.length === 0 || chosen.some((word) => name.includes(word));

// ─── processes and cores ────────────────────────────────────────────────────────────────────────────

// Read before this process pins itself to one core (which would then be all it sees).
const CORES = availableParallelism();
const pinning = CORES >= 2 && hasTaskset();
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The machine's CPU time so far (all cores, from /proc/stat), and how much of it the host's hypervisor took
 * (steal): a virtual machine whose host is busy runs everything slower, both sides of a comparison alike
 * (which the A/A spread does not show) but every absolute figure too. Undefined where /proc/stat is not.
 */
function cpuTimes(): { total: number; steal: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1, 9).map(Number) ?? [];
    if (fields.length < 8 || fields.some((value) => !Number.isFinite(value))) return undefined;
    return { total: fields.reduce((sum, value) => sum + value, 0), steal: fields[7] as number };
  } catch {
    return undefined;
  }
}

interface Server {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `node args` (on core 0 unless `allCores`) and waits for the first 200 on /healthz (or any answer),
 * then, when given, for the 200 of `firstRead`: start-up ends when a stored record can be served.
 */
async function startServer(
  args: (port: number) => string[],
  options: { allCores?: boolean; anyAnswer?: boolean; firstRead?: Request; env?: NodeJS.ProcessEnv } = {},
): Promise<Server> {
  const port = await freePort();
  // Pinned either way: a child inherits this process's own pinning to core 1, so "all cores" is said explicitly.
  const command = pinning ? ['taskset', '-c', options.allCores ? `0-${CORES - 1}` : '0', process.execPath] : [process.execPath];
  const started = performance.now();
  const child = spawn(command[0] as string, [...command.slice(1), ...args(port)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: options.env });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.ok || options.anyAnswer) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (options.firstRead) {
    const answer = await fetchJson({ url }, options.firstRead);
    if (answer.status !== 200) throw new Error(`the first read answered ${answer.status}: ${answer.text}`);
  }
  return { child, url, startupMs: performance.now() - started };
}

function startSandbox(data: string | 'memory', options: { allCores?: boolean; coverage?: boolean; firstRead?: Request } = {}): Promise<Server> {
  const coverage = options.coverage ?? !WITHOUT_COVERAGE;
  return startServer(
    (port) => [
      ...BIN_NODE_FLAGS,
      ...SANDBOX_NODE_ARGS,
      'bin/idv-sandbox.js',
      '--port',
      String(port),
      ...(data === 'memory' ? ['--memory'] : ['--data', data]),
      '--no-rate-limit',
      '--organizations',
      BENCH_ORGANIZATIONS,
      ...(coverage ? [] : ['--no-coverage']),
    ],
    { ...options, env: SANDBOX_ENV },
  );
}

function startBaseline(script: string, bodyFile: string): Promise<Server> {
  return startServer((port) => [`bench/baselines/${script}`, String(port), bodyFile], { anyAnswer: true });
}

/**
 * A start takes a few hundred ms, and one start on a shared virtual machine strays from the next by up to a
 * fifth: a start-up row is the median of STARTS, the servers of all but the last stopped at once.
 */
const STARTS = 5;
async function earlierStarts(start: (n: number) => Promise<Server>): Promise<number[]> {
  const times: number[] = [];
  for (let n = 1; n < STARTS; n += 1) {
    const server = await start(n);
    times.push(server.startupMs);
    await stop(server);
  }
  return times;
}

/** A start-up row's figure: the median, and every start. */
function startups(earlier: readonly number[], last: Server): string {
  const all = [...earlier, last.startupMs].map(Math.round);
  return `${median(all)} ms (median of ${all.length}: ${all.join(', ')})`;
}

async function stop(server: Server, options: { cleanly?: boolean } = {}): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  // A profiled sandbox shuts down cleanly so Node writes the profile, as one does whose exit is measured;
  // otherwise nothing is worth waiting for.
  server.child.kill(options.cleanly || SANDBOX_NODE_ARGS.length > 0 ? 'SIGTERM' : 'SIGKILL');
  await exited;
}

/** CPU time a process has used, user and system, in ms (Linux /proc; 0 elsewhere). */
function cpuMs(child: ChildProcess): number {
  try {
    // utime and stime are the 14th and 15th fields, counted after the parenthesized command name.
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = clockTicks();
function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** Resident set size of a process, in MB (Linux /proc; 0 elsewhere). */
function rssMb(child: ChildProcess): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** RSS once the start-up work has settled (a second after the first 200). */
async function idleRssMb(server: Server): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return rssMb(server.child);
}

// ─── load ───────────────────────────────────────────────────────────────────────────────────────────

interface Request {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * `seconds` of load after `warmupRequests` untimed ones, timed on warm connections (see `timedLoad`).
 */
async function load(server: Server, request: Request, connections = CONNECTIONS, warmupRequests = WARMUP_REQUESTS, seconds = SECONDS): Promise<Figures> {
  // A run of a number of requests ends when the last is answered, so none spills into the timed run.
  if (warmupRequests > 0) await autocannon({ url: server.url, connections, amount: Math.max(connections, warmupRequests), requests: withContentType(request) });
  const { figures } = await timedLoad(server, request, connections, () => new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
  return figures;
}

const withContentType = (request: Request) => [
  { ...request, headers: { ...request.headers, ...(request.body ? { 'content-type': 'application/json' } : {}) } },
];

/**
 * Loads `server` with `request` on `connections` connections and runs `task` once each of them has been
 * answered; the figures are those of the requests sent after the task started and answered before it
 * ended. Timing starts on warm connections because libuv accepts one new connection per turn of the event
 * loop: twenty connections opened at once on a busy server wait up to twenty turns for their first answer
 * (50-200 ms here, bare Hono's included), which a client keeping its connections never meets again.
 */
async function timedLoad<T>(
  server: Server,
  request: Request,
  connections: number,
  task: () => Promise<T>,
): Promise<{ figures: Figures; answer: T; ms: number }> {
  let finished: (result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  // The callback form gives the running instance (to listen to and stop); the load ends when `task` does.
  const instance = autocannon({ url: server.url, connections, duration: 3600, requests: withContentType(request) }, (_error, result) => finished(result));
  const answered = new Set<unknown>();
  let began = Number.POSITIVE_INFINITY;
  let ended = Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  let refused = 0;
  let connected: () => void = () => undefined;
  const allConnected = new Promise<void>((resolve) => (connected = resolve));
  instance.on('response', (client: unknown, status: number, _bytes: number, latency: number) => {
    const now = performance.now();
    if (now - latency >= began && now <= ended) {
      latencies.push(latency);
      if (status < 200 || status >= 300) refused += 1;
    }
    answered.add(client);
    if (answered.size === connections) connected();
  });
  let peakRssMb = rssMb(server.child);
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(server.child))), 200);
  await Promise.race([allConnected, done]);
  const cpuBefore = cpuMs(server.child);
  began = performance.now();
  const answer = await task();
  ended = performance.now();
  const cpuUsed = cpuMs(server.child) - cpuBefore;
  clearInterval(sampler);
  instance.stop();
  const result = await done;
  latencies.sort((x, y) => x - y);
  const at = (share: number) => tenths(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0);
  const ms = ended - began;
  return {
    answer,
    ms,
    figures: {
      rps: roundRate(latencies.length / (ms / 1000)),
      p50: at(0.5),
      p99: at(0.99),
      max: at(1),
      failures: refused + result.errors + result.timeouts,
      peakRssMb,
      cpuMsPerRequest: latencies.length === 0 ? 0 : Math.round((cpuUsed / latencies.length) * 1000) / 1000,
    },
  };
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;
const roundRate = (rate: number) => (rate >= 100 ? Math.round(rate) : Math.round(rate * 10) / 10);

async function fetchJson(server: Pick<Server, 'url'>, request: Request): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: { ...request.headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: request.body } : {}),
  });
  return { status: response.status, text: await response.text() };
}

// ─── the run ────────────────────────────────────────────────────────────────────────────────────────

/** The targets that depend on the store's size (issue: performance at scale). */
const GOALS = {
  '10k': { readRatio: 0.95, startupMs: 500, rssMb: 250 },
  '100k': { readRatio: 0.95, startupMs: 500, rssMb: 250 },
  '1M': { readRatio: 0.8, startupMs: 3000, rssMb: 1536 },
} as const;

const rows: Row[] = [];
const record = (row: Row) => {
  rows.push(row);
  console.error(`  ${row.name}: ${sandboxFigures(row)}${row.ratio === undefined ? '' : `, ratio ${row.ratio.toFixed(2)}`} [${row.met ? 'PASS' : 'FAIL'}]`);
};
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
/** Answered without failure, and at least one request completed in the timed run (a case too slow for it fails). */
const okLoad = (f: Figures) => f.failures === 0 && f.rps > 0;

/** A create as integrators send it: with a phone, their own id and an expiry. */
const createBody = (n: string) =>
  JSON.stringify({
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada.${n}@example.com`,
    phone: '+14155550123',
    external_id: BENCH_EXTERNAL_ID,
    expires_in_hours: 48,
    send_email_invite: false,
    send_phone_invite: false,
  });
const create: Request = { method: 'POST', path: '/v1/sessions', headers: LIVE, body: createBody('bench') };
const syntheticRead: Request = { method: 'GET', path: '/v1/sessions/test_verified', headers: SANDBOX_KEY };
const storedRead = (id: string): Request => ({ method: 'GET', path: `/v1/sessions/${id}`, headers: LIVE });

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'idv-bench-'));
  if (pinning) execFileSync('taskset', ['-apc', '1', String(process.pid)], { stdio: 'ignore' });
  console.error(
    `idv-sandbox bench: ${SECONDS} s per case, ${CONNECTIONS} connections, Node ${process.version}, ${pinning ? 'server on core 0, load on core 1' : 'no core pinning'}`,
  );
  const began = performance.now();
  const cpuAtStart = cpuTimes();
  try {
    // Start-up and memory at 0, synthetic read, stored read and durable create on an empty store.
    const emptyStarts = await earlierStarts((n) => startSandbox(join(work, `empty-start-${n}.json`)));
    const empty = await startSandbox(join(work, 'empty.json'));
    const emptyStartupMs = median([...emptyStarts, empty.startupMs]);
    const emptyIdleRss = await idleRssMb(empty);
    const syntheticBody = await fetchJson(empty, syntheticRead);
    const created = await fetchJson(empty, create);
    if (created.status !== 200) throw new Error(`create failed: ${created.status} ${created.text}`);
    writeFileSync(join(work, 'synthetic.json'), syntheticBody.text);
    writeFileSync(join(work, 'created.json'), created.text);
    const storedId = (JSON.parse(created.text) as { id: string }).id;
    writeFileSync(join(work, 'stored.json'), (await fetchJson(empty, storedRead(storedId))).text);
    record({ name: 'start-up to first 200, empty store', value: startups(emptyStarts, empty), target: '≤ 300 ms', met: emptyStartupMs <= 300 });

    // Each comparison starts its own servers (see `alternated`); these files keep them apart.
    let files = 0;
    const freshFile = (name: string) => join(work, `${name}-${(files += 1)}.json`);
    const freshEmpty = () => startSandbox(freshFile('empty'));

    let readRss = 0;
    if (wanted('synthetic read')) {
      const {
        a: mine,
        b: base,
        ratio: r,
      } = await alternated(
        { start: freshEmpty, request: () => syntheticRead },
        { start: () => startBaseline('bare-hono.mjs', join(work, 'synthetic.json')), request: () => ({ method: 'GET', path: '/v1/sessions/test_verified' }) },
      );
      record({
        name: '`GET /v1/sessions/test_verified` (synthetic read)',
        figures: mine,
        baseline: `bare Hono ${base.rps} req/s, p99 ${base.p99} ms, CPU ${base.cpuMsPerRequest} ms/req`,
        ratio: r,
        target: '≥ 0.65 of bare Hono, p99 ≤ 1.5× its p99',
        met: okLoad(mine) && r >= 0.65 && mine.p99 <= 1.5 * base.p99,
      });
    }
    if (wanted('stored read')) {
      const {
        a: storedAt0,
        b: base,
        ratio: r,
      } = await alternated(
        { start: freshEmpty, request: async (server) => storedRead(await createdId(server)) },
        { start: () => startBaseline('bare-hono.mjs', join(work, 'stored.json')), request: () => ({ method: 'GET', path: `/v1/sessions/${storedId}` }) },
      );
      readRss = Math.max(readRss, storedAt0.peakRssMb);
      record({
        name: 'stored read, 0 stored',
        figures: storedAt0,
        baseline: `bare Hono ${base.rps} req/s, p99 ${base.p99} ms, CPU ${base.cpuMsPerRequest} ms/req`,
        ratio: r,
        target: 'p99 ≤ 1.5× bare Hono’s p99, max ≤ 10× p99',
        met: okLoad(storedAt0) && storedAt0.p99 <= 1.5 * base.p99 && storedAt0.max <= 10 * Math.max(1, storedAt0.p99),
      });
    }
    if (wanted('create')) {
      const zodServer = () => startBaseline('hono-zod.mjs', join(work, 'created.json'));
      await firstCreates(freshEmpty, zodServer);
      const {
        a: createAt0,
        b: zodBaseline,
        ratio: r,
      } = await alternated(
        { start: freshEmpty, request: () => create, warmup: FULL_WARMUP_REQUESTS },
        { start: zodServer, request: () => ({ ...create, path: '/' }), warmup: FULL_WARMUP_REQUESTS },
      );
      record({
        name: 'durable create, 0 stored, both fully warmed',
        figures: createAt0,
        baseline: `Hono + zod ${zodBaseline.rps} req/s, p99 ${zodBaseline.p99} ms, CPU ${zodBaseline.cpuMsPerRequest} ms/req`,
        ratio: r,
        target: '≥ 0.5 of Hono + zod, p99 ≤ 1.5× its p99, max ≤ 10× p99',
        met: okLoad(createAt0) && r >= 0.5 && createAt0.p99 <= 1.5 * zodBaseline.p99 && createAt0.max <= 10 * Math.max(1, createAt0.p99),
      });
      // Two sandboxes of one build compared as above: how far apart a ratio strays where there is no difference.
      const { ratio: aa } = await alternated({ start: freshEmpty, request: () => create }, { start: freshEmpty, request: () => create });
      aaSpread = Math.abs(1 - aa);
    }
    // The two read loads on one server in turn (untimed figures, peak memory kept): the comparisons' servers
    // each serve one kind of request for a few seconds.
    if (wanted('memory')) {
      for (const request of [syntheticRead, storedRead(storedId)]) readRss = Math.max(readRss, (await load(empty, request)).peakRssMb);
    }
    await stop(empty);
    record({ name: 'resident memory, idle, empty store', value: `${emptyIdleRss} MB`, target: '≤ 100 MB', met: emptyIdleRss <= 100 });
    if (readRss > 0) record({ name: 'resident memory under read load', value: `${readRss} MB`, target: '≤ 130 MB', met: readRss <= 130 });

    if (wanted('memory') || wanted('growing')) await memoryWhileGrowing(freshFile, SCALE ? 1_000_000 : 100_000);
    if (wanted('ci suite')) await ciSuite(freshFile, work);
    if (wanted('coverage')) await coverageCost(freshFile);
    if (wanted('first control')) await readsDuringFirstControlRequest(freshFile);
    if (wanted('check-recording drift')) await checkRecordingTime(work);

    // 10k and 100k stored (1M with --scale).
    for (const count of SCALE ? [1_000_000] : [10_000, 100_000]) {
      const label = count === 10_000 ? '10k' : count === 100_000 ? '100k' : '1M';
      const large = count >= 100_000;
      const goals = GOALS[label];
      const needs = large ? ['stored read', 'create', 'list', 'walk', 'start-up', 'memory', 'purge'] : ['stored read', 'create'];
      if (!needs.some(wanted)) continue;
      const file = join(work, `store-${label}.json`);
      const prefillStart = performance.now();
      const prefilledId = await prefill(file, count);
      console.error(`  (prefilled ${count} sessions in ${((performance.now() - prefillStart) / 1000).toFixed(1)} s)`);
      const starts = large ? await earlierStarts(() => startSandbox(file, { firstRead: storedRead(prefilledId) })) : [];
      const server = await startSandbox(file, { firstRead: storedRead(prefilledId) });
      if (large) {
        record({
          name: `start-up to the first 200 of a stored read, ${label} stored`,
          value: startups(starts, server),
          target: `≤ ${goals.startupMs} ms`,
          met: median([...starts, server.startupMs]) <= goals.startupMs,
        });
        const rss = await idleRssMb(server);
        record({ name: `resident memory, idle, ${label} stored`, value: `${rss} MB`, target: `≤ ${goals.rssMb} MB`, met: rss <= goals.rssMb });
      }
      const page = await fetchJson(server, { method: 'GET', path: '/v1/sessions?limit=1', headers: LIVE });
      const someId = (JSON.parse(page.text) as { sessions: { id: string }[] }).sessions[0]?.id;
      if (someId === undefined) throw new Error(`no session listed at ${label}: ${page.text}`);
      if (large) {
        const inWindow = {
          start: new Date(Date.parse(PREFILL_START) + 10 * 3600_000).toISOString(),
          end: new Date(Date.parse(PREFILL_START) + 11 * 3600_000).toISOString(),
        };
        const lists: [string, string][] = [
          [`list of 50, default query, ${label} matching`, '/v1/sessions?limit=50'],
          [`list of 50, external_id, ${label} matching`, `/v1/sessions?external_id=${BENCH_EXTERNAL_ID}&limit=50`],
          [
            `list of 50, one-hour date window (${3600_000 / PREFILL_SPACING_MS} matching)`,
            `/v1/sessions?start_date=${inWindow.start}&end_date=${inWindow.end}&limit=50`,
          ],
        ];
        for (const [name, path] of lists) {
          if (!wanted('list')) break;
          const f = await load(server, { method: 'GET', path, headers: LIVE });
          record({ name, figures: f, target: 'p99 ≤ 20 ms', met: okLoad(f) && f.p99 <= 20 });
        }
        if (wanted('walk') && !SCALE) {
          const started = performance.now();
          const seen = new Set<string>();
          let visits = 0;
          let pages = 0;
          let token: string | null = null;
          do {
            const query: string = token === null ? '' : `&next_token=${encodeURIComponent(token)}`;
            const answer = await fetchJson(server, { method: 'GET', path: `/v1/sessions?limit=500${query}`, headers: LIVE });
            const body = JSON.parse(answer.text) as { sessions: { id: string }[]; next_token: string | null };
            for (const s of body.sessions) seen.add(s.id);
            visits += body.sessions.length;
            pages += 1;
            token = body.next_token;
          } while (token !== null);
          const seconds = (performance.now() - started) / 1000;
          record({
            name: 'full walk with next_token, limit 500',
            value: `${pages} pages, ${visits} visits, ${seen.size} distinct in ${seconds.toFixed(2)} s`,
            target: `each of ${count} visited once`,
            met: visits === count && seen.size === count,
          });
        }
      }
      // Compared with a fresh empty store running beside it (see `alternated`): the large store is started
      // again from its file for each pair, so it is stopped meanwhile (one process per data file).
      await stop(server);
      const prefilled = { start: () => startSandbox(file) };
      const zero = { start: freshEmpty };
      if (wanted('stored read')) {
        const {
          a: f,
          b: atZero,
          ratio: r,
        } = await alternated({ ...prefilled, request: () => storedRead(someId) }, { ...zero, request: async (fresh) => storedRead(await createdId(fresh)) });
        record({
          name: `stored read, ${label} stored`,
          figures: f,
          ratio: r,
          baseline: `0 stored ${atZero.rps} req/s, CPU ${atZero.cpuMsPerRequest} ms/req`,
          target: `≥ ${goals.readRatio} of 0 stored, max ≤ 10× p99`,
          met: okLoad(f) && r >= goals.readRatio && f.max <= 10 * Math.max(1, f.p99),
        });
      }
      if (wanted('create')) {
        const { a: f, b: atZero, ratio: own } = await alternated({ ...prefilled, request: () => create }, { ...zero, request: () => create });
        record({
          name: `durable create, ${label} stored`,
          figures: f,
          ratio: own,
          baseline: `0 stored ${atZero.rps} req/s, p99 ${atZero.p99} ms, CPU ${atZero.cpuMsPerRequest} ms/req`,
          // The absolute bar this row had (p99 ≤ 10 ms) is one a baseline fails too on one saturated core:
          // like every p99 target now, it is set against a figure of the same run, here its own at 0 stored.
          target: '≥ 0.8 of own rate at 0, p99 ≤ 1.5× its p99 at 0, max ≤ 10× p99',
          met: okLoad(f) && own >= 0.8 && f.p99 <= 1.5 * atZero.p99 && f.max <= 10 * Math.max(1, f.p99),
        });
      }
      if (large && wanted('purge')) {
        const again = await startSandbox(file);
        await readsDuringPurge(again, label);
        await stop(again);
      }
      rmSync(file, { force: true });
    }

    if (wanted('face')) {
      // Each row is set against jimp's default decoding of the same pictures (bench/jimp-decoding.ts).
      const pictures = await benchPictures(work);
      const compare = jsonImageRequest('/v1/face/compare', { source: pictures.faceQ90, target: pictures.faceQ70 });
      const server = await startSandbox('memory', { allCores: true });
      const one = await load(server, compare, 1, 2);
      record({
        name: 'face compare, two 1-MP JPEGs, 1 connection',
        figures: one,
        baseline: jimpDecoding(9, pictures.faceQ90, pictures.faceQ70),
        target: 'p50 ≤ 70 ms',
        met: okLoad(one) && one.p50 <= 70,
      });
      const document = await load(server, jsonImageRequest('/v1/document/scan', { image: pictures.passport }, { documentType: 'passport' }), 1, 2);
      record({
        name: 'document scan, a 1-MP JPEG passport, 1 connection',
        figures: document,
        baseline: jimpDecoding(9, pictures.passport),
        target: 'p50 ≤ 50 ms',
        met: okLoad(document) && document.p50 <= 50,
      });
      const four = await load(server, compare, 4, 8);
      // Cores kept busy: what must hold is that four connections keep every core working (libvips decodes
      // on libuv's thread pool, the analysis on the image pool's worker threads, the HTTP work on the event loop).
      const cores = Math.min(2, CORES);
      const busy = (four.rps * four.cpuMsPerRequest) / 1000;
      record({
        name: 'face compare, two 1-MP JPEGs, 4 connections',
        figures: four,
        ratio: ratio(four.rps, one.rps),
        baseline: `1 connection; cores kept busy ${busy.toFixed(2)}`,
        target: `≈ ${cores} cores kept busy (rate × CPU per request)`,
        met: okLoad(four) && busy >= 0.8 * cores,
      });
      await stop(server);
      // A fresh server, so its peak memory is the 12-MP picture's.
      const selfieServer = await startSandbox('memory', { allCores: true });
      const selfie = await load(selfieServer, jsonImageRequest('/v1/face/detect', { image: pictures.selfie }), 1, 2);
      record({
        name: 'face detect, a 12-MP JPEG selfie (3024x4032), 1 connection',
        figures: selfie,
        value: `peak RSS ${selfie.peakRssMb} MB`,
        baseline: jimpDecoding(3, pictures.selfie),
        target: 'p50 ≤ 250 ms, peak RSS ≤ 200 MB',
        met: okLoad(selfie) && selfie.p50 <= 250 && selfie.peakRssMb <= 200,
      });
      await stop(selfieServer);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const totalSeconds = (performance.now() - began) / 1000;
  const cpuAtEnd = cpuTimes();
  const stealShare = cpuAtStart && cpuAtEnd && cpuAtEnd.total > cpuAtStart.total ? (cpuAtEnd.steal - cpuAtStart.steal) / (cpuAtEnd.total - cpuAtStart.total) : undefined;
  const results: BenchResults = { node: process.version, seconds: SECONDS, connections: CONNECTIONS, pinning, totalSeconds, aaSpread, stealShare, rows };
  console.log(renderBenchTable(results));
  writeFileSync(JSON_OUT, JSON.stringify(results, null, 2) + '\n');
  console.error(`figures written to ${JSON_OUT}`);
  // Only a whole run (or a whole --scale run) is a README table, kept with the figures it shows (committed).
  if (chosen.length === 0) {
    const run = SCALE ? 'scale' : 'whole';
    writeFileSync(join(ROOT, README_RUNS[run].file), JSON.stringify(results, null, 2) + '\n');
    writeReadmeTable(join(ROOT, 'README.md'), results, run);
    console.error(`README.md performance table and ${README_RUNS[run].file} written`);
  }
}

/**
 * Stored reads while retention purges every prefilled session one by one (the namespace holds a session
 * written now, so it is not dropped whole): the purge runs in short slices between requests, so the slowest
 * read stays within 10× the p99 of the same reads without a purge. The purge starts once every connection
 * of the load has been answered, and only the reads sent after it started and answered before it ended are
 * counted (`timedLoad`).
 */
async function readsDuringPurge(server: Server, label: string): Promise<void> {
  const created = await fetchJson(server, create);
  const kept = (JSON.parse(created.text) as { id: string }).id;
  const read: Request = { method: 'GET', path: `/v1/sessions/${kept}`, headers: LIVE };
  const quiet = await load(server, read);
  // The prefill is dated 2026-01-01 on its frozen clock; the server's clock is the machine's, later.
  const days = Math.max(1, Math.floor((Date.now() - Date.parse(PREFILL_START)) / 86_400_000) - 1);
  await fetchJson(server, { method: 'PUT', path: '/__sandbox/retention', body: JSON.stringify({ days }) });
  const purge = () => fetchJson(server, { method: 'POST', path: '/__sandbox/retention/purge' });
  const failed = (error: Error) => ({ status: 0, text: `{"purged":[],"error":"${error.message}"}` });
  const { figures: f, answer, ms } = await timedLoad(server, read, CONNECTIONS, () => purge().catch(failed));
  const outcome = answer.status === 200 ? (JSON.parse(answer.text) as { purged: { records: number }[] }).purged[0] : undefined;
  record({
    name: `stored read during a retention purge of ${label} records`,
    figures: f,
    value: `purge of ${outcome?.records ?? 0} records in ${(ms / 1000).toFixed(1)} s`,
    baseline: `no purge: p99 ${quiet.p99} ms`,
    target: 'max ≤ 10× p99 without a purge',
    met: answer.status === 200 && okLoad(f) && f.max <= 10 * Math.max(1, quiet.p99),
  });
}

/**
 * Synthetic reads in flight on a fresh server (their area loaded by a first read) while the first
 * control-plane request arrives: it evaluates the control plane's area, not every area (160-275 ms during
 * which every read waited, before), so no read waits more than ~50 ms for loading it did not ask for: the
 * slowest read is compared with the slowest of the same reads, for as long, just before.
 */
async function readsDuringFirstControlRequest(freshFile: (name: string) => string): Promise<void> {
  const server = await startSandbox(freshFile('first-control'));
  try {
    const first = await fetchJson(server, syntheticRead);
    if (first.status !== 200) throw new Error(`the first read answered ${first.status}: ${first.text}`);
    const retention: Request = { method: 'PUT', path: '/__sandbox/retention', body: JSON.stringify({ days: 30 }) };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
    // The same reads for as long without it: what a read waits on this machine under this load anyway.
    const { figures: quiet } = await timedLoad(server, syntheticRead, CONNECTIONS, settle);
    // The reads sent while it is served are counted once answered: the window lasts until they are.
    const served = async () => {
      const began = performance.now();
      const answer = await fetchJson(server, retention);
      const ms = performance.now() - began;
      await settle();
      return { answer, ms };
    };
    const {
      figures: f,
      answer: { answer, ms },
    } = await timedLoad(server, syntheticRead, CONNECTIONS, served);
    record({
      name: 'synthetic read in flight while the first control-plane request (`PUT /__sandbox/retention`) arrives',
      figures: f,
      value: `the control-plane request answered ${answer.status} in ${Math.round(ms)} ms`,
      baseline: `the same reads without it: p99 ${quiet.p99} ms, max ${quiet.max} ms`,
      target: 'max ≤ 50 ms over the max without it',
      met: answer.status === 200 && okLoad(f) && f.max <= quiet.max + 50,
    });
  } finally {
    await stop(server);
  }
}

/**
 * `idv-sandbox check-recording` on a recording of 1,000 exchanges, run as a user runs it (the bin, start-up
 * included, on core 0): under 10 s (issue: drift check), and without drift, the recording being a sandbox's.
 */
async function checkRecordingTime(work: string): Promise<void> {
  const file = join(work, 'drift-1000.jsonl');
  writeFileSync(file, await driftRecording(1000));
  const command = pinning ? ['taskset', '-c', '0', process.execPath] : [process.execPath];
  const began = performance.now();
  const run = spawnSync(command[0] as string, [...command.slice(1), ...BIN_NODE_FLAGS, 'bin/idv-sandbox.js', 'check-recording', file, '--fail-on-drift'], {
    cwd: ROOT,
    env: SANDBOX_ENV,
    encoding: 'utf8',
  });
  const seconds = (performance.now() - began) / 1000;
  const summary = /\d+ of \d+ replayed exchanges match the recording/.exec(run.stdout)?.[0] ?? `exit ${run.status}: ${run.stderr.slice(0, 200)}`;
  record({
    name: 'check-recording of 1,000 exchanges',
    value: `${seconds.toFixed(1)} s; ${summary}`,
    target: '< 10 s, no drift',
    met: run.status === 0 && seconds < 10,
  });
}

/**
 * What integration-coverage recording costs: the same loads on a sandbox recording (the default) and one
 * started with --no-coverage, side by side (`alternated`). With --aa, the same loads on two servers both
 * recording off: the spread of a ratio where there is no difference, to read the others against.
 */
async function coverageCost(freshFile: (name: string) => string): Promise<void> {
  const recording = (coverage: boolean) => () => startSandbox(freshFile(coverage ? 'coverage-on' : 'coverage-off'), { coverage });
  const loads: [string, (server: Server) => Request | Promise<Request>][] = [
    ['synthetic read', () => syntheticRead],
    ['stored read', async (server) => storedRead(await createdId(server))],
    ['durable create', () => create],
  ];
  const pairings = [
    { name: 'coverage recording on (off: --no-coverage)', a: recording(true), b: recording(false), target: 0.95 },
    ...(WITH_AA ? [{ name: 'A/A, both recording off', a: recording(false), b: recording(false), target: 0 }] : []),
  ];
  for (const pairing of pairings) {
    for (const [name, request] of loads) {
      const { a, b, ratio: r } = await alternated({ start: pairing.a, request }, { start: pairing.b, request }, COVERAGE_PAIRS);
      record({
        name: `${name}, ${pairing.name}`,
        figures: a,
        baseline: `${b.rps} req/s, p99 ${b.p99} ms, CPU ${b.cpuMsPerRequest} ms/req`,
        ratio: r,
        target: pairing.target > 0 ? `≥ ${pairing.target} of off` : 'none (the spread)',
        met: okLoad(a) && r >= pairing.target,
      });
    }
  }
}

/**
 * Untimed requests before the steady-create comparison: a create reaches full speed only after some 5,000
 * (a baseline measured sooner is measured slow, and flatters the ratio).
 */
const FULL_WARMUP_REQUESTS = 10_000;
/** How far apart two sandboxes of one build measure in this run (|1 − ratio|), once the creates ran. */
let aaSpread: number | undefined;

/**
 * A fresh server's first FIRST_CREATES creates, timed by their duration, against a fresh Hono + zod server's
 * (what a CI suite meets: processes that never get warm). PAIRS fresh pairs, each side started, loaded and
 * stopped in turn; the ratio is the median of the pairs' baseline/sandbox durations.
 */
const FIRST_CREATES = 2000;
async function firstCreates(freshSandbox: () => Promise<Server>, freshBaseline: () => Promise<Server>): Promise<void> {
  const durations = { sandbox: [] as number[], baseline: [] as number[] };
  const ratios: number[] = [];
  for (let pair = 0; pair < PAIRS; pair += 1) {
    for (const side of pair % 2 === 0 ? (['sandbox', 'baseline'] as const) : (['baseline', 'sandbox'] as const)) {
      const server = side === 'sandbox' ? await freshSandbox() : await freshBaseline();
      try {
        const began = performance.now();
        // Until the last answer: autocannon itself resolves on its next one-second tick, which rounded every
        // duration to whole seconds.
        let lastAnswer = began;
        const result = await new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: server.url,
              connections: CONNECTIONS,
              amount: FIRST_CREATES,
              requests: withContentType(side === 'sandbox' ? create : { ...create, path: '/' }),
            },
            (error, finished) => (error ? reject(error) : resolve(finished)),
          );
          instance.on('response', () => (lastAnswer = performance.now()));
        });
        if (result.non2xx + result.errors + result.timeouts > 0)
          throw new Error(`${side}: ${result.non2xx} answers not 2xx, ${result.errors} errors in its first creates`);
        durations[side].push(lastAnswer - began);
      } finally {
        await stop(server);
      }
    }
    ratios.push(ratio(durations.baseline[pair] as number, durations.sandbox[pair] as number));
  }
  const r = median(ratios);
  const ms = (values: number[]) => `${Math.round(median(values))} ms (each: ${values.map(Math.round).join(', ')})`;
  record({
    name: `a fresh server’s first ${FIRST_CREATES.toLocaleString('en-US')} creates`,
    value: ms(durations.sandbox),
    baseline: `a fresh Hono + zod: ${ms(durations.baseline)}`,
    ratio: r,
    target: '≥ 0.8 of a fresh Hono + zod (by duration)',
    met: r >= 0.8,
  });
}

/**
 * A shared sandbox that runs for weeks: resident memory after `count` creates through the API in one
 * process (each with its own e-mail address), on a data file, as `npm start` runs.
 */
async function memoryWhileGrowing(freshFile: (name: string) => string, count: number): Promise<void> {
  const server = await startSandbox(freshFile('growing'));
  try {
    let n = 0;
    const began = performance.now();
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      amount: count,
      requests: [{ ...(withContentType(create)[0] as Request), setupRequest: (request: object) => ({ ...request, body: createBody(`growing-${(n += 1)}`) }) }],
    });
    const seconds = (performance.now() - began) / 1000;
    const failures = result.non2xx + result.errors + result.timeouts;
    const rss = rssMb(server.child);
    const limit = count >= 1_000_000 ? 1536 : 250;
    record({
      name: `resident memory after ${count.toLocaleString('en-US')} creates through the API in one process`,
      value: `${rss} MB (${seconds.toFixed(0)} s of creates${failures ? `, ${failures} failures` : ''})`,
      target: `≤ ${limit} MB`,
      met: failures === 0 && rss <= limit,
    });
  } finally {
    await stop(server);
  }
}

/** Suite runs on the warm server after the first: their median is the warm figure. */
const WARM_SUITE_RUNS = 3;
/** Fresh servers the suite's cold run is timed on: a row is their median. */
const COLD_SUITE_RUNS = 3;
/** How much slower an area's first call may be than the same call on a warm server. */
const FIRST_CALL_ALLOWANCE_MS = 30;

/**
 * An integrator's CI suite, start to finish (bench/ci-suite.ts): `npm start`'s server spawned, the suite run
 * once cold, then WARM_SUITE_RUNS times on the same, now warm, server; each area's first call beside the
 * same call warm. The compiled code the bin keeps (src/bundle-loader.mjs) lives in a folder of this case's
 * own: first as on a machine that never ran the server (a server that runs the suite once and stops), then
 * as on every run after that one, which is what the rows judge.
 */
async function ciSuite(freshFile: (name: string) => string, work: string): Promise<void> {
  const env = { ...SANDBOX_ENV, NODE_COMPILE_CACHE: mkdtempSync(join(work, 'ci-suite-code-')) };
  const start = () =>
    startServer(
      (port) => [...BIN_NODE_FLAGS, ...SANDBOX_NODE_ARGS, 'bin/idv-sandbox.js', '--port', String(port), '--data', freshFile('ci-suite'), ...CI_SUITE_FLAGS],
      {
        env,
      },
    );
  const firstOnMachine = await start();
  let firstRun: Awaited<ReturnType<typeof runSuite>>;
  try {
    firstRun = await runSuite(firstOnMachine.url);
  } finally {
    // Cleanly, as a suite's runner stops it: at exit the server keeps the code the suite compiled.
    await stop(firstOnMachine, { cleanly: true });
  }
  // Cold on COLD_SUITE_RUNS fresh servers, each from the code the machine's first run kept (killed, so none
  // keeps more), then warm on the last one.
  const cold: SuiteRun[] = [];
  const startToLastAnswer: number[] = [];
  const warm: SuiteRun[] = [];
  for (let run = 1; run <= COLD_SUITE_RUNS; run += 1) {
    const server = await start();
    try {
      const fresh = await runSuite(server.url);
      cold.push(fresh);
      startToLastAnswer.push(server.startupMs + fresh.ms);
      if (run === COLD_SUITE_RUNS) for (let again = 0; again < WARM_SUITE_RUNS; again += 1) warm.push(await runSuite(server.url));
    } finally {
      await stop(server);
    }
  }
  // Starting from the code a suite's run kept (every area's, not only a start's) costs a start more to read:
  // the start-up and idle memory rows again, from it.
  const earlier = await earlierStarts(start);
  const last = await start();
  const idleRss = await idleRssMb(last);
  await stop(last);
  const startupMs = median([...earlier, last.startupMs]);
  record({
    name: 'start-up to first 200, empty store, from the code a CI suite’s run kept',
    value: startups(earlier, last),
    target: '≤ 300 ms',
    met: startupMs <= 300,
  });
  record({ name: 'resident memory, idle, empty store, from the code a CI suite’s run kept', value: `${idleRss} MB`, target: '≤ 100 MB', met: idleRss <= 100 });
  const warmMs = median(warm.map((run) => run.ms));
  const coldMs = median(cold.map((run) => run.ms));
  record({
    name: `CI suite, ${cold[0]?.calls.length} requests over every area: a fresh server’s run against the same run warm`,
    value: `${Math.round(coldMs)} ms (median of ${COLD_SUITE_RUNS} fresh servers: ${cold.map((run) => Math.round(run.ms)).join(', ')}; start to last answer ${Math.round(median(startToLastAnswer))} ms; on a machine's first run ${Math.round(firstRun.ms)} ms)`,
    baseline: `warm: ${Math.round(warmMs)} ms (median of ${WARM_SUITE_RUNS})`,
    ratio: coldMs / warmMs,
    target: '≤ 1.3× the warm run',
    met: coldMs <= 1.3 * warmMs,
  });
  for (const first of firstCallsByArea(cold, warm)) {
    record({
      name: `CI suite, first call of ${first.area} (\`${first.operationId}\`${first.decodesImages ? ', decodes an image' : ''})`,
      value: `${tenths(first.firstMs)} ms (median of ${first.eachMs.map(tenths).join(', ')})`,
      baseline: `warm: ${tenths(first.warmMs)} ms`,
      // An image's first decode starts the decoder's threads and loads libvips in them: reported, not judged (image decoding aside).
      target: first.decodesImages ? 'none (image decoding aside)' : `≤ warm + ${FIRST_CALL_ALLOWANCE_MS} ms`,
      met: first.decodesImages || first.firstMs <= first.warmMs + FIRST_CALL_ALLOWANCE_MS,
    });
  }
}

/** Creates a session on a server and gives its id (a record to read there). */
async function createdId(server: Server): Promise<string> {
  const created = await fetchJson(server, create);
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${created.text}`);
  return (JSON.parse(created.text) as { id: string }).id;
}

const BURST_SECONDS = 1;
const BURSTS = 2 * SECONDS;
const PAIRS = Math.max(1, Number(process.env.BENCH_PAIRS ?? 3));
/**
 * The coverage rows' bar is 5 % below par, where two processes of one build measure up to a fifth apart:
 * with PAIRS pairs these rows read 0.85-1.08 in runs of one build, so they share their rounds among three
 * times as many pairs.
 */
const COVERAGE_PAIRS = 3 * PAIRS;

/** One side of a comparison: how to start a fresh server of its kind, and the request loaded on it. */
interface Contender {
  start: () => Promise<Server>;
  /** Given the fresh server (a record to read may have to be created there first). */
  request: (server: Server) => Request | Promise<Request>;
  /** Untimed requests before its first burst (default WARMUP_REQUESTS). */
  warmup?: number;
}

/**
 * Two loads compared, both servers running at once (on the same core), in short bursts taken in turn
 * (a, b, b, a, …) for twice as long in all as one case, so that the drift of a shared machine falls on
 * both alike: two 5 s runs one after the other swing by 10-25 % here, more than most differences measured.
 * The rounds are shared among `pairs` fresh pairs of servers (PAIRS unless a row asks for more), each pair started, warmed and stopped in turn:
 * two processes of one build settle into their own compiled code and heap and measure up to a fifth apart
 * for their whole life, which no number of rounds on one pair averages out.
 * Each side sums its bursts: rate and CPU per request over all of them, the median burst's p50 and p99, the
 * largest max and peak memory. The ratio is the median of each round's a/b rate ratio (a round being one
 * burst of each, taken one after the other): a collection or a neighbour's spike that hits one burst moves
 * a sum by several per cent, and the median not at all.
 */
async function alternated(a: Contender, b: Contender, pairs = PAIRS): Promise<{ a: Figures; b: Figures; ratio: number }> {
  const bursts: [Figures[], Figures[]] = [[], []];
  const roundsPerPair = Math.max(1, Math.ceil(BURSTS / pairs));
  for (let pair = 0; pair < pairs; pair += 1) {
    // One after the other: two starts at once on one core would slow each other.
    const servers = [await a.start(), await b.start()] as const;
    try {
      const sides = [
        { server: servers[0], request: await a.request(servers[0]) },
        { server: servers[1], request: await b.request(servers[1]) },
      ] as const;
      // Warmed up, then two bursts each untimed. The first burst after a warm-up runs on still-growing heaps;
      // and every burst opens new connections, of which a process's third set deoptimizes Node's own
      // connection code (EventEmitter's emit and its listener checks meet shapes they had not seen), which V8
      // optimizes again within half a second: that burst's p99 was twice the later ones' (`--trace-deopt`,
      // the sandbox and bare Hono alike), and from the fourth set on no deoptimization happens.
      for (const [index, side] of sides.entries()) {
        await load(side.server, side.request, CONNECTIONS, [a, b][index]?.warmup ?? WARMUP_REQUESTS, BURST_SECONDS);
        await load(side.server, side.request, CONNECTIONS, 0, BURST_SECONDS);
      }
      for (let round = 0; round < roundsPerPair; round += 1) {
        for (const index of (pair + round) % 2 === 0 ? [0, 1] : [1, 0]) {
          const side = sides[index as 0 | 1];
          bursts[index as 0 | 1].push(await load(side.server, side.request, CONNECTIONS, 0, BURST_SECONDS));
        }
      }
    } finally {
      await Promise.all(servers.map((server) => stop(server)));
    }
  }
  const rounds = bursts[0].map((burst, i) => ratio(burst.rps, bursts[1][i]?.rps ?? 0));
  return { a: summed(bursts[0]), b: summed(bursts[1]), ratio: median(rounds) };
}

/** Bursts of BURST_SECONDS each, as one run. */
function summed(bursts: readonly Figures[]): Figures {
  const requests = bursts.map((f) => f.rps * BURST_SECONDS);
  const total = requests.reduce((a, b) => a + b, 0);
  return {
    rps: roundRate(total / (bursts.length * BURST_SECONDS)),
    p50: tenths(median(bursts.map((f) => f.p50))),
    p99: tenths(median(bursts.map((f) => f.p99))),
    max: Math.max(...bursts.map((f) => f.max)),
    failures: bursts.reduce((sum, f) => sum + f.failures, 0),
    peakRssMb: Math.max(...bursts.map((f) => f.peakRssMb)),
    cpuMsPerRequest: total === 0 ? 0 : Math.round((bursts.reduce((sum, f, i) => sum + f.cpuMsPerRequest * (requests[i] ?? 0), 0) / total) * 1000) / 1000,
  };
}

/**
 * The image rows' pictures, written to `work` for the jimp reference: two 1-megapixel JPEGs (896x1120) of one
 * generated face at quality 90 and 70 (a match), a synthetic passport enlarged to about one megapixel
 * (1224x816, quality 90), and a 12-megapixel phone selfie (3024x4032, quality 88 with sensor noise).
 */
async function benchPictures(work: string): Promise<Record<'faceQ90' | 'faceQ70' | 'passport' | 'selfie', string>> {
  const { drawSyntheticDocument, drawSyntheticFace, encodeImage, phonePhotoJpeg } = await import('../src/images/synthetic-images.ts');
  const face = drawSyntheticFace('bench-megapixel-face', 896, 1120);
  const card = await drawSyntheticDocument('passport', 'bench-megapixel-passport', drawSyntheticFace('bench-megapixel-passport'));
  card.resize({ w: 1224, h: 816 });
  const bytes = {
    faceQ90: await encodeImage(face, 'jpeg', { quality: 90 }),
    faceQ70: await encodeImage(face, 'jpeg', { quality: 70 }),
    passport: await encodeImage(card, 'jpeg', { quality: 90 }),
    selfie: await phonePhotoJpeg('bench-phone-selfie', 3024, 4032),
  };
  const paths = {} as Record<keyof typeof bytes, string>;
  for (const [name, picture] of Object.entries(bytes) as [keyof typeof bytes, Buffer][]) {
    paths[name] = join(work, `${name}.jpg`);
    writeFileSync(paths[name], picture);
  }
  return paths;
}

/** A JSON request of image operation `path`, each image field the base64 of a picture file. */
function jsonImageRequest(path: string, images: Record<string, string>, fields: Record<string, string> = {}): Request {
  const encoded = Object.fromEntries(Object.entries(images).map(([name, file]) => [name, readFileSync(file).toString('base64')]));
  return { method: 'POST', path, headers: LIVE, body: JSON.stringify({ ...encoded, ...fields }) };
}

/** jimp's default decoding of the same pictures, in a process of its own: the baseline of an image row. */
function jimpDecoding(runs: number, ...files: string[]): string {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/jimp-decoding.ts', String(runs), ...files], { cwd: ROOT, encoding: 'utf8' });
  const { p50Ms, peakRssMb } = JSON.parse(out) as { p50Ms: number; peakRssMb: number };
  return `jimp default decoding: p50 ${p50Ms} ms, peak RSS ${peakRssMb} MB`;
}

await main();
