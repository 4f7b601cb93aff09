/**
 * The Docker build copies what the build and the image need. `.ci/run` builds the real image
 * (scripts/docker/ci-test.sh); this check runs in the default suite, in milliseconds: it reads the
 * Dockerfile's COPY lines and the .dockerignore, and compares them with what the build reads (the
 * build script, its tsconfig chain, every file src/ imports from outside src/) and what the running
 * server opens (every `new URL('../…', import.meta.url)` outside src/, the bin). Removing any COPY the
 * build needs makes it fail: the second half shows that, one line at a time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Stage {
  name: string;
  /** Repository paths copied from the build context (not from another stage). */
  copied: string[];
  /** The stages it copies from (COPY --from=…). */
  from: string[];
}

/** The stages of a Dockerfile, each with the context paths its COPY lines take. */
function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of dockerfile.split('\n').map((text) => text.trim())) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ name: from[1] ?? `stage ${stages.length}`, copied: [], from: [] });
    const copy = /^COPY\s+(.*)$/i.exec(line);
    const fromStage = copy?.[1] && /--from=(\S+)/.exec(copy[1]);
    if (fromStage) stages.at(-1)?.from.push(fromStage[1] as string);
    else if (copy?.[1]) {
      const words = copy[1].split(/\s+/).filter((word) => !word.startsWith('--'));
      stages.at(-1)?.copied.push(...words.slice(0, -1).map((source) => posix.normalize(source).replace(/\/$/, '')));
    }
  }
  return stages;
}

/** Whether a .dockerignore keeps a path in the build context (the last matching pattern decides). */
function inContext(dockerignore: string, path: string): boolean {
  const patterns = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  let kept = true;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const glob = posix.normalize(negated ? pattern.slice(1) : pattern).replace(/^\/|\/$/g, '');
    const regex = new RegExp(`^${glob.replaceAll('.', '\\.').replaceAll('**', '\0').replaceAll('*', '[^/]*').replaceAll('\0', '.*')}(/.*)?$`);
    if (regex.test(path)) kept = negated;
  }
  return kept;
}

/** Whether a COPY source list takes a path (itself or a folder above it). */
const covers = (copied: readonly string[], path: string) => copied.some((source) => path === source || path.startsWith(`${source}/`));

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|mts|mjs|js)$/.test(path))
    .map((path) => posix.join(folder, path.split('\\').join('/')));
}

/** Repository paths outside src/ that a source file names relative to itself, by the given pattern. */
function outsideSrc(pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles('src')) {
    for (const match of read(file).matchAll(pattern)) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), match[1] as string))
        .split('\\')
        .join('/');
      if (!target.startsWith('src/')) found.add(target.replace(/\/$/, ''));
    }
  }
  return [...found].sort();
}

/** What the build stage reads: npm's manifest and lock, the build script and what it imports, its tsconfig chain, src/ and what src/ imports. */
function buildInputs(): string[] {
  const manifest = JSON.parse(read('package.json')) as { scripts: { build: string } };
  const buildScript = /node\s+(\S+)/.exec(manifest.scripts.build)?.[1] as string;
  const tsconfigs: string[] = [];
  for (let config: string | undefined = 'tsconfig.build.json'; config; ) {
    tsconfigs.push(config);
    const extended: string | undefined = (JSON.parse(read(config)) as { extends?: string }).extends;
    config = extended ? posix.normalize(posix.join(posix.dirname(config), extended)) : undefined;
  }
  const scriptImports = [...read(buildScript).matchAll(/from\s*'(\.\.?\/[^']+)'/g)].map((match) =>
    posix.normalize(posix.join(posix.dirname(buildScript), match[1] as string)),
  );
  return ['package.json', 'package-lock.json', buildScript, ...scriptImports, ...tsconfigs, 'src', ...outsideSrc(/(?:from|import\()\s*'(\.\.?\/[^']+)'/g)];
}

