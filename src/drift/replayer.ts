/**
 * One exchange at a time into a namespace of a sandbox: the recorded key stands for a fixture key of the
 * same kind, ids follow the run (id-map.ts), the answers are compared (compare.ts) and masked (mask.ts).
 * check-recording (replay.ts) drives it over a recording, the shadow mode (shadow.ts) over each request.
 */
import type { Platform } from '../platform/platform.ts';
import { type Answer, compareAnswers, type Difference } from './compare.ts';
import { documentedGuess } from './guesses.ts';
import { IdMap } from './id-map.ts';
import { maskedPath, personalValues, shownValue } from './mask.ts';
import { type Operation, operationName, operationOf } from './operations.ts';
import { type Exchange, RecordingError } from './recording.ts';

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

export function parsed(body: string | Uint8Array | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
  } catch {
    return undefined;
  }
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

/** The catalog's operations from the real client (read once a difference needs them: the first read loads every area). */
export const clientOperationsOf = async (platform: Platform) => (await platform.catalog.list('clientOperations')).map((entry) => entry.endpoint);
