/**
 * What a newcomer reads first in README.md, checked against the package: how to install it (the package is
 * not on the registry; test/package/packed-tarball.test.ts runs the lines in an empty project).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INSTALL_CLONE_PLACEHOLDER, installCommands } from './readme-blocks.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

describe("README's first screen", () => {
  it('installs the tarball that `npm pack` makes of this version, from a clone', () => {
    expect(installCommands()).toEqual([
      'npm ci && npm pack',
      `npm install --save-dev ${INSTALL_CLONE_PLACEHOLDER}/${manifest.name}-${manifest.version}.tgz`,
      'npx idv-sandbox --version',
    ]);
  });
});
