/**
 * The ports an area needs are data on its entry (src/modules.ts `needs`), checked here against the import
 * graph: every port module an area's module reaches (static and on-first-need imports, type-only ones
 * left out: a type is no use of a port) is listed in that entry's `needs`, so no area's first request meets
 * a port nobody connected, whichever area came first.
 */
import { readFileSync } from 'node:fs';
import type { ICruiseResult } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/modules.ts';
import type { Port } from '../../src/platform/platform.ts';
import { cruiseSource } from './area-graph.ts';

let result: ICruiseResult;
beforeAll(async () => {
  result = await cruiseSource();
}, 60_000);

/** Each area's module, as src/modules.ts imports it on first use. */
function entryModules(): Map<string, string> {
  const list = readFileSync('src/modules.ts', 'utf8');
  return new Map(
    [...list.matchAll(/name: '([\w-]+)',\s*load: async \(\) => \(await import\('\.\/([^']+)'\)\)/g)].map(([, name, path]) => [name as string, `src/${path}`]),
  );
}

/** The modules `start` reaches by imports that run (type-only ones left out). */
function reached(start: string): Set<string> {
  const next = new Map(
    result.modules.map((module) => [
      module.source,
      module.dependencies.filter((dependency) => dependency.typeOnly !== true).map((dependency) => dependency.resolved),
    ]),
  );
  const seen = new Set([start]);
  const queue = [start];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const to of (next.get(file) ?? []).filter((candidate) => !seen.has(candidate))) {
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}

/** Every port of the areas, by the module that declares it. */
async function portModules(): Promise<Map<string, Port<unknown>[]>> {
  const files = result.modules
    .map((module) => module.source)
    .filter((file) => file.startsWith('src/') && !file.startsWith('src/platform/') && readFileSync(file, 'utf8').includes('declarePort<'));
  const ports = new Map<string, Port<unknown>[]>();
  for (const file of files)
    ports.set(
      file,
      Object.values(await import(`../../${file}`)).filter((value): value is Port<unknown> => typeof value === 'object' && value !== null && 'provide' in value),
    );
  return ports;
}

describe('the ports each area needs', () => {
  it('every area of src/modules.ts is read from its entry', () => {
    expect([...entryModules().keys()]).toEqual(AREAS.map((area) => area.name));
  });

  it('lists every port its modules reach, and the ports of the areas below sessions are four', async () => {
    const ports = await portModules();
    expect(
      [...ports.values()]
        .flat()
        .map((port) => port.name)
        .sort(),
    ).toEqual(['deepfake → sessions', 'financial → sessions', 'screening → sessions', 'workflows → sessions']);
    const missing = AREAS.flatMap((area) => {
      const reachable = reached(entryModules().get(area.name) as string);
      return [...ports].flatMap(([file, declared]) =>
        reachable.has(file) ? declared.filter((port) => !(area.needs ?? []).includes(port)).map((port) => `${area.name} reaches ${port.name} (${file})`) : [],
      );
    });
    expect(missing).toEqual([]);
  });
});
