/**
 * `npm run bench`: throughput and latency of the sandbox on this machine, with autocannon against a real
 * socket. Figures go in issue notes; no test asserts on them.
 *
 *   BENCH_SECONDS=5 npm run bench            (default 5 s per case)
 *   npm run bench -- openapi verify writes   (choose cases)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createSandbox, type Sandbox } from '../src/sandbox.ts';
import { benchCases, type BenchCase } from './cases.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const quiet = { info: () => undefined, warn: () => undefined, error: (m: string, e?: unknown) => console.error(m, e) };

async function measure(sandbox: Sandbox, bench: BenchCase) {
  const prepared = await bench.prepare?.(sandbox);
  const result = await autocannon({
    url: sandbox.url,
    connections: bench.connections ?? 10,
    duration: seconds,
    requests: [prepared?.request ?? bench.request ?? { method: 'GET', path: '/healthz' }],
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${bench.name.padEnd(46)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms` +
      (failures ? `   (${failures} non-2xx/errors)` : ''),
  );
}

async function main() {
  const chosen = process.argv.slice(2);
  const cases = benchCases.filter((c) => chosen.length === 0 || chosen.some((name) => c.name.includes(name)));
  console.log(`idv-sandbox bench: ${seconds} s per case, Node ${process.version}\n`);
  for (const bench of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'idv-bench-'));
    const sandbox = await createSandbox({
      port: 0,
      memory: !bench.fileStore,
      data: join(dir, 'store.json'),
      rateLimit: false,
      clock: 'real',
      logger: quiet,
    });
    try {
      await measure(sandbox, bench);
    } finally {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

void main();
