/**
 * The README's non-curl blocks that tests run or compare: the install lines, the start's printout, the
 * in-process example. Each is the first fenced block of its language under the heading that names it.
 */
import { readFileSync } from 'node:fs';

export const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The lines under `heading`, up to the next heading of any level (a `#` line inside a fence is none). */
export function sectionUnder(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  let fenced = false;
  const isHeading = lines.map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && /^#{1,6} /.test(line);
  });
  const start = lines.findIndex((line, index) => isHeading[index] && line.replace(/^#+ /, '') === heading);
  if (start === -1) throw new Error(`no heading "${heading}"`);
  const end = isHeading.findIndex((heads, index) => index > start && heads);
  return lines.slice(start + 1, end === -1 ? lines.length : end);
}

/** The body of the first ```language block under `heading`. */
export function blockUnder(markdown: string, heading: string, language: string): string {
  const lines = sectionUnder(markdown, heading);
  const start = lines.findIndex((line) => line.trim() === `\`\`\`${language}`);
  if (start === -1) throw new Error(`no \`\`\`${language} block under "${heading}"`);
  return lines.slice(start + 1, lines.indexOf('```', start + 1)).join('\n');
}

/** The shell commands of the install block, comments dropped: the folder placeholder names the clone. */
export const INSTALL_CLONE_PLACEHOLDER = '/path/to/idv-sandbox';

export function installCommands(markdown = README): string[] {
  return blockUnder(markdown, 'Install it in your project', 'sh')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}
