/**
 * The testcontainers-node recipe of docs/ci.md, run as written against the image CI built: the ```ts block
 * after `<!-- ci: testcontainers -->` becomes a module whose placeholder line (`// … tests against baseUrl …`)
 * is replaced by a few requests, and the module is imported. It needs a Docker engine and the image, so it
 * runs when IDV_SANDBOX_DOCKER_IMAGE names the image (scripts/docker/ci-test.sh sets it after the build) and
 * is skipped otherwise.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PLACEHOLDER = '// … tests against baseUrl …';

/** The ```ts block that follows the marker line in a markdown page. */
function markedBlock(markdown: string, marker: string): string {
  const lines = markdown.split('\n');
  const at = lines.indexOf(`<!-- ci: ${marker} -->`);
  if (at < 0 || lines[at + 1] !== '```ts') throw new Error(`no \`\`\`ts block after <!-- ci: ${marker} -->`);
  const end = lines.indexOf('```', at + 2);
  return lines.slice(at + 2, end).join('\n');
}

describe('docs/ci.md testcontainers recipe', () => {
  const recipe = markedBlock(readFileSync(join(ROOT, 'docs/ci.md'), 'utf8'), 'testcontainers');

  it('has the placeholder the run replaces with requests', () => {
    expect(recipe).toContain(PLACEHOLDER);
    expect(recipe).toContain("new GenericContainer('idv-sandbox')");
  });

  const image = process.env.IDV_SANDBOX_DOCKER_IMAGE;
  // Beside the suite's files so that `testcontainers` resolves from the project's node_modules; git-ignored.
  const directory = join(ROOT, '.test-recipes');
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it.runIf(image === 'idv-sandbox')(
    'starts the image, waits for /healthz and serves the flags it was given',
    async () => {
      // The requests the recipe's placeholder stands for: the answers are exported for the assertions below.
      const requests = `export const answers = {
  health: (await fetch(\`\${baseUrl}/healthz\`)).status,
  session: await (await fetch(\`\${baseUrl}/v1/sessions\`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' }),
  })).json(),
  clock: await (await fetch(\`\${baseUrl}/__sandbox/clock\`)).json(),
  baseUrl,
};`;
      mkdirSync(directory, { recursive: true });
      const file = join(directory, 'testcontainers-recipe.ts');
      writeFileSync(file, recipe.replace(PLACEHOLDER, requests));
      const { answers } = await import(pathToFileURL(file).href);
      expect(answers.health).toBe(200);
      // The recipe's --clock frozen@2026-01-01T00:00:00Z reached the server through the container's command.
      expect(answers.clock.now).toBe('2026-01-01T00:00:00.000Z');
      expect(answers.session.session_url.startsWith(`${answers.baseUrl}/verify/`)).toBe(true);
    },
    240_000,
  );
});
