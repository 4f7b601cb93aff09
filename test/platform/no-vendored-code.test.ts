/**
 * Only code written here lives in src/: third-party code comes in as an npm dependency, never as a copy
 * (a copied file drifts from its upstream and is maintained by nobody). A copy shows itself by its licence
 * header or by switching lint and format off to keep upstream's style.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = join(ROOT, 'src');

const MARKS_OF_A_COPY: readonly [string, RegExp][] = [
  ['lint or format switched off for a whole file', /biome-ignore-all/],
  ['an Apache licence header', /Licensed under the Apache License/i],
  ['an MIT licence text', /Permission is hereby granted, free of charge/i],
  ['a BSD licence text', /Redistribution and use in source and binary forms/i],
  ['a GPL licence text', /GNU (Lesser |Affero )?General Public License/i],
  ['a licence identifier', /SPDX-License-Identifier/i],
  ['a copyright notice', /Copyright (\(c\)|©|\d{4})/i],
  ['a copied decoder (jpeg-js)', /jpeg-js/i],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe('src/ holds only code written here', () => {
  it('has no file with a licence header, a copyright notice or lint switched off for the whole file', () => {
    const files = sourceFiles(SOURCE);
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [what, pattern] of MARKS_OF_A_COPY) if (pattern.test(text)) found.push(`${relative(ROOT, file)}: ${what}`);
    }
    expect(found).toEqual([]);
  });
});
