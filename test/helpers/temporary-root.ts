/**
 * vitest globalSetup: every temporary file of the suite (tests, the CLI processes they start, browsers)
 * goes under one directory, removed when the run ends, so the suite leaves nothing behind in the system's
 * temporary directory. Works through TMPDIR, which os.tmpdir() and child processes read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEMPORARY_ROOT_PREFIX = 'idv-sandbox-tests-';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), TEMPORARY_ROOT_PREFIX));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
