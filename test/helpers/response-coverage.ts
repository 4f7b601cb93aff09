/**
 * Which (operationId, status) pairs the suite's sandboxes answered, for the route-coverage check that
 * runs when the whole suite ends (test/helpers/response-coverage.setup.ts). Each test process appends
 * what it meets for the first time to its own file in the run's directory (the pairs, and the test files
 * that ran), so the record is the same whatever the order of the files and however vitest spreads them
 * over processes.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** Set by the global setup for the test processes: the directory of this run's records. */
export const RESPONSES_DIR_VARIABLE = 'IDV_SANDBOX_TEST_RESPONSES_DIR';

export const PAIR_PREFIX = 'answered ';
export const FILE_PREFIX = 'ran ';

const seen = new Set<string>();

function append(line: string): void {
  const directory = process.env[RESPONSES_DIR_VARIABLE];
  if (!directory || seen.has(line)) return;
  seen.add(line);
  appendFileSync(join(directory, `${process.pid}-${threadId}.txt`), `${line}\n`);
}

export function recordExercisedResponse(operationId: string, status: number): void {
  append(`${PAIR_PREFIX}${operationId} ${status}`);
}

export function recordTestFile(path: string): void {
  append(`${FILE_PREFIX}${path}`);
}
