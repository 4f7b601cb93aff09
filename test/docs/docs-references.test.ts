/**
 * README.md and docs/ stand on their own: every relative link resolves to a file of the repository (and
 * its `#anchor`, when it names one, to a heading of that file), and no text points at a machine path or a
 * document outside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const DOCUMENTS = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const MACHINE_PATHS = /(^|[\s`'"(])(\/work\/|\/tmp\/|\/home\/|\/Users\/|[A-Z]:\\|\.\.\/shared\b|~\/)/;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

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

  it('links to headings that exist, in this document and in the others', () => {
    const missing: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)) {
      const [path, anchor] = (target as string).split('#') as [string, string];
      if (/^[a-z]+:/.test(path)) continue;
      const file = path === '' ? new URL(document, ROOT) : new URL(path, new URL(document, ROOT));
      if (!file.pathname.endsWith('.md') || !existsSync(file)) continue;
      if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor)) missing.push(target as string);
    }
    expect(missing).toEqual([]);
  });

  it('names no machine path', () => {
    expect(text.split('\n').filter((line) => MACHINE_PATHS.test(line))).toEqual([]);
  });
});
