/**
 * How the bin starts Node, read from its first line (`#!/usr/bin/env -S NAME=value … node --flag …`), which
 * `npm start`, an installed package's `idv-sandbox` and the Docker image run. A bench or test that spawns
 * `node bin/idv-sandbox.js` itself starts it the same way: with these variables in its environment and these
 * flags before the script.
 */
import { readFileSync } from 'node:fs';

export interface BinLaunch {
  /** Variables the first line sets before Node starts (the C library reads its own only then). */
  env: Record<string, string>;
  /** Node's flags, in order. */
  nodeFlags: string[];
}

export function binLaunch(binPath = new URL('../bin/idv-sandbox.js', import.meta.url)): BinLaunch {
  const firstLine = readFileSync(binPath, 'utf8').split('\n')[0] ?? '';
  const words = /^#!\/usr\/bin\/env -S (.*)$/.exec(firstLine)?.[1]?.split(' ') ?? [];
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`bin/idv-sandbox.js's first line runs no node: ${firstLine}`);
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split('=', 2) as [string, string]));
  return { env, nodeFlags: words.slice(node + 1) };
}
