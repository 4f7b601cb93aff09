import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanDocument } from '../../src/document/document.service.ts';
import { compareFaces } from '../../src/face/face.service.ts';
import { verifyIdentity } from '../../src/identity/identity.service.ts';
import type { AnalysedImage } from '../../src/images/image-analysis.ts';
import { IMAGE_FIXTURES, imageFixtureCatalog } from '../../src/images/image-outcomes.ts';
import { analyseBytes, inlineDecoder } from './helpers.ts';

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'images');
const decoder = inlineDecoder();

async function loadAll(): Promise<Map<string, AnalysedImage>> {
  const out = new Map<string, AnalysedImage>();
  for (const fixture of IMAGE_FIXTURES) out.set(fixture.file, await analyseBytes(decoder, readFileSync(join(dir, fixture.file))));
  return out;
}

describe('fixtures/images give the outcomes IMAGE_FIXTURES documents', () => {
  it('has every file, small, in its format, with or without a face as documented', async () => {
    const all = await loadAll();
    for (const fixture of IMAGE_FIXTURES) {
      expect(statSync(join(dir, fixture.file)).size, fixture.file).toBeLessThan(60 * 1024);
      const analysis = all.get(fixture.file) as AnalysedImage;
      expect(analysis.image.format, fixture.file).toBe(fixture.format);
      expect(analysis.face !== null, fixture.file).toBe(fixture.faceDetected);
      if (fixture.autoDocumentType) expect(scanDocument(analysis, 'auto').value.documentType, fixture.file).toBe(fixture.autoDocumentType);
    }
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('| face.jpg | jpeg |');
  });

  it('matches exactly the pairs that show the same person', async () => {
    const all = await loadAll();
    let pairs = 0;
    for (const a of IMAGE_FIXTURES) {
      for (const b of IMAGE_FIXTURES) {
        if (a.file >= b.file) continue;
        const expected = a.person !== null && a.person === b.person;
        const result = compareFaces(all.get(a.file) as AnalysedImage, all.get(b.file) as AnalysedImage).value;
        expect(result.isMatch, `${a.file} vs ${b.file} (${result.confidence})`).toBe(expected);
        pairs++;
      }
    }
    expect(pairs).toBe(66);
  });

  it('verifies passport.jpg with face.jpg and drivers-license.jpg with different-face.jpg, and not crosswise', async () => {
    const all = await loadAll();
    const verify = (doc: string, face: string) =>
      verifyIdentity({ document: all.get(doc) as AnalysedImage, face: all.get(face) as AnalysedImage, documentType: 'auto' }).value.verified;
    expect(verify('passport.jpg', 'face.jpg')).toBe(true);
    expect(verify('drivers-license.jpg', 'different-face.jpg')).toBe(true);
    expect(verify('passport.jpg', 'different-face.jpg')).toBe(false);
    expect(verify('drivers-license.jpg', 'face.jpg')).toBe(false);
    expect(verify('blank.png', 'face.jpg')).toBe(false);
  });

  it('lists the fixtures as catalog rows', () => {
    const rows = imageFixtureCatalog();
    expect(rows).toHaveLength(IMAGE_FIXTURES.length);
    expect(rows.find((row) => row.input === 'fixtures/images/blank.png')?.outcome).toBe(
      'no face (compare confidence 0 with anything); document scan unreadable',
    );
    expect(rows.find((row) => row.input === 'fixtures/images/face.jpg')?.outcome).toMatch(
      /^face detected; face compare matches face\.png, face\.gif, face\.bmp, face\.tiff, face\.webp, face-cropped\.jpg, passport\.jpg, national-id\.jpg;/,
    );
  });
});
