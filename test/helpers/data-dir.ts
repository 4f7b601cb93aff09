/** Helpers of the fault tests: what a data directory holds, and a pid that belongs to no process. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Store } from '../../src/platform/store/store.ts';

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

/**
 * What a crash leaves for the next process: the store's files as its last durable write left them, its
 * descriptors closed (as the system closes a dead process's; left to the garbage collector they would
 * raise Node's DEP0137), and the lock of a pid that no longer runs.
 */
export async function crash(store: Store, file: string): Promise<void> {
  await store.closeWithoutCompaction();
  writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), port: null }));
}
