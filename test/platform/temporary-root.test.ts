import { basename, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { TEMPORARY_ROOT_PREFIX } from '../helpers/temporary-root.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

describe('temporary files of the test suite', () => {
  it('go under the one root the run removes at the end', () => {
    expect(basename(tmpdir())).toMatch(new RegExp(`^${TEMPORARY_ROOT_PREFIX}`));
    expect(dirname(temporaryDirectory('probe-'))).toBe(tmpdir());
  });
});
