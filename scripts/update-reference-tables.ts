/** Rewrites the generated sections of docs/reference.md and docs/workflows.md from the sandbox's own tables: `npx tsx scripts/update-reference-tables.ts`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { referenceMarkdown, referenceSources, withReferenceSection } from '../src/control/reference-markdown.ts';
import { createSandbox } from '../src/sandbox.ts';
import { withWorkflowStepTables } from '../src/workflows/workflow-docs.ts';

async function main() {
  const sandbox = await createSandbox({ port: null, memory: true, logger: { info() {}, warn() {}, error() {} } });
  const pagePath = new URL('../docs/reference.md', import.meta.url);
  const page = readFileSync(pagePath, 'utf8');
  writeFileSync(pagePath, withReferenceSection(page, referenceMarkdown(await referenceSources(sandbox.app))));
  await sandbox.close();
  const workflowsPath = new URL('../docs/workflows.md', import.meta.url);
  writeFileSync(workflowsPath, withWorkflowStepTables(readFileSync(workflowsPath, 'utf8')));
  console.log('docs/reference.md and docs/workflows.md tables updated');
}

void main();
