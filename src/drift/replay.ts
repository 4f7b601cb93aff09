/**
 * Replays a recording, in order, against a fresh in-process sandbox in a namespace of its own: the
 * recorded API key stands for a fixture key of the same kind, ids follow the run (id-map.ts), and the
 * namespace's clock follows the recorded timestamps so jobs and expiries progress as they did.
 */
import { changeClock } from '../control/control.service.ts';
import { clockRangeProblem } from '../platform/clock/virtual-clock.ts';
import { createSandbox, type Sandbox } from '../sandbox.ts';
import { type Answer, compareAnswers, type Difference } from './compare.ts';
import { IdMap } from './id-map.ts';
import { maskedPath, personalValues, shownValue } from './mask.ts';
import { type Operation, operationOf } from './operations.ts';
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

/**
 * The fixture key a recorded key stands for. Live keys by order of first use: the first is the demo
 * organization's, a second the other organization's (so a recorded 403 across organizations replays);
 * sandbox keys the demo sandbox key; a key the recording only ever saw refused (401) the revoked key.
 */
export function keyMapping(exchanges: readonly Exchange[]): Map<string, string> {
  const answers = new Map<string, number[]>();
  for (const { request, response } of exchanges) {
    const key = request.headers['x-api-key'];
    if (key !== undefined) answers.set(key, [...(answers.get(key) ?? []), response.status]);
  }
  const mapping = new Map<string, string>();
  const liveKeys = ['sk_live_demo', 'sk_live_other'];
  let live = 0;
  for (const [key, statuses] of answers) {
    if (statuses.every((status) => status === 401)) mapping.set(key, 'sk_live_revoked');
    else if (key.startsWith('sk_test_')) mapping.set(key, 'sk_test_demo');
    else mapping.set(key, liveKeys[Math.min(live++, liveKeys.length - 1)] as string);
  }
  return mapping;
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
  const ids = new IdMap();
  const clock: { at?: Date } = {};
  const result: ReplayResult = { replayed: [], unserved: [] };
  try {
    for (const exchange of exchanges) {
      const { request } = exchange;
      const target = ids.rewriteUrl(request.url);
      const path = target.split('?')[0] ?? target;
      const operation = operationOf(request.method, path);
      if (!operation) {
        result.unserved.push({ number: exchange.number, method: request.method, path: maskedPath(new URL(request.url, 'http://recording.invalid').pathname) });
        continue;
      }
      const at = validInstant(exchange.startedAt);
      if (at) followClock(sandbox, at, clock);
      const headers: Record<string, string> = { 'x-sandbox-namespace': DRIFT_NAMESPACE };
      for (const [name, value] of Object.entries(request.headers)) if (!DROPPED_HEADERS.has(name) && !name.startsWith(':')) headers[name] = value;
      const key = request.headers['x-api-key'];
      if (key !== undefined) headers['x-api-key'] = keys.get(key) ?? key;
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      let response: Response;
      try {
        response = await sandbox.app.request(target, { method: request.method, headers, ...(hasBody ? { body: requestBody(request.body, ids) } : {}) });
      } catch (error) {
        // Only a request no HTTP client could send gets here (a header value with a line break, say).
        throw new RecordingError(`exchange ${exchange.number} cannot be sent as recorded: ${(error as Error).message}`);
      }
      const answer = await answerOf(response);
      const differences = compareAnswers(exchange.response, answer).map((d) => ({
        ...d,
        recorded: shownValue(d.recorded, personal),
        sandbox: shownValue(d.sandbox, personal),
      }));
      result.replayed.push({ number: exchange.number, operation, differences });
      ids.learn(parsed(exchange.response.body), parsed(answer.body));
    }
  } finally {
    await sandbox.close({ report: false });
  }
  return result;
}
