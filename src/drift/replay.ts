/**
 * Replays a recording, in order, against a fresh in-process sandbox in a namespace of its own: the
 * recorded API key stands for a fixture key of the same kind, ids follow the run (id-map.ts), and the
 * namespace's clock follows the recorded timestamps so jobs and expiries progress as they did.
 */
import { changeClock } from '../control/control.service.ts';
import { clockRangeProblem } from '../platform/clock/virtual-clock.ts';
import { createSandbox, type Sandbox } from '../sandbox.ts';
import type { Exchange } from './recording.ts';
import { clientOperationsOf, keyMapping, parsed, type ReplayResult, Replayer, type SendToSandbox } from './replayer.ts';
import { personalValues } from './mask.ts';

export const DRIFT_NAMESPACE = 'drift-check';

export interface ReplayOptions {
  /** The sandbox's seed (default 1): its values differ from the recording's anyway, only shapes compare. */
  seed?: number;
}

/** A recorded time the clock can take; another (unparsable, or past the clock's range) is not followed. */
const validInstant = (at: string | undefined) => {
  const ms = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(ms) || clockRangeProblem(ms) ? undefined : new Date(ms);
};

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
