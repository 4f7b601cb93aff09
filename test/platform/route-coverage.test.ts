/**
 * The route-coverage check that ends a whole-suite run (test/helpers/response-coverage.setup.ts): what it
 * requires, how it reads the test processes' records, and that a record missing one pair fails naming it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FILE_PREFIX, PAIR_PREFIX } from '../helpers/response-coverage.ts';
import { isWholeSuite, missingPairsReport, readRecords, requiredPairs } from '../helpers/response-coverage.setup.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

describe('the route-coverage check', () => {
  it('requires each declared 2xx and 4xx but the shared body refusals, and the control plane’s own statuses only', async () => {
    const required = (await requiredPairs()).map(({ pair }) => pair);
    expect(required).toEqual(
      expect.arrayContaining(['listSessions 200', 'listSessions 400', 'checkCarrierAgeGate 404', 'getAgeBoundaries 403', 'saveTransactions 429']),
    );
    // Not declared: a list of one's own organization answers no 403.
    expect(required).not.toContain('listSessions 403');
    // Shared refusals, tested once on representative routes: not required route by route.
    expect(required.filter((pair) => / 41[35]$/.test(pair))).toEqual([]);
    expect(required).toContain('sandboxReset 200');
    expect(required).not.toContain('sandboxReset 401');
    // 5xx are not required.
    expect(required.filter((pair) => / 5\d\d$/.test(pair))).toEqual([]);
  });

  it('fails naming the operation, status and route of a pair no test process recorded, and passes once one did', async () => {
    const required = await requiredPairs();
    const [unreached, ...reached] = required;
    const directory = temporaryDirectory('route-coverage-');
    // Two test processes, each appending what it met (and the files it ran) to its own file.
    const half = Math.floor(reached.length / 2);
    const lines = (pairs: typeof reached) => pairs.map(({ pair }) => `${PAIR_PREFIX}${pair}\n`).join('');
    writeFileSync(join(directory, '101-1.txt'), `${FILE_PREFIX}${fileURLToPath(new URL('../a.test.ts', import.meta.url))}\n${lines(reached.slice(0, half))}`);
    writeFileSync(join(directory, '102-1.txt'), lines(reached.slice(half)));

    const record = readRecords(directory);
    expect(record.files).toEqual(new Set(['test/a.test.ts']));
    expect(record.pairs.size).toBe(reached.length);
    const report = missingPairsReport(required, record.pairs);
    expect(report).toBe(
      `Route coverage: no test reached 1 declared status (operationId, status, route). Add a test that gets each answer, or remove a status its route can never answer (only when the spec does not list it):\n  ${unreached?.pair.padEnd(48)} ${unreached?.route}`,
    );

    writeFileSync(join(directory, '103-1.txt'), lines(required.slice(0, 1)));
    expect(missingPairsReport(required, readRecords(directory).pairs)).toBeUndefined();
  });

  it('checks only a run of the whole suite: every file ran and no test-name filter', () => {
    const suite = ['test/a.test.ts', 'test/b.test.ts'];
    expect(isWholeSuite(suite, new Set(suite), undefined)).toBe(true);
    expect(isWholeSuite(suite, new Set(['test/a.test.ts']), undefined)).toBe(false);
    expect(isWholeSuite(suite, new Set(suite), /statuses/)).toBe(false);
  });
});
