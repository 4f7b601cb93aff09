/**
 * Why a data file's directory cannot be written, as a start-up refusal that names the cause and the fix.
 * The raw errors do not say it: Node's recursive mkdir reports a directory it cannot create on a read-only
 * file system as ENOENT (it looks for the missing directory after the EROFS), so the cause is asked of the
 * nearest part of the path that exists.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StoreOpenError } from './errors.ts';

const FIX = 'Point --data (IDV_SANDBOX_DATA) at a file in a writable directory (in a container: a volume mounted read-write), or use --memory.';

/** The refusal for `error`, met creating the directory of `file` or its lock; undefined when the directory is not the cause. */
export function unwritableDirectoryError(file: string, error: unknown): StoreOpenError | undefined {
  if (typeof (error as NodeJS.ErrnoException | undefined)?.code !== 'string') return undefined;
  const cause = causeAt(nearestExisting(dirname(resolve(file))));
  return cause === undefined ? undefined : new StoreOpenError(`The data file ${file} cannot be created or locked: ${cause}. ${FIX}`);
}

function nearestExisting(directory: string): string {
  let place = directory;
  while (!existsSync(place) && dirname(place) !== place) place = dirname(place);
  return place;
}

function causeAt(place: string): string | undefined {
  if (!statSync(place).isDirectory()) return `${place} is a file, not a directory (ENOTDIR)`;
  try {
    accessSync(place, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${place} is on a read-only file system (EROFS)`;
    if (code === 'EACCES' || code === 'EPERM') return `this process may not write in ${place} (${code})`;
    return undefined;
  }
}
