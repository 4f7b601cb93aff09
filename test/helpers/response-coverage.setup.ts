/**
 * vitest globalSetup: the route-coverage check. Every operation of /openapi.json must have been answered,
 * by some test of the suite, with each 2xx it declares and each 4xx its contract lists; the strict
 * response check of the test sandboxes records what they answered (test/helpers/response-coverage.ts).
 * The check runs at the end of a run of the whole suite (every test file, no name filter): a run of some
 * files checks nothing. A missing pair fails the run and is named: reach it with a test, or, when the
 * route can never answer it and its contract does not list it, remove it from the route's declaration.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { createSandbox } from '../../src/sandbox.ts';
import { FILE_PREFIX, PAIR_PREFIX, RESPONSES_DIR_VARIABLE } from './response-coverage.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Git-ignored; one fresh directory per run. */
const RECORDS_ROOT = join(ROOT, '.test-responses');

/**
 * 4xx a route declares that no test has to reach on that route: the body-size and content-type refusals
 * of the shared body parsing (413, 415), tested on representative routes in test/platform; and on the
 * control plane, its shared admin errors (400 for a bad namespace, 401 admin token, 403 cross-site, 429 too
 * many wrong admin tokens), tested once for the whole surface in test/platform and test/security. Their own 404s and 409s still count.
 */
const SHARED_API_STATUSES = new Set(['413', '415']);
const SHARED_CONTROL_STATUSES = new Set(['400', '401', '403', '413', '415', '429']);

interface OpenApiOperation {
  operationId: string;
  responses: Record<string, unknown>;
  security?: Record<string, unknown>[];
}

/** `operationId status` for every status some test must reach. */
export async function requiredPairs(): Promise<{ pair: string; route: string }[]> {
  const sandbox = await createSandbox({ port: null, memory: true, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  try {
    const document = (await (await sandbox.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const control = operation.security?.some((scheme) => 'AdminToken' in scheme) ?? false;
        const shared = control ? SHARED_CONTROL_STATUSES : SHARED_API_STATUSES;
        return Object.keys(operation.responses)
          .filter((status) => /^2\d\d$/.test(status) || (/^4\d\d$/.test(status) && !shared.has(status)))
          .map((status) => ({ pair: `${operation.operationId} ${status}`, route: `${method.toUpperCase()} ${path}` }));
      }),
    );
  } finally {
    await sandbox.close();
  }
}

/** What the test processes recorded in `directory`: the pairs answered and the test files that ran (relative to the root). */
export function readRecords(directory: string): { pairs: Set<string>; files: Set<string> } {
  const pairs = new Set<string>();
  const files = new Set<string>();
  for (const name of readdirSync(directory)) {
    for (const line of readFileSync(join(directory, name), 'utf8').split('\n')) {
      if (line.startsWith(PAIR_PREFIX)) pairs.add(line.slice(PAIR_PREFIX.length));
      else if (line.startsWith(FILE_PREFIX)) files.add(relative(ROOT, line.slice(FILE_PREFIX.length)));
    }
  }
  return { pairs, files };
}

/** Whether the run was the whole suite: every test file ran, and no name filter skipped tests in them. */
export function isWholeSuite(suite: readonly string[], ran: ReadonlySet<string>, testNamePattern: unknown): boolean {
  return testNamePattern === undefined && suite.every((file) => ran.has(file));
}

/** The failure naming every required pair no test reached, or undefined when each was reached. */
export function missingPairsReport(required: readonly { pair: string; route: string }[], reached: ReadonlySet<string>): string | undefined {
  const missing = required.filter(({ pair }) => !reached.has(pair));
  if (missing.length === 0) return undefined;
  const lines = missing.map(({ pair, route }) => `  ${pair.padEnd(48)} ${route}`);
  return `Route coverage: no test reached ${missing.length} declared status${missing.length > 1 ? 'es' : ''} (operationId, status, route). Add a test that gets each answer, or remove a status its route can never answer (only when the spec does not list it):\n${lines.join('\n')}`;
}

export default function setup(project: TestProject): () => Promise<void> {
  mkdirSync(RECORDS_ROOT, { recursive: true });
  const directory = join(RECORDS_ROOT, `run-${process.pid}`);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory);
  process.env[RESPONSES_DIR_VARIABLE] = directory;

  return async () => {
    try {
      const { pairs, files } = readRecords(directory);
      const suite = (await project.globTestFiles()).testFiles.map((file) => relative(ROOT, file));
      if (!isWholeSuite(suite, files, project.config.testNamePattern)) return;
      const report = missingPairsReport(await requiredPairs(), pairs);
      if (report === undefined) return;
      process.exitCode = 1;
      throw new Error(report);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  };
}
