/** Helpers of the fault tests: what a data directory holds, and a pid that belongs to no process. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export function tempDataFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'idv-reliability-')), 'store.json');
}

/** Every file under `dir` (recursively) → sha256 of its bytes: equal maps mean nothing changed. */
export function directoryState(dir: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else state[relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return state;
}

/** The pid of a process that has exited. */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}
