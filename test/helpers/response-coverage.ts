/**
 * Which (operationId, status) pairs the suite's sandboxes answered, for the route-coverage check that
 * runs once the whole suite ends (test/helpers/response-coverage.setup.ts). Each test process appends the
 * pairs it meets for the first time to its own file in the run's directory, so the record is the same
 * whatever the order of the files and however vitest spreads them over processes.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** Set by the global setup for the test processes: the directory of this run's records. */
export const RESPONSES_DIR_VARIABLE = 'IDV_SANDBOX_TEST_RESPONSES_DIR';

const seen = new Set<string>();

export function recordExercisedResponse(operationId: string, status: number): void {
  const directory = process.env[RESPONSES_DIR_VARIABLE];
  const pair = `${operationId} ${status}`;
  if (!directory || seen.has(pair)) return;
  seen.add(pair);
  appendFileSync(join(directory, `${process.pid}-${threadId}.txt`), `${pair}\n`);
}
