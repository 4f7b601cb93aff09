/**
 * Writes fixtures/sandbox/sessions/<id>.json from SANDBOX_FIXTURE_RECIPES. The JSON files are the source
 * the sandbox serves (edit them freely); run this only to regenerate them from the builders:
 *
 *   npx tsx src/sessions/sandbox-fixtures.generate.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSandboxFixture, DEFAULT_SANDBOX_FIXTURES_DIR, SANDBOX_FIXTURE_IDS } from './sandbox-sessions.ts';

export function writeSandboxSessionFixtures(dir: URL = DEFAULT_SANDBOX_FIXTURES_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  return SANDBOX_FIXTURE_IDS.map((id) => {
    const file = new URL(`${id}.json`, dir);
    writeFileSync(file, `${JSON.stringify(buildSandboxFixture(id), null, 2)}\n`);
    return fileURLToPath(file);
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of writeSandboxSessionFixtures()) console.log(`wrote ${file}`);
}
