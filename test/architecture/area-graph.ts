/**
 * The import graph of src/ as dependency-cruiser reads it (type-only imports included: a type is part of
 * what one area takes from another), and the areas it is made of. An area is a folder src/<name>/, except
 * the platform, the shared engines (images, face-registry) and the drift tool.
 */
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

export const NOT_AREAS = ['platform', 'images', 'face-registry', 'drift'];
export const ENGINES = ['images', 'face-registry'];

/** The area a file of src/ belongs to, or undefined for the platform, an engine, the tool and top-level files. */
export function areaOf(path: string): string | undefined {
  const folder = /^src\/([^/]+)\//.exec(path)?.[1];
  return folder === undefined || NOT_AREAS.includes(folder) ? undefined : folder;
}

export async function cruiseSource(rules: IForbiddenRuleType[] = []): Promise<ICruiseResult> {
  const result = await cruise(
    ['src'],
    {
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
      exclude: { path: '^node_modules' },
      doNotFollow: { path: '^node_modules' },
      validate: rules.length > 0,
      ruleSet: { forbidden: rules },
    },
    undefined,
    { tsConfig: { fileName: 'tsconfig.json' } },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not its result object');
  return result.output;
}

/** Every edge between two areas ("a -> b"), each once, sorted. */
export function areaEdges(result: ICruiseResult): string[] {
  const edges = new Set<string>();
  for (const module of result.modules) {
    const from = areaOf(module.source);
    for (const dependency of module.dependencies) {
      const to = areaOf(dependency.resolved);
      if (from !== undefined && to !== undefined && from !== to) edges.add(`${from} -> ${to}`);
    }
  }
  return [...edges].sort();
}
