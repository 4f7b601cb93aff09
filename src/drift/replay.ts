/**
 * Replays a recording, in order, against a fresh in-process sandbox in a namespace of its own: the
 * recorded API key stands for a fixture key of the same kind, ids follow the run (id-map.ts), and the
 * namespace's clock follows the recorded timestamps so jobs and expiries progress as they did.
 */
import { changeClock } from '../control/control.service.ts';
import { clockRangeProblem } from '../platform/clock/virtual-clock.ts';
import type { Platform } from '../platform/platform.ts';
import { createSandbox, type Sandbox } from '../sandbox.ts';
import { type Answer, compareAnswers, type Difference } from './compare.ts';
import { IdMap } from './id-map.ts';
import { maskedPath, personalValues, shownValue } from './mask.ts';
import { documentedGuess } from './guesses.ts';
import { type Operation, operationName, operationOf } from './operations.ts';
import { type Exchange, RecordingError } from './recording.ts';

export const DRIFT_NAMESPACE = 'drift-check';

export interface ReplayedExchange {
  number: number;
  operation: Operation;
  differences: Difference[];
}

export interface UnservedExchange {
  number: number;
  method: string;
  /** The recorded path with every segment that may be data hashed (mask.ts). */
  path: string;
}

export interface ReplayResult {
  replayed: ReplayedExchange[];
  unserved: UnservedExchange[];
}

export interface ReplayOptions {
  /** The sandbox's seed (default 1): its values differ from the recording's anyway, only shapes compare. */
  seed?: number;
}

/** Request headers the sandbox is not given: the transport's, the browser's session, and the key (mapped apart). */
const DROPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'cookie', 'transfer-encoding', 'x-api-key', 'x-sandbox-namespace']);

const LIVE_FIXTURE_KEYS = ['sk_live_demo', 'sk_live_other'];

/**
 * The fixture key a recorded key stands for, decided when the key is first seen. Live keys by order of
 * first use: the first is the demo organization's, a second the other organization's (so a recorded 403
 * across organizations replays); sandbox keys the demo sandbox key; a key the service refused (401) the
 * revoked key.
 */
export class KeyMapper {
  readonly #keys = new Map<string, string>();
  #live = 0;

