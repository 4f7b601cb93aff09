import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogMarkdown } from '../../src/control/catalog-markdown.ts';
import { testSandbox } from '../helpers/sandbox.ts';

describe('README', () => {
  it('holds the catalog section exactly as the code’s tables render it (run scripts/update-readme-catalog.ts after changing them)', async () => {
    const sandbox = await testSandbox();
    const catalog = (await sandbox.call('GET', '/__sandbox/catalog', { key: null })).body;
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(catalogMarkdown(catalog));
  });

  it('lists every shipped scenario and every fixture key', async () => {
    const sandbox = await testSandbox();
    const catalog = (await sandbox.call('GET', '/__sandbox/catalog', { key: null })).body;
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const scenario of catalog.scenarios) expect(readme).toContain(`\`${scenario.name}\``);
    for (const key of catalog.fixtureKeys) expect(readme).toContain(`\`${key.key}\``);
  });
});
