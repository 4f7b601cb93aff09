/** Rewrites README's catalog section from the sandbox's own tables: `npx tsx scripts/update-readme-catalog.ts`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { catalogMarkdown, withCatalogSection } from '../src/control/catalog-markdown.ts';
import { catalogView } from '../src/control/control.service.ts';
import { createSandbox } from '../src/sandbox.ts';

async function main() {
  const sandbox = await createSandbox({ port: null, memory: true, logger: { info() {}, warn() {}, error() {} } });
  const readmePath = new URL('../README.md', import.meta.url);
  const readme = readFileSync(readmePath, 'utf8');
  writeFileSync(readmePath, withCatalogSection(readme, catalogMarkdown(catalogView(sandbox.platform))));
  await sandbox.close();
  console.log('README.md catalog section updated');
}

void main();
