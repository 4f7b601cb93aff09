/**
 * A data file whose directory cannot be written refuses the start naming the cause and the flag to change,
 * as the other start-up refusals do, instead of a raw `ENOENT: no such file or directory, mkdir`. The
 * read-only case needs a real read-only mount, so root (CI runs as root): skipped otherwise; the
 * permission case needs a user that permissions stop, so it runs only when not root.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, StoreOpenError } from '../../src/platform/store/store.ts';

const isRoot = process.getuid?.() === 0;
const FIX = /Point --data \(IDV_SANDBOX_DATA\) at a file in a writable directory .* or use --memory\./;

async function refusal(file: string): Promise<StoreOpenError> {
  const error = await Store.open({ file }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreOpenError);
  return error as StoreOpenError;
}

describe('a data file whose directory cannot be written', () => {
  it('refuses a data path under a file, naming that file and the flag', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-unwritable-'));
    const inTheWay = join(dir, 'not-a-directory');
    writeFileSync(inTheWay, '');
    const file = join(inTheWay, 'data', 'store.json');
    const { message } = await refusal(file);
    expect(message).toMatch(new RegExp(`^The data file ${file} cannot be created or locked: ${inTheWay} is a file, not a directory \\(ENOTDIR\\)\\. `));
    expect(message).toMatch(FIX);
    rmSync(dir, { recursive: true });
  });

  it.skipIf(isRoot)('refuses a directory this process may not write in (EACCES), leaving it empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-unwritable-'));
    chmodSync(dir, 0o555);
    const { message } = await refusal(join(dir, 'store.json'));
    expect(message).toContain(`this process may not write in ${dir} (EACCES)`);
    expect(message).toMatch(FIX);
    expect(readdirSync(dir)).toEqual([]);
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true });
  });
});

describe.skipIf(!isRoot)('a data file on a read-only mount (tmpfs -o ro, as root)', () => {
  let mountPoint = '';
  let mountProblem: string | undefined;

  beforeAll(() => {
    mountPoint = mkdtempSync(join(tmpdir(), 'idv-readonly-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', mountPoint], { stdio: 'pipe' });
    } catch (error) {
      mountProblem = `mount -t tmpfs -o ro failed: ${(error as Error).message.split('\n')[0]}`;
    }
  });

  afterAll(() => {
    if (!mountProblem) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it.for([
    ['in a directory still to be made', 'data/store.json'],
    ['at the top of the mount', 'store.json'],
  ] as const)('refuses a fresh data file %s, naming the read-only file system (EROFS) and the flag', async ([, path], context) => {
    if (mountProblem) context.skip(mountProblem);
    const file = join(mountPoint, path);
    const { message } = await refusal(file);
    expect(message).toMatch(new RegExp(`^The data file ${file} cannot be created or locked: ${mountPoint} is on a read-only file system \\(EROFS\\)\\. `));
    expect(message).toMatch(FIX);
  });
});
