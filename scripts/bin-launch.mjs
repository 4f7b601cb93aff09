/**
 * How the bin starts Node, read from its first line (`#!/usr/bin/env -S NAME=value … node --flag …`), which
 * `npm start`, an installed package's `idv-sandbox` and the Docker image run. The build, a bench or a test
 * that spawns `node bin/idv-sandbox.js` itself starts it the same way: with these variables in its
 * environment and these flags before the script. Plain JavaScript, as the build (scripts/build.mjs) runs in
 * Node itself.
 */
import { readFileSync } from 'node:fs';

export function binLaunch(binPath = new URL('../bin/idv-sandbox.js', import.meta.url)) {
  const firstLine = readFileSync(binPath, 'utf8').split('\n')[0] ?? '';
  const words = /^#!\/usr\/bin\/env -S (.*)$/.exec(firstLine)?.[1]?.split(' ') ?? [];
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`bin/idv-sandbox.js's first line runs no node: ${firstLine}`);
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split('=', 2)));
  return { env, nodeFlags: words.slice(node + 1) };
}