  fixtureKey(key: string, refused: boolean): string {
    let mapped = this.#keys.get(key);
    if (mapped === undefined) {
      if (refused) mapped = 'sk_live_revoked';
      else if (key.startsWith('sk_test_')) mapped = 'sk_test_demo';
      else mapped = LIVE_FIXTURE_KEYS[Math.min(this.#live++, LIVE_FIXTURE_KEYS.length - 1)] as string;
      this.#keys.set(key, mapped);
    }
    return mapped;
  }
}

/** A whole recording's keys: a key counts as refused when the recording only ever saw it refused (401). */
export function keyMapping(exchanges: readonly Exchange[]): Map<string, string> {
  const answers = new Map<string, number[]>();
  for (const { request, response } of exchanges) {
    const key = request.headers['x-api-key'];
    if (key !== undefined) answers.set(key, [...(answers.get(key) ?? []), response.status]);
  }
  const mapper = new KeyMapper();
  return new Map(
    [...answers].map(([key, statuses]) => [
      key,
      mapper.fixtureKey(
        key,
        statuses.every((status) => status === 401),
      ),
    ]),
  );
}

/** A recorded time the clock can take; another (unparsable, or past the clock's range) is not followed. */
const validInstant = (at: string | undefined) => {
  const ms = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(ms) || clockRangeProblem(ms) ? undefined : new Date(ms);
};

function requestBody(body: string | Uint8Array | undefined, ids: IdMap): string | Uint8Array | undefined {
  if (typeof body !== 'string') return body;
  try {
    return JSON.stringify(ids.rewriteJson(JSON.parse(body)));
  } catch {
    return body;
  }
}

async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

function parsed(body: string | Uint8Array | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Moves the namespace's clock to the recorded instant, never back (a recording's clock is not monotonic across hosts). */
function followClock(sandbox: Sandbox, at: Date, last: { at?: Date }): void {
  if (last.at && at <= last.at) return;
  last.at = at;
  // The control plane's own verb, without a request's round trip: a recording is thousands of them.
  changeClock(sandbox.platform.worlds.get(DRIFT_NAMESPACE), { set: at.toISOString(), freeze: true });
}

/** How the replayed request reaches the sandbox: a path with its query, and the request's init. */
export type SendToSandbox = (target: string, init: RequestInit) => Promise<Response>;

/**
 * Replays exchanges one at a time, in order, into a namespace of a sandbox, keeping what the run has
 * learnt (ids) and what it found (the result). check-recording drives it over a recording; the shadow
 * mode over each request it forwards.
 */
export class Replayer {
  readonly result: ReplayResult = { replayed: [], unserved: [] };
  readonly #ids = new IdMap();

  /**
   * `personal`: values the report must hash, grown with each exchange's own; `clientOperations`: the
   * operations of the catalog the reference does not describe (their differences are documented guesses).
   */
  constructor(
    private readonly namespace: string,
    private readonly personal: Set<string>,
    private readonly clientOperations: () => Promise<Iterable<string>>,
  ) {}

  /** The operation the sandbox serves for the recorded request, its URL rewritten to the run's ids; else the exchange is listed as not served. */
  operationOf(exchange: Exchange): { operation: Operation; target: string } | undefined {
    const { request } = exchange;
    const target = this.#ids.rewriteUrl(request.url);
    const operation = operationOf(request.method, target.split('?')[0] ?? target);
    if (operation) return { operation, target };
    this.result.unserved.push({ number: exchange.number, method: request.method, path: maskedPath(new URL(request.url, 'http://recording.invalid').pathname) });
    return undefined;
  }

  /** Sends the exchange's request with `key` in place of the recorded one, and compares the answers. */
  async replay(exchange: Exchange, served: { operation: Operation; target: string }, key: string | undefined, send: SendToSandbox): Promise<void> {
    const { request } = exchange;
    const headers: Record<string, string> = { 'x-sandbox-namespace': this.namespace };
    for (const [name, value] of Object.entries(request.headers)) if (!DROPPED_HEADERS.has(name) && !name.startsWith(':')) headers[name] = value;
    if (key !== undefined) headers['x-api-key'] = key;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    let response: Response;
    try {
      response = await send(served.target, { method: request.method, headers, ...(hasBody ? { body: requestBody(request.body, this.#ids) } : {}) });
    } catch (error) {
      // Only a request no HTTP client could send gets here (a header value with a line break, say).
      throw new RecordingError(`exchange ${exchange.number} cannot be sent as recorded: ${(error as Error).message}`);
    }
    const answer = await answerOf(response);
    const recordedBody = parsed(exchange.response.body);
    for (const value of personalValues([parsed(request.body), recordedBody])) this.personal.add(value);
    const name = operationName(served.operation);
    const found = compareAnswers(exchange.response, answer);
    const clientOperations = found.length === 0 ? new Set<string>() : new Set(await this.clientOperations());
    const differences = found.map((d) => {
      const guess = documentedGuess(clientOperations, name, d.kind, d.path);
      return { ...d, recorded: shownValue(d.recorded, this.personal), sandbox: shownValue(d.sandbox, this.personal), ...(guess ? { guess } : {}) };
    });
    this.result.replayed.push({ number: exchange.number, operation: served.operation, differences });
    this.#ids.learn(recordedBody, parsed(answer.body));
  }
}

export async function replay(exchanges: readonly Exchange[], options: ReplayOptions = {}): Promise<ReplayResult> {
  const first = exchanges.map((e) => validInstant(e.startedAt)).find((at) => at !== undefined);
  const sandbox = await createSandbox({
    port: null,
    memory: true,
    seed: options.seed ?? 1,
    clock: first ? `frozen@${first.toISOString()}` : 'frozen',
    coverage: false,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const keys = keyMapping(exchanges);
  const personal = personalValues(exchanges.flatMap((e) => [parsed(e.request.body), parsed(e.response.body)]));
  const replayer = new Replayer(DRIFT_NAMESPACE, personal, () => clientOperationsOf(sandbox.platform));
  const send: SendToSandbox = async (target, init) => sandbox.app.request(target, init);
  const clock: { at?: Date } = {};
  try {
    for (const exchange of exchanges) {
      const served = replayer.operationOf(exchange);
      if (!served) continue;
      const at = validInstant(exchange.startedAt);
      if (at) followClock(sandbox, at, clock);
      const key = exchange.request.headers['x-api-key'];
      await replayer.replay(exchange, served, key === undefined ? undefined : (keys.get(key) ?? key), send);
    }
  } finally {
    await sandbox.close({ report: false });
  }
  return replayer.result;
}

/** The catalog's operations from the real client (read once a difference needs them: the first read loads every area). */
export const clientOperationsOf = async (platform: Platform) => (await platform.catalog.list('clientOperations')).map((entry) => entry.endpoint);
