/**
 * The gate, through the real CLI: on SIGTERM the process writes --coverage-out and exits 1 listing the
 * classes missed when --require-coverage is not met, 0 when it is. `coverage init` writes a starter list.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGate, parseRequirement } from '../../src/platform/coverage/coverage-gate.ts';
import { runCli, startCli } from '../helpers/cli-process.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';
import { junitSchemaErrors } from './junit-schemas.ts';

async function stop(run: Awaited<ReturnType<typeof startCli>>): Promise<number | null> {
  run.child.kill('SIGTERM');
  return run.exited;
}

describe('--require-coverage', () => {
  it('exits 1 with the summary per area and the path of the full report when the percentage is not met', { timeout: 60_000 }, async () => {
    const dir = temporaryDirectory();
    const out = join(dir, 'reports', 'coverage.xml');
    const run = await startCli(['--memory', '--require-coverage', '50', '--coverage-out', out]);
    const answer = await fetch(`${run.url}/v1/auth/verify`, { headers: { 'x-api-key': 'sk_live_demo' } });
    expect(answer.status).toBe(200);
    expect(await stop(run)).toBe(1);
    expect(run.output()).toMatch(/coverage 0\.\d+% \(1 of \d+ classes\) < required 50%: gate not met\. Per area:/);
    expect(run.output()).toMatch(/\nidv-sandbox: {3}auth +█{5}░{15} +1 of 4 {2}25%\n/);
    expect(run.output()).toMatch(/\nidv-sandbox: {3}every operation +░{20} +0 of \d+ {2}0%\n/);
    expect(run.output()).toContain(`Every class never hit, with how to trigger it: ${out}`);
    // A line per area, not per class: the catalog's 800 classes stay in the report.
    expect(run.output()).not.toContain('scenario rate-limited');
    const gate = run.output().slice(run.output().indexOf('gate not met'));
    expect(gate.trim().split('\n').length).toBeLessThan(30);
    const junit = readFileSync(out, 'utf8');
    expect(junit).toContain('<testcase classname="coverage.status" name="status GET /v1/auth/verify 200" time="0"/>');
    expect(await junitSchemaErrors(junit, 'jenkins')).toEqual([]);
    expect(await junitSchemaErrors(junit, 'ant')).toEqual([]);
  });

  it('exits 0 when every class of the file is hit', { timeout: 60_000 }, async () => {
    const dir = temporaryDirectory();
    const required = join(dir, 'required.txt');
    writeFileSync(required, '# what our client handles\nstatus GET /v1/auth/verify 200\nstatus GET /v1/sessions/{id} 404  # a session that is gone\n');
    const out = join(dir, 'coverage.md');
    const run = await startCli(['--memory', '--require-coverage', required, '--coverage-out', out]);
    await fetch(`${run.url}/v1/auth/verify`, { headers: { 'x-api-key': 'sk_live_demo' } });
    await fetch(`${run.url}/v1/sessions/gone`, { headers: { 'x-api-key': 'sk_live_demo', 'x-sandbox-namespace': 'worker-2' } });
    expect(await stop(run)).toBe(0);
    expect(run.output()).toContain(`2 of the 2 classes required by ${required} hit: gate met`);
    expect(readFileSync(out, 'utf8')).toContain('# Integration coverage (all namespaces)');
  });

  it('refuses to start with a spec that is neither a percentage nor a readable file', async () => {
    const run = runCli(['--memory', '--port', '0', '--require-coverage', 'no-such-file.txt']);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('--require-coverage no-such-file.txt: neither a percentage nor a readable file (ENOENT)');
  });
});

describe('checkGate', () => {
  const report = {
    namespace: '*',
    classes: 3,
    hitCount: 1,
    percent: 33.3,
    areas: [{ area: 'every operation', classes: 3, hit: 1, percent: 33.3 }],
    operations: [],
    hit: [{ id: 'a', kind: 'status' as const, area: 'every operation', title: 'a', count: 1, firstRequestId: 'r1', lastRequestId: 'r1', byKey: {} }],
    missed: [
      { id: 'b', kind: 'status' as const, area: 'every operation', title: 'b', how: 'do b' },
      { id: 'c', kind: 'status' as const, area: 'every operation', title: 'c', how: 'do c' },
    ],
  };

  it('names the classes of the file never hit and those the sandbox does not have', () => {
    const gate = checkGate(
      report,
      parseRequirement('list.txt', () => 'a\nb\n# c\nzz\n'),
    );
    expect(gate).toEqual({
      met: false,
      lines: [
        '1 of the 3 classes required by list.txt hit: gate not met.',
        'Never hit:',
        '  - b: do b',
        'Not classes of this sandbox (a typo, or a class that no longer exists):',
        '  - zz',
      ],
    });
  });

  it('meets a percentage at or under the one reached, and refuses one over 100', () => {
    expect(
      checkGate(
        report,
        parseRequirement('33.3%', () => ''),
      ).met,
    ).toBe(true);
    expect(
      checkGate(
        report,
        parseRequirement('34', () => ''),
      ).met,
    ).toBe(false);
    expect(() => parseRequirement('101', () => '')).toThrow('a percentage is at most 100');
    expect(() => parseRequirement('empty.txt', () => '# nothing\n')).toThrow('the file lists no class');
  });
});

describe('idv-sandbox coverage init', () => {
  it('writes a starter list from the catalog, and never over an existing file', { timeout: 60_000 }, async () => {
    const dir = temporaryDirectory();
    const file = join(dir, 'required.txt');
    const first = runCli(['coverage', 'init', file]);
    expect(await first.exited).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\nerror-code BOT_CADENCE_INVALID\n');
    expect(text).toContain('\nmagic-value POST /v1/screening/phone-trust phone +447700900003\n');
    expect(text).toContain('\n# status GET /v1/auth/verify 200\n');
    const again = runCli(['coverage', 'init', file]);
    expect(await again.exited).toBe(1);
    expect(again.output()).toContain('exists; edit it, or delete it to start again');
    expect(existsSync(file)).toBe(true);
  });
});
