import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * Test files that need a module graph of their own: a `vi.mock` of a module replaces it only where it is
 * first imported, the first-call test proves what a fresh process answers (no module evaluated before), and
 * the image-thread test what the image pool of a fresh process starts.
 * Every other file shares its worker's modules with the files before it (`isolate: false`): importing the
 * app again for each of 200 files was a third of the suite's CPU.
 */
const OWN_MODULE_GRAPH = ['test/platform/first-call.test.ts', 'test/platform/start-loads-faker.test.ts', 'test/images/image-thread-readying.test.ts'];
const mocksModules = (file: string) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(ROOT, file), 'utf8'));
const isolated = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .map((path) => join('test', path))
  .filter((file) => file.endsWith('.test.ts') && (OWN_MODULE_GRAPH.includes(file) || mocksModules(file)));

const shared = {
  setupFiles: ['test/helpers/response-coverage.file.ts'],
  testTimeout: 20_000,
  hookTimeout: 20_000,
  pool: 'forks' as const,
  // Both cores: vitest's default on two is one worker, and most files wait on sockets, processes or a browser.
  maxWorkers: 2,
  // The CLI processes tests start check their answers too (test sandboxes get it from test/helpers/sandbox.ts).
  env: { IDV_SANDBOX_STRICT_RESPONSES: '1' },
};

export default defineConfig({
  test: {
    // The root project's, run once for the whole run: the projects below do not extend the root, so neither
    // runs them again, and the route-coverage gate globs every file of this `include`.
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temporary-root.ts', 'test/helpers/response-coverage.setup.ts'],
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'shared modules', include: ['test/**/*.test.ts'], exclude: isolated, isolate: false } },
      { test: { ...shared, name: 'own modules', include: isolated } },
    ],
  },
});
