/**
 * docs/coverage.md's example report is what the sandbox gives: its requests run on a fresh sandbox, and
 * the Markdown shown (up to the `…` that shortens it) is the head of the report they produce, summary per
 * area included.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { blockUnder, sectionUnder } from './readme-blocks.ts';
import { readmeExamples, runCurlExamples } from './readme-curl.ts';

const ROOT = new URL('../../', import.meta.url);
const PAGE = readFileSync(new URL('docs/coverage.md', ROOT), 'utf8');

describe('docs/coverage.md', () => {
  it("shows the report its example's requests produce, as the sandbox renders it", async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    await runCurlExamples(readmeExamples(sectionUnder(PAGE, 'Example').join('\n')), sandbox, 'docs/coverage.md', ROOT);
    const rendered = (await sandbox.call('GET', '/__sandbox/coverage?format=markdown', { key: null })).text.split('\n');
    const shown = blockUnder(PAGE, 'Example', 'markdown').split('\n');
    const cut = shown.indexOf('…');
    expect(cut).toBeGreaterThan(0);
    expect(shown.slice(0, cut)).toEqual(rendered.slice(0, cut));
    expect(shown.join('\n')).toMatch(/\| screening \| 4 \|/);
    await sandbox.close();
  });
});
