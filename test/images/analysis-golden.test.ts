import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanDocument } from '../../src/document/document.service.ts';
import { compareFaces, detectFace, estimateAge } from '../../src/face/face.service.ts';
import type { AnalysedImage } from '../../src/images/image-analysis.ts';
import { IMAGE_FIXTURES } from '../../src/images/image-outcomes.ts';
import { drawSyntheticDocument, drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { analyseBytes, inlineDecoder } from './helpers.ts';

/**
 * Every analysis of the fixtures and of megapixel pictures, written down: a change meant to make decoding or
 * analysis faster must leave every one of these figures as it was (the identity read off a document is seeded
 * by the working pixels, so even one pixel off would show here). Regenerate the file only for a change that is
 * meant to alter outcomes: `npx vitest run test/images/analysis-golden.test.ts -u`.
 */

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'images');
const decoder = inlineDecoder();

const digest = (values: ArrayLike<number>) =>
  createHash('sha256')
    .update(Float64Array.from(values as ArrayLike<number>))
    .digest('hex')
    .slice(0, 16);

function record(analysis: AnalysedImage) {
  const scan = scanDocument(analysis, 'auto').value;
  return {
    format: analysis.image.format,
    size: `${analysis.image.width}x${analysis.image.height}`,
    working: `${analysis.image.working.width}x${analysis.image.working.height}`,
    pixelHash: analysis.pixelHash,
    quality: analysis.quality,
    kind: { nearUniform: analysis.nearUniform, tooSmall: analysis.tooSmall, document: analysis.document },
    face: detectFace(analysis).value,
    age: estimateAge(analysis).value,
    signature: { phash: analysis.signature.phash, dct: digest(analysis.signature.dct), colourLayout: digest(analysis.signature.colourLayout) },
    scan: {
      documentType: scan.documentType,
      fullName: scan.fullName,
      documentNumber: scan.documentNumber,
      mrz: scan.mrzData ?? null,
      confidence: scan.confidence,
    },
    summary: analysis.summary,
  };
}

/** What the bench sends: two 1-megapixel JPEGs of one face, and a 1-megapixel passport. */
async function megapixelPictures(): Promise<Record<string, Buffer>> {
  const face = drawSyntheticFace('bench-megapixel-face', 896, 1120);
  const card = await drawSyntheticDocument('passport', 'bench-megapixel-passport', drawSyntheticFace('bench-megapixel-passport'));
  card.resize({ w: 1224, h: 816 });
  return {
    'megapixel-face-q90.jpg': await encodeImage(face, 'jpeg', { quality: 90 }),
    'megapixel-face-q70.jpg': await encodeImage(face, 'jpeg', { quality: 70 }),
    'megapixel-face.png': await encodeImage(face, 'png'),
    'megapixel-passport.jpg': await encodeImage(card, 'jpeg', { quality: 90 }),
  };
}

describe('image analysis outcomes stay exactly what they were', () => {
  it('analyses every fixture and megapixel picture, and compares every pair, as recorded', async () => {
    const pictures: Record<string, Uint8Array> = {};
    for (const fixture of IMAGE_FIXTURES) pictures[fixture.file] = readFileSync(join(fixtures, fixture.file));
    Object.assign(pictures, await megapixelPictures());
    const analyses = new Map<string, AnalysedImage>();
    for (const [name, bytes] of Object.entries(pictures)) analyses.set(name, await analyseBytes(decoder, bytes));
    const names = [...analyses.keys()];
    const similarities: Record<string, number> = {};
    for (const a of names) {
      for (const b of names) {
        if (a >= b) continue;
        similarities[`${a} ~ ${b}`] = compareFaces(analyses.get(a) as AnalysedImage, analyses.get(b) as AnalysedImage).value.confidence;
      }
    }
    const recorded = { pictures: Object.fromEntries(names.map((name) => [name, record(analyses.get(name) as AnalysedImage)])), similarities };
    await expect(`${JSON.stringify(recorded, null, 2)}\n`).toMatchFileSnapshot('./analysis-golden.json');
  }, 60_000);
});
