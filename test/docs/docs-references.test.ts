/**
 * README.md and docs/ stand on their own: every relative link resolves to a file of the repository, and no
 * text points at a machine path or a document outside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const DOCUMENTS = ['README.md', ...readdirSync(new URL('docs/', ROOT)).map((name) => `docs/${name}`)];
const MACHINE_PATHS = /(^|[\s`'"(])(\/work\/|\/tmp\/|\/home\/|\/Users\/|[A-Z]:\\|\.\.\/shared\b|~\/)/;

describe.each(DOCUMENTS)('%s', (document) => {
  const text = readFileSync(new URL(document, ROOT), 'utf8');

  it('links only to files of the repository (or to the web)', () => {
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const path = (target as string).split('#')[0] as string;
      if (/^[a-z]+:/.test(path) || path === '') continue;
      const resolved = new URL(path, new URL(document, ROOT));
      if (!resolved.href.startsWith(ROOT.href) || !existsSync(resolved)) broken.push(target as string);
    }
    expect(broken).toEqual([]);
  });

  it('names no machine path', () => {
    expect(text.split('\n').filter((line) => MACHINE_PATHS.test(line))).toEqual([]);
  });
});
