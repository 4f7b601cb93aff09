/**
 * What a newcomer reads first in README.md, checked against the package: how to install it (the package is
 * not on the registry; test/package/packed-tarball.test.ts runs the lines in an empty project), and the
 * in-process example's promise that its options give byte-identical answers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { banner } from '../../src/cli.ts';
import { createSandbox, type SandboxOptions } from '../../src/index.ts';
import { silentLogger } from '../helpers/sandbox.ts';
import { blockUnder, INSTALL_CLONE_PLACEHOLDER, installCommands, README, sectionUnder } from './readme-blocks.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** The object literal the README's in-process example passes to createSandbox, evaluated. */
function inProcessOptions(): SandboxOptions {
  const literal = /createSandbox\((\{[^\n]*\})\)/.exec(blockUnder(README, 'In-process', 'ts'))?.[1];
  if (literal === undefined) throw new Error("README's in-process example calls createSandbox({ … }) on one line");
  return new Function(`return (${literal});`)() as SandboxOptions;
}

describe("README's first screen", () => {
  it('installs the tarball that `npm pack` makes of this version, from a clone', () => {
    expect(installCommands()).toEqual([
      'npm ci && npm pack',
      `npm install --save-dev ${INSTALL_CLONE_PLACEHOLDER}/${manifest.name}-${manifest.version}.tgz`,
      'npx idv-sandbox --version',
    ]);
  });

  it("gives byte-identical answers, hosted-page links included, in two sandboxes made with the in-process example's options", async () => {
    const options = inProcessOptions();
    const run = async () => {
      const sandbox = await createSandbox({ ...options, logger: silentLogger });
      const created = await sandbox.app.request('/v1/sessions', {
        method: 'POST',
        headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' }),
      });
      const answer = { status: created.status, headers: [...created.headers], body: await created.text() };
      await sandbox.close({ report: false });
      return answer;
    };
    const first = await run();
    expect(first.status).toBe(200);
    expect(first.body).toMatch(/token=/);
    expect(await run()).toEqual(first);
  });

  it('keeps the benchmark figures out of the way: the last section, folded, and nowhere else', () => {
    const headings = README.split('\n').filter((line) => line.startsWith('## '));
    expect(headings.at(-1)).toBe('## Performance');
    let outside = README;
    for (const [run, summary] of [
      ['bench', /<details>\n<summary>The last whole run: \d+ rows, \d+ PASS, \d+ FAIL/],
      ['bench-scale', /<details>\n<summary>The last whole `--scale` run \(1M sessions\): \d+ rows, \d+ PASS, \d+ FAIL/],
    ] as const) {
      const block = README.slice(README.indexOf(`<!-- ${run}:start`), README.indexOf(`<!-- ${run}:end -->`));
      expect(block).toMatch(summary);
      expect(README.indexOf(`<!-- ${run}:start`)).toBeGreaterThan(README.indexOf('## Performance'));
      outside = outside.replace(block, '');
    }
    expect(outside.split('\n').filter((line) => /\b(PASS|FAIL)\b|req\/s|\bp99\b/.test(line))).toEqual([]);
    expect(sectionUnder(README, 'Performance').join(' ')).toContain('(docs/performance.md)');
  });

  it('prints at start the lines README shows, the base URL a client takes first', async () => {
    const sandbox = await createSandbox({ port: 0, memory: true, logger: silentLogger });
    // README shows the default port.
    const printed = banner(sandbox).replaceAll(new URL(sandbox.url).host, '127.0.0.1:4010').split('\n');
    const shown = blockUnder(README, 'What the start prints', 'text').split('\n');
    expect(printed).toEqual(expect.arrayContaining(shown));
    expect(shown[1]).toMatch(/^ {2}API \(base_url\) +http:\/\/127\.0\.0\.1:4010 +\(every endpoint under \/v1\)$/);
    await sandbox.close({ report: false });
  });

  it('has no URL without a socket, and says what to use instead', async () => {
    const sandbox = await createSandbox({ ...inProcessOptions(), port: null, logger: silentLogger });
    expect(() => sandbox.url).toThrow(/no socket.*sandbox\.app\.request\(path, init\).*port: 0/);
    await sandbox.close({ report: false });
    const listening = await createSandbox({ ...inProcessOptions(), port: 0, logger: silentLogger });
    const { port } = new URL(listening.url);
    expect((await fetch(`${listening.url}/healthz`)).status).toBe(200);
    expect(Number(port)).toBeGreaterThan(0);
    await listening.close({ report: false });
  });
});
