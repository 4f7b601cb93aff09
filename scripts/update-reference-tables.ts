/** Rewrites docs/reference.md's generated section from the sandbox's own tables: `npx tsx scripts/update-reference-tables.ts`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { referenceMarkdown, referenceSources, withReferenceSection } from '../src/control/reference-markdown.ts';
import { createSandbox } from '../src/sandbox.ts';

async function main() {
  const sandbox = await createSandbox({ port: null, memory: true, logger: { info() {}, warn() {}, error() {} } });
  const pagePath = new URL('../docs/reference.md', import.meta.url);
  const page = readFileSync(pagePath, 'utf8');
  writeFileSync(pagePath, withReferenceSection(page, referenceMarkdown(await referenceSources(sandbox.app))));
  await sandbox.close();
  console.log('docs/reference.md tables updated');
}

void main();
