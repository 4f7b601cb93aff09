/**
 * One writer per data file: `<file>.lock` holds the owner's pid, host name and port.
 *
 * - Taken atomically: the content is written to a private temp file, then hard-linked to the lock name
 *   (`link` fails if the name exists), so a reader never sees a half-written lock.
 * - A lock whose process is gone (same host, `kill(pid, 0)` says ESRCH) is stale and is taken over: it is
 *   moved aside by `rename` (atomic), and the moved file is checked to be the stale one. When a concurrent
 *   starter took the lock in between, the moved lock is put back and this process refuses.
 * - A lock of another host (a shared volume, or another container: its host name is the container id)
 *   cannot be probed with a signal, so the holder refreshes the lock file's modification time every
 *   HEARTBEAT_MS. A starter finding such a lock waits for the next refresh: a refreshed lock is held and
 *   refused; one not refreshed for STALE_AFTER_MS belongs to a process that is gone (a killed container)
 *   and is taken over.
 */
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { systemTime } from '../clock/virtual-clock.ts';
import { StoreOpenError } from './errors.ts';

/** How often a holder refreshes its lock's modification time. */
export const LOCK_HEARTBEAT_MS = 5_000;
/** A lock of another host not refreshed for this long is stale: several heartbeats were missed. */
export const LOCK_STALE_AFTER_MS = 20_000;

export interface LockWaiting {
  /** How the starter waits for the next refresh of another host's lock (tests pass their own). */
  wait?: (ms: number) => Promise<void>;
  /** Epoch ms now, the time the lock's modification time is compared with (default: the system's). */
  now?: () => number;
  /** Told once when the starter waits. */
  say?: (message: string) => void;
}

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
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(readonly path: string) {
    this.heartbeat = setInterval(() => refresh(path), LOCK_HEARTBEAT_MS).unref();
  }

  /** Takes the lock of `file` or throws a StoreOpenError naming the file and the holder. */
  static async acquire(file: string, port: number | null, waiting: LockWaiting = {}): Promise<DataLock> {
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
        if (holder !== 'unreadable' && (await foreignLockWentStale(path, holder, waiting))) {
          waiting.say?.(
            `idv-sandbox: took over the data file's lock ${path} of pid ${holder.pid} on ${holder.host}: not refreshed for ${LOCK_STALE_AFTER_MS / 1000} s, so that process is gone.`,
          );
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
    clearInterval(this.heartbeat);
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

/** Marks the lock as alive now (a lock removed by hand stays removed). */
function refresh(path: string): void {
  const now = systemTime() / 1000;
  try {
    utimesSync(path, now, now);
  } catch {
    // gone or unreachable: the next refresh tries again
  }
}

/** When the lock file was last refreshed (epoch ms), or undefined once it is gone. */
function refreshedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/**
 * Whether another host's lock is stale: not refreshed for LOCK_STALE_AFTER_MS, at once or after waiting
 * for it to reach that age. A refresh seen meanwhile means its holder is alive.
 */
async function foreignLockWentStale(path: string, holder: LockHolder, waiting: LockWaiting): Promise<boolean> {
  if (holder.host === hostname()) return false;
  const wait = waiting.wait ?? ((ms: number) => delay(ms));
  const now = waiting.now ?? systemTime;
  const seen = refreshedAt(path);
  if (seen === undefined) return true;
  let told = false;
  for (;;) {
    const age = now() - seen;
    if (age >= LOCK_STALE_AFTER_MS) return true;
    if (!told) {
      waiting.say?.(
        `idv-sandbox: the data file's lock ${path} names pid ${holder.pid} on ${holder.host}, refreshed ${Math.round(age / 1000)} s ago; waiting up to ${Math.ceil((LOCK_STALE_AFTER_MS - age) / 1000)} s to see whether that process is alive.`,
      );
      told = true;
    }
    await wait(Math.min(LOCK_HEARTBEAT_MS, LOCK_STALE_AFTER_MS - age));
    const latest = refreshedAt(path);
    if (latest === undefined) return true;
    if (latest !== seen) return false;
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
  const alive = holder.host === hostname() ? '' : ` (its lock is refreshed every ${LOCK_HEARTBEAT_MS / 1000} s)`;
  return (
    `The data file ${file} is in use by another idv-sandbox (pid ${holder.pid} on ${holder.host}, ${port}; lock file ${path})${alive}; nothing was changed. ${fix}` +
    ` If that process is not an idv-sandbox, delete ${path}.`
  );
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}
