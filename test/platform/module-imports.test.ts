/**
 * src/modules.ts lists the areas app.ts mounts: it imports every area, so no area may import it back,
 * not even for a type (the module type is src/platform/sandbox-module.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The src/ files a file imports (type-only and on-first-use imports too), as paths relative to the repository. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const imports = [...text.matchAll(/^(?:import|export)\b[^;]*?from '(\.\.?\/[^']+\.ts)'|\bimport\('(\.\.?\/[^']+\.ts)'\)/gms)];
  return imports.map((match) => relative(ROOT, resolve(ROOT, dirname(file), (match[1] ?? match[2]) as string)));
}

/** An import path that leads from `start` back to it, or undefined when there is none. */
function cycleThrough(start: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (file: string, path: string[]): string[] | undefined => {
    for (const next of importsOf(file)) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

describe('the area list', () => {
  it('is in no import cycle: no area imports src/modules.ts, even for a type', () => {
    expect(importsOf('src/modules.ts')).toContain('src/sessions/index.ts');
    expect(cycleThrough('src/modules.ts')).toBeUndefined();
  });
});