/** Paths the source names from the package root (`${PACKAGE_ROOT}scenarios`). */
function fromPackageRoot(): string[] {
  return [...new Set(sourceFiles('src').flatMap((file) => [...read(file).matchAll(/`\$\{PACKAGE_ROOT\}([^`$]+)`/g)].map((match) => match[1] as string)))];
}

/** What the running server opens beside its compiled code: fixture files and folders, scenarios, the bin, the manifest. */
function runtimeInputs(): string[] {
  const manifest = JSON.parse(read('package.json')) as { bin: Record<string, string> };
  return [
    'package.json',
    ...Object.values(manifest.bin).map((bin) => posix.normalize(bin)),
    ...outsideSrc(/new URL\('(\.\.\/[^']+)', import\.meta\.url\)/g),
    ...fromPackageRoot(),
  ];
}

/** What the Dockerfile and .dockerignore fail to provide, per stage; empty when the build has all it needs. */
function missing(dockerfile: string, dockerignore: string): string[] {
  const stages = stagesOf(dockerfile);
  const build = stages.find((stage) => stage.name === 'build');
  const runtime = stages.at(-1);
  if (!build || !runtime) return ['a "build" stage and a final runtime stage'];
  // What the runtime takes from the build stage (its package.json, say) counts as copied into it.
  const inRuntime = [...runtime.copied, ...(runtime.from.includes(build.name) ? build.copied : [])];
  return [
    ...BUILD_INPUTS.filter((path) => !covers(build.copied, path)).map((path) => `${path} (not copied into the build stage)`),
    ...RUNTIME_INPUTS.filter((path) => !covers(inRuntime, path)).map((path) => `${path} (not copied into the runtime stage)`),
    ...[...BUILD_INPUTS, ...RUNTIME_INPUTS].filter((path) => !inContext(dockerignore, path)).map((path) => `${path} (left out by .dockerignore)`),
  ];
}

const BUILD_INPUTS = buildInputs();
const RUNTIME_INPUTS = runtimeInputs();
const DOCKERFILE = read('Dockerfile');
const DOCKERIGNORE = read('.dockerignore');

describe('the Docker build context', () => {
  it('copies every file the build reads and every file the server opens, and .dockerignore keeps them', () => {
    expect(BUILD_INPUTS).toEqual(expect.arrayContaining(['fixtures/watchlists.json', 'scripts/bin-launch.mjs']));
    expect(RUNTIME_INPUTS).toEqual(expect.arrayContaining(['fixtures/workflows.json', 'fixtures/organizations.json', 'scenarios', 'bin/idv-sandbox.js']));
    expect(missing(DOCKERFILE, DOCKERIGNORE)).toEqual([]);
  });

  it('fails as soon as one COPY of the build or runtime stage is left out', () => {
    const copyLines = DOCKERFILE.split('\n').filter((line) => /^COPY\s/.test(line) && !line.includes('--from='));
    expect(copyLines.length).toBeGreaterThan(5);
    for (const line of copyLines) expect(missing(DOCKERFILE.replace(`${line}\n`, ''), DOCKERIGNORE), line).not.toEqual([]);
    expect(missing(DOCKERFILE.replace('COPY fixtures/watchlists.json ./fixtures/\n', ''), DOCKERIGNORE)).toEqual([
      'fixtures/watchlists.json (not copied into the build stage)',
    ]);
  });

  it('fails when .dockerignore leaves out what the build copies', () => {
    expect(missing(DOCKERFILE, DOCKERIGNORE.replace('!scripts/build.mjs\n', ''))).toEqual(['scripts/build.mjs (left out by .dockerignore)']);
    expect(missing(DOCKERFILE, `${DOCKERIGNORE}fixtures/*.json\n`)).toContain('fixtures/watchlists.json (left out by .dockerignore)');
  });

  it('runs the bin as the entrypoint, as the non-root node user, on a supported Node', () => {
    expect(DOCKERFILE).toMatch(/^ENTRYPOINT \["\/app\/bin\/idv-sandbox\.js"\]$/m);
    expect(DOCKERFILE).toMatch(/^USER node$/m);
    for (const stage of DOCKERFILE.match(/^FROM \S+/gm) ?? []) expect(stage).toMatch(/^FROM node:(22|24)-bookworm-slim$/);
  });
});
