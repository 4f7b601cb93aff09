/**
 * One writer per data file: `<file>.lock` holds the owner's pid, host name and port.
 *
 * - Taken atomically: the content is written to a private temp file, then hard-linked to the lock name
 *   (`link` fails if the name exists), so a reader never sees a half-written lock.
 * - A lock whose process is gone (same host, `kill(pid, 0)` says ESRCH) is stale and is taken over: it is
 *   moved aside by `rename` (atomic), and the moved file is checked to be the stale one. When a concurrent
 *   starter took the lock in between, the moved lock is put back and this process refuses.
 * - A lock of another host (a shared volume) cannot be probed: it is treated as held.
 */
import { hostname } from 'node:os';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { StoreOpenError } from './errors.ts';

export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's HTTP port; null when it serves no port (programmatic use). */
  port: number | null;
}

/** Lock files held by this process, so a second open in the same process is refused, not "taken over". */
const heldByThisProcess = new Set<string>();

export class DataLock {
  private released = false;

  private constructor(readonly path: string) {}

  /** Takes the lock of `file` or throws a StoreOpenError naming the file and the holder. */
  static acquire(file: string, port: number | null): DataLock {
    const path = lockPath(file);
    const mine: LockHolder = { pid: process.pid, host: hostname(), port };
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(mine)}\n`, { flag: 'w' });
    try {
      // Bounded: each round either takes the lock, refuses, or removed one stale lock.
      for (let round = 0; round < 8; round++) {
        try {
          linkSync(temp, path);
          heldByThisProcess.add(path);
          return new DataLock(path);
        } catch (error) {
          if (!isCode(error, 'EEXIST')) throw error;
        }
        const holder = readHolder(path);
        if (holder === 'gone') continue;
        if (holder !== 'unreadable' && isStale(path, holder)) {
          takeOverStale(path, holder);
          continue;
        }
        throw new StoreOpenError(heldMessage(file, path, holder));
      }
      throw new StoreOpenError(`Could not take the lock ${path} of ${file}: other processes keep taking and dropping it. Start one idv-sandbox per data file.`);
    } finally {
      unlinkSync(temp);
    }
  }

  /** Removes the lock file (idempotent). Call only once every acknowledged write is on disk. */
  release(): void {
    if (this.released) return;
    this.released = true;
    heldByThisProcess.delete(this.path);
    // Only our own lock: one deleted by hand and taken by another process stays theirs.
    const holder = readHolder(this.path);
    if (holder === 'gone' || holder === 'unreadable' || holder.pid !== process.pid || holder.host !== hostname()) return;
    try {
      unlinkSync(this.path);
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
    }
  }
}

export function lockPath(file: string): string {
  return `${file}.lock`;
}

function readHolder(path: string): LockHolder | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 'gone';
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isInteger(parsed.pid) && typeof parsed.host === 'string') return { pid: parsed.pid as number, host: parsed.host, port: parsed.port ?? null };
  } catch {
    // falls through: a lock this version did not write
  }
  return 'unreadable';
}

function isStale(path: string, holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  // Our own pid without our own lock: a previous run in a container that reuses pids (pid 1).
  if (holder.pid === process.pid) return !heldByThisProcess.has(path);
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return isCode(error, 'ESRCH');
  }
}

/** Moves the stale lock aside; if what moved was a live lock taken meanwhile, puts it back. */
function takeOverStale(path: string, stale: LockHolder): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  const moved = readHolder(aside);
  if (moved !== 'gone' && moved !== 'unreadable' && moved.pid === stale.pid && moved.host === stale.host) {
    unlinkSync(aside);
    return;
  }
  try {
    linkSync(aside, path);
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
  } finally {
    unlinkSync(aside);
  }
}

function heldMessage(file: string, path: string, holder: LockHolder | 'unreadable'): string {
  const fix = 'Stop that process first, or point --data (IDV_SANDBOX_DATA) at another file, or use --memory.';
  if (holder === 'unreadable') {
    return `The data file ${file} is locked by ${path}, which this sandbox cannot read; nothing was changed. ${fix} If no idv-sandbox uses the file, delete ${path}.`;
  }
  const port = holder.port === null ? 'no port' : `port ${holder.port}`;
  return (
    `The data file ${file} is in use by another idv-sandbox (pid ${holder.pid} on ${holder.host}, ${port}; lock file ${path}); nothing was changed. ${fix}` +
    ` If that process is not an idv-sandbox, delete ${path}.`
  );
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}
