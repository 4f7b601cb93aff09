/** A fresh directory under the suite's temporary root (see temporary-root.ts), removed when the run ends. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function temporaryDirectory(prefix = 'idv-sandbox-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
