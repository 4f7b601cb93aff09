/** A reset of namespaces back to the fixtures: their worlds, their coverage hits and their uploaded files. */
import type { Platform } from '../platform.ts';

/** Resets one namespace, or every namespace when none is named. */
export async function resetSandbox(platform: Platform, namespace: string | undefined, seed: number | undefined): Promise<string[]> {
  const names = namespace !== undefined ? [namespace] : platform.worlds.names();
  if (namespace === undefined) {
    platform.invalidKeys.clear();
    platform.adminTokenGuesses.clear();
  }
  for (const name of names) {
    platform.worlds.reset(name, seed);
    platform.coverage.namespaceReset(name);
    await platform.uploads.dropNamespace(name);
  }
  return names;
}
