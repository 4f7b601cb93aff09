import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { referenceMarkdown, referenceSources } from '../../src/control/reference-markdown.ts';
import { testSandbox } from '../helpers/sandbox.ts';

const page = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');

describe('docs/reference.md', () => {
  it('holds the generated tables exactly as the code’s tables render them (run scripts/update-reference-tables.ts after changing them)', async () => {
    const sandbox = await testSandbox();
    expect(page('docs/reference.md')).toContain(referenceMarkdown(await referenceSources(sandbox.app)));
  });

  it('lists every shipped scenario, every fixture key and every control-plane call, the session outcome among them', async () => {
    const sandbox = await testSandbox();
    const sources = await referenceSources(sandbox.app);
    const reference = page('docs/reference.md');
    for (const scenario of sources.scenarios) expect(reference).toContain(`| \`${scenario.name}\` |`);
    for (const key of sources.fixtureKeys) expect(reference).toContain(`| \`${key.key}\` |`);
    expect(reference).toContain('| `POST /__sandbox/sessions/{id}/outcome` |');
    expect(reference).toContain('| `POST /__sandbox/requests/verify` |');
  });
});
