/**
 * The platform's layers (docs/ARCHITECTURE.md "Layers"), checked on the import graph, type-only imports
 * included: the leaf types module at the bottom, the platform's services above it, the HTTP layer
 * (src/platform/http) above them, the areas above the platform. Each rule is one forbidden kind of edge;
 * a violation names the importing file and what it imports.
 */
import { readdirSync } from 'node:fs';
import { cruise, type IForbiddenRuleType, type IReporterOutput } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

const LEAF = '^src/platform/(platform|explained)\\.ts$';
const HTTP = '^src/platform/http/';
/** Everything under src/ that is not the platform: the areas, the shared engines and the top-level wiring. */
const ABOVE_THE_PLATFORM = '^src/(?!platform/)';

const RULES: IForbiddenRuleType[] = [
  { name: 'platform-circle', severity: 'error', from: { path: '^src/platform/' }, to: { path: '^src/platform/', circular: true } },
  { name: 'leaf-imports-hono', severity: 'error', from: { path: LEAF }, to: { path: '(^|/)node_modules/(hono|@hono/)' } },
  // Types only: the services it names are their instances' types (structural, erased), so the leaf loads nothing.
  { name: 'leaf-runtime-import', severity: 'error', from: { path: '^src/platform/platform\\.ts$' }, to: { dependencyTypesNot: ['type-only'] } },
  { name: 'leaf-imports-above-it', severity: 'error', from: { path: LEAF }, to: { path: [HTTP, ABOVE_THE_PLATFORM, '^src/platform/sandbox-module\\.ts$'] } },
  // The area contract (sandbox-module.ts: an area's routes) sits with the HTTP layer, on top of the platform.
  {
    name: 'service-imports-http',
    severity: 'error',
    from: { path: '^src/platform/', pathNot: [HTTP, '^src/platform/sandbox-module\\.ts$'] },
    to: { path: HTTP },
  },
  { name: 'platform-imports-area', severity: 'error', from: { path: '^src/platform/' }, to: { path: ABOVE_THE_PLATFORM } },
];

let output: IReporterOutput['output'];

beforeAll(async () => {
  const result = await cruise(['src'], {
    validate: true,
    ruleSet: { forbidden: RULES },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Packages resolve through their export maps (hono/factory, lowdb), as Node and TypeScript resolve them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['types', 'import', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.d.ts'] },
    exclude: { path: '\\.d\\.mts$' },
  });
  output = result.output;
}, 60_000);

const modules = () => (typeof output === 'string' ? [] : output.modules);
const violations = (rule: string) =>
  typeof output === 'string'
    ? []
    : output.summary.violations.filter((violation) => violation.rule.name === rule).map((violation) => `${violation.from} → ${violation.to}`);

describe('the platform in layers', () => {
  it('reads the whole platform, every import of it resolved', () => {
    const platformModules = modules().filter((module) => module.source.startsWith('src/platform/'));
    const platformFiles = readdirSync('src/platform', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(platformModules.map((module) => module.source).sort()).toEqual(platformFiles.map((file) => `src/platform/${file}`).sort());
    const unresolved = platformModules.flatMap((module) =>
      module.dependencies.filter((dependency) => dependency.couldNotResolve).map((dependency) => `${module.source} → ${dependency.module}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('has no import circle in src/platform', () => {
    expect(violations('platform-circle')).toEqual([]);
  });

  it('keeps its shared types in a leaf module that imports neither Hono, nor the HTTP layer, nor any area', () => {
    expect(modules().map((module) => module.source)).toContain('src/platform/platform.ts');
    expect(violations('leaf-imports-hono')).toEqual([]);
    expect(violations('leaf-imports-above-it')).toEqual([]);
  });

  it('has a leaf types module (platform.ts) that imports types only, so naming a service there loads none of it', () => {
    expect(violations('leaf-runtime-import')).toEqual([]);
  });

  it('has services that never import the HTTP layer', () => {
    expect(violations('service-imports-http')).toEqual([]);
  });

  it('imports no area', () => {
    expect(violations('platform-imports-area')).toEqual([]);
  });
});
