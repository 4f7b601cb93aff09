/**
 * The bench's CI-suite case: what an integrator's test suite meets. The calls are those that record every
 * operation's documented example (scripts/record-openapi-examples.ts): a session driven to an outcome, a
 * workflow session through its steps, an adverse-media job polled to done, face and document operations on
 * fixture photos, a bank statement, iGaming, AML, and the control plane (journal, scenarios, reset) — every
 * area, in the order a suite would call them, against a server over HTTP. The server gets the recording's
 * seed, secret and frozen clock, so each run meets the same data; the suite's last call resets it, so it can
 * run again on the same server (the warm runs).
 */
import { driveOperations } from '../scripts/record-openapi-examples.ts';
import { ROUTE_TABLE } from '../src/routes.generated.ts';

/** The flags `npm start` gets in the suite's CI: the recording's seed, secret and clock, no rate limit. */
export const CI_SUITE_FLAGS = ['--seed', '42', '--secret', 'openapi-examples-recording', '--clock', 'frozen@2026-01-15T09:30:00.000Z', '--no-rate-limit'];

export interface SuiteCall {
  operationId: string;
  area: string;
  /** Whether the operation decodes an image (the route table's `decodesImages`, from its area's capabilities). */
  decodesImages: boolean;
  ms: number;
}

export interface SuiteRun {
  ms: number;
  calls: SuiteCall[];
}

const OPERATIONS = new Map(
  Object.entries(ROUTE_TABLE).flatMap(([area, { operations }]) =>
    operations.map((operation) => [operation.operationId, { area, decodesImages: operation.decodesImages }] as const),
  ),
);

/** The suite once against the server at `url`, each call timed from its request to its answer's last byte. */
export async function runSuite(url: string): Promise<SuiteRun> {
  const calls: SuiteCall[] = [];
  const server = { request: (path: string, init?: RequestInit) => fetch(`${url}${path}`, init) };
  const began = performance.now();
  await driveOperations({
    answering: async () => server,
    advance: async (ms) => {
      const answer = await fetch(`${url}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance: ms }),
      });
      if (!answer.ok) throw new Error(`the clock did not move: ${answer.status} ${await answer.text()}`);
    },
    answered: ({ operationId, ms }) => {
      const operation = OPERATIONS.get(operationId);
      if (operation === undefined) throw new Error(`operation ${operationId} is in no area of the route table`);
      calls.push({ operationId, ...operation, ms });
    },
  });
  return { ms: performance.now() - began, calls };
}

/**
 * Each area's first call: its median over the cold runs (each on a fresh server; where V8's first full
 * collection lands moves a single run's first calls by 10-20 ms), beside the same call's median warm.
 */
export function firstCallsByArea(
  cold: readonly SuiteRun[],
  warm: readonly SuiteRun[],
): { area: string; operationId: string; decodesImages: boolean; firstMs: number; eachMs: number[]; warmMs: number }[] {
  const seen = new Set<string>();
  const out = [];
  for (const [index, call] of (cold[0]?.calls ?? []).entries()) {
    if (seen.has(call.area)) continue;
    seen.add(call.area);
    const eachMs = cold.map((run) => run.calls[index]?.ms ?? Number.NaN);
    const warmMs = median(warm.map((run) => run.calls[index]?.ms ?? Number.NaN));
    out.push({ area: call.area, operationId: call.operationId, decodesImages: call.decodesImages, firstMs: median(eachMs), eachMs, warmMs });
  }
  return out;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
