/**
 * A real full disk: the CLI's data directory on a size-limited tmpfs, filled by another file. Appends are
 * refused with 507 and no torn line, /healthz says degraded, a compaction that cannot write its snapshot
 * leaves no temporary file and the process serving, writes work again once the filler is removed, and a
 * restart finds every acknowledged write. Mounting needs root (CI runs as root): skipped otherwise.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCli } from '../helpers/cli-process.ts';
import { countFound, postJob } from '../helpers/keep-alive-traffic.ts';

const isRoot = process.getuid?.() === 0;
const rounds = process.env.IDV_SANDBOX_LONG_FAULTS ? 5 : 1;
let mountPoint = '';
let mountProblem: string | undefined;

beforeAll(() => {
  if (!isRoot) return;
  mountPoint = mkdtempSync(join(tmpdir(), 'idv-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (error) {
    mountProblem = `mount -t tmpfs failed: ${(error as Error).message.split('\n')[0]}`;
  }
});

afterAll(() => {
  if (!mountPoint) return;
  if (!mountProblem) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system with one file, leaving about `leaveBytes` free. */
function fill(path: string, leaveBytes: number): void {
  const free = Number(execFileSync('df', ['--output=avail', '-B1', mountPoint]).toString().trim().split('\n')[1]);
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let left = free - leaveBytes; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, left));
  } catch {
    // full already: that is the point
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!isRoot)('a real full disk (tmpfs, as root)', { timeout: 180_000 }, () => {
  it('refuses appends with 507, survives a failed compaction, writes again once space is freed, and a restart finds every acknowledged write', async (context) => {
    if (mountProblem) context.skip(mountProblem);
    const directory = mkdtempSync(join(mountPoint, 'data-'));
    const file = join(directory, 'store.json');
    const filler = join(mountPoint, 'filler');
    const cli = await startCli(['--data', file, '--no-rate-limit'], { IDV_SANDBOX_COMPACT_AFTER_BYTES: '65536' });
    const acknowledged: string[] = [];
    try {
      const agent = new Agent({ keepAlive: true });
      let n = 0;
      const create = async (pad = 'x'.repeat(2000)) => {
        const answer = await postJob(cli.url, agent, n++, pad);
        if (answer.status === 201) acknowledged.push((JSON.parse(answer.body) as { jobId: string }).jobId);
        return answer;
      };
      for (let i = 0; i < 150; i++) expect((await create()).status).toBe(201);

      for (let round = 0; round < rounds; round++) {
        // Room for a few appends, not for a snapshot of the ~300 KB store: compactions fail, appends go on.
        fill(filler, 96 * 1024);
        const statuses: number[] = [];
        for (let i = 0; i < 60; i++) statuses.push((await create()).status);
        expect(statuses).toContain(201);
        expect(statuses).toContain(507);
        expect(statuses.every((status) => status === 201 || status === 507)).toBe(true);
        const refused = await create();
        expect(refused.status).toBe(507);
        expect(JSON.parse(refused.body).error).toMatch(new RegExp(`the disk holding the data directory ${directory} .*is full \\(ENOSPC`));
        const health = (await (await fetch(`${cli.url}/healthz`)).json()) as { status: string };
        expect(health.status).toBe('degraded');
        expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);

        unlinkSync(filler);
        expect((await create()).status).toBe(201);
        // The compaction waiting for its retry runs once an append succeeds again.
        await vi.waitFor(async () => expect(((await (await fetch(`${cli.url}/healthz`)).json()) as { status: string }).status).toBe('ok'), { timeout: 10_000 });
      }
      expect(cli.output()).toMatch(/is full \(ENOSPC writing store\.json\.tmp\)[^\n]*background compaction/);
      agent.destroy();
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      cli.child.kill('SIGKILL');
    }
    expect(existsSync(`${file}.tmp`)).toBe(false);
    const found = await countFound(file, acknowledged);
    console.log(`tmpfs full disk: acknowledged ${acknowledged.length}, found ${found} after a restart`);
    expect(found).toBe(acknowledged.length);
  });
});
