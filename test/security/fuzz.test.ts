/**
 * Property-based fuzz of every route of /openapi.json (fast-check, seeded). For each generated request:
 * - never a 500 (nor any 5xx: no scenario is active) and never a hang;
 * - every 4xx is JSON with an `error` string;
 * - a refused request (4xx) leaves the store byte-identical (id counters included);
 * - the next valid request of the namespace still succeeds.
 *
 * IDV_FUZZ_RUNS (cases per route, default 25) and IDV_FUZZ_SEED (default 1616) make longer or other
 * runs: `IDV_FUZZ_RUNS=500 npx vitest run test/security/fuzz.test.ts`. It prints the cases per route.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FROZEN_AT, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { RequestArbitraries, type FuzzRequest, type OpenApiDocument } from './request-arbitraries.ts';

const RUNS = Number(process.env.IDV_FUZZ_RUNS ?? 25);
const SEED = Number(process.env.IDV_FUZZ_SEED ?? 1616);
/** Long enough for a cold image decode on a loaded machine; a hang is far longer. */
const HANG_MS = 20_000;

let sandbox: TestSandbox;
let document: OpenApiDocument;
const casesPerRoute = new Map<string, number>();

beforeAll(async () => {
  sandbox = await testSandbox({ rateLimit: false });
  document = (await sandbox.call('GET', '/openapi.json')).body;
});

afterAll(async () => {
  const lines = [...casesPerRoute].map(([route, cases]) => `${String(cases).padStart(6)}  ${route}`);
  console.log(`fuzz: seed ${SEED}, ${[...casesPerRoute.values()].reduce((a, b) => a + b, 0)} cases over ${casesPerRoute.size} routes\n${lines.join('\n')}`);
  await sandbox?.close();
});

const storeBytes = () => JSON.stringify(sandbox.platform.store.partition('fuzz').dump()) + JSON.stringify(sandbox.platform.store.namespaces());

async function send(request: FuzzRequest): Promise<{ status: number; contentType: string; text: string }> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`hang: ${request.method} ${request.path.slice(0, 200)} (${request.label}) did not answer in ${HANG_MS} ms`)),
      HANG_MS,
    );
  });
  try {
    const response = await Promise.race([sandbox.app.request(request.path, { method: request.method, headers: request.headers, body: request.body }), hang]);
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** Puts the fuzz namespace back where a test suite expects it: no scenario on, the frozen clock. */
function restoreNamespace(): void {
  const world = sandbox.platform.worlds.get('fuzz');
  for (const name of sandbox.platform.scenarios.names()) world.scenarios.deactivate(name);
  world.clock.apply({ mode: 'frozen', at: Date.parse(FROZEN_AT) });
}

async function checkCase(request: FuzzRequest): Promise<void> {
  const before = storeBytes();
  const answer = await send(request);
  const what = `${request.method} ${request.path.slice(0, 160)} (${request.label}) answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.contentType, what).toMatch(/^application\/json/);
    expect(typeof (JSON.parse(answer.text) as { error?: unknown }).error, what).toBe('string');
    expect(storeBytes(), `store changed by a refused request: ${what}`).toBe(before);
  }
  // The namespace as the request left it (scenarios and clock included) still answers...
  const health = await sandbox.call('GET', '/healthz', { namespace: 'fuzz' });
  const control = await sandbox.call('GET', '/__sandbox/clock', { namespace: 'fuzz', key: null });
  // ...and, with the scenarios the request may have switched on turned off, so does the API.
  restoreNamespace();
  const api = await sandbox.call('GET', '/v1/sessions', { namespace: 'fuzz' });
  expect([health.status, control.status, api.status], `the next valid request failed after ${what}`).toEqual([200, 200, 200]);
}

describe('fuzz over every route of /openapi.json', () => {
  it('never answers 5xx, always answers 4xx as JSON with error, keeps the store on refusals and keeps serving', async () => {
    const arbitraries = new RequestArbitraries(document);
    const operations = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ template, method: method.toUpperCase(), operation })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(40);
    for (const [index, { template, method, operation }] of operations.entries()) {
      const route = `${method} ${template}`;
      await fc.assert(
        fc.asyncProperty(arbitraries.request(method, template, operation), async (request) => {
          casesPerRoute.set(route, (casesPerRoute.get(route) ?? 0) + 1);
          await checkCase(request);
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
      );
    }
  }, 600_000);
});
