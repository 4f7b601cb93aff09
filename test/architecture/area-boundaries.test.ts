/**
 * The areas' boundaries, read from the import graph: another area is reached only through its public
 * surface (src/<area>/api.ts), which offers verbs and never the area's store; the shared engines import no
 * area; no file outside the platform is on an import circle; the area graph has no cycle (between two areas
 * the dependency points one way); and docs/ARCHITECTURE.md draws the area graph the imports make. Each
 * failure lists every offending import.
 */
import { readFileSync } from 'node:fs';
import type { ICruiseResult, IForbiddenRuleType } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { areaEdges, cruiseSource, ENGINES, NOT_AREAS } from './area-graph.ts';

const NOT_AREA = `^src/(${NOT_AREAS.join('|')})/`;

const RULES: IForbiddenRuleType[] = [
  {
    name: 'area-through-api',
    severity: 'error',
    from: { path: '^src/([^/]+)/', pathNot: NOT_AREA },
    to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', NOT_AREA, '^src/[^/]+/api\\.ts$'] },
  },
  {
    // A surface offers the area's verbs; its records stay behind them (a stored record's type may be named).
    name: 'surface-hides-store',
    severity: 'error',
    from: { path: '^src/[^/]+/api\\.ts$' },
    to: { path: '\\.store\\.ts$', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'engine-imports-no-area',
    severity: 'error',
    from: { path: `^src/(${ENGINES.join('|')})/` },
    to: { path: '^src/[^/]+/', pathNot: NOT_AREA },
  },
  { name: 'no-circle', severity: 'error', from: { path: '^src/', pathNot: '^src/platform/' }, to: { circular: true } },
];

let result: ICruiseResult;
beforeAll(async () => {
  result = await cruiseSource(RULES);
}, 60_000);

/** The imports that break `rule`, as "from -> to" lines (a circle's line names the files it goes through). */
function violationsOf(rule: string): string[] {
  return result.summary.violations
    .filter((violation) => violation.rule.name === rule)
    .map((violation) => [violation.from, ...(violation.cycle?.map((step) => step.name) ?? [violation.to])].join(' -> '))
    .sort();
}

/** Every cycle of the area graph, as "a -> b -> a" (each found from its smallest area name). */
function areaCycles(edges: string[]): string[] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges.map((edge) => edge.split(' -> ') as [string, string])) next.set(from, [...(next.get(from) ?? []), to]);
  const cycles: string[] = [];
  const walk = (start: string, path: string[]) => {
    for (const to of next.get(path.at(-1) as string) ?? []) {
      if (to === start) cycles.push([...path, to].join(' -> '));
      else if (to > start && !path.includes(to)) walk(start, [...path, to]);
    }
  };
  for (const start of [...next.keys()].sort()) walk(start, [start]);
  return cycles;
}

/** The edges of the mermaid graph in the "## Areas" section of docs/ARCHITECTURE.md, as "a -> b", sorted. */
function documentedAreaEdges(): string[] {
  const architecture = readFileSync('docs/ARCHITECTURE.md', 'utf8');
  const section = architecture.slice(architecture.indexOf('\n## Areas\n'));
  const graph = /```mermaid\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 1)))?.[1] ?? '';
  return [...graph.matchAll(/^\s*([\w-]+) --> ([\w-]+)$/gm)].map(([, from, to]) => `${from} -> ${to}`).sort();
}

describe('area boundaries', () => {
  it("an area imports another area's public surface (src/<area>/api.ts) only", () => {
    expect(violationsOf('area-through-api')).toEqual([]);
  });

  it("a public surface re-exports no store: other areas get the area's verbs, never its persistence", () => {
    expect(violationsOf('surface-hides-store')).toEqual([]);
  });

  it('the shared engines (src/images, src/face-registry) import no area', () => {
    expect(violationsOf('engine-imports-no-area')).toEqual([]);
  });

  it('no file outside src/platform is on an import circle', () => {
    expect(violationsOf('no-circle')).toEqual([]);
  });

  it('between two areas the dependency points one way: the area graph has no cycle', () => {
    expect(areaCycles(areaEdges(result))).toEqual([]);
  });

  it('docs/ARCHITECTURE.md ("## Areas") draws the area graph the imports make, edge for edge', () => {
    expect(documentedAreaEdges()).toEqual(areaEdges(result));
  });
});
