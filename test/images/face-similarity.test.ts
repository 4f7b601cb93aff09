import { describe, expect, it } from 'vitest';
import { FACE_MATCH_THRESHOLD } from '../../src/images/face-match.ts';
import { compareSignatures, hammingDistance } from '../../src/images/perceptual-hash.ts';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { ALL_FORMATS, analyseBytes, croppedBytes, faceBytes, inlineDecoder, resizedBytes } from './helpers.ts';

const decoder = inlineDecoder();
const SEEDS = Array.from({ length: 12 }, (_, i) => `similarity-${i}`);

async function similarity(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = [await analyseBytes(decoder, a), await analyseBytes(decoder, b)];
  const forward = compareSignatures(left.signature, right.signature);
  expect(compareSignatures(right.signature, left.signature)).toEqual(forward); // symmetric
  return forward.similarity;
}

describe('similarity of the same picture, changed', () => {
  it(`stays at or above 99 for re-encodings in all six formats across ${SEEDS.length} generated faces`, async () => {
    for (const seed of SEEDS) {
      const face = drawSyntheticFace(seed, 160, 200);
      const original = await encodeImage(face, 'png');
      for (const format of ALL_FORMATS) {
        expect(await similarity(original, await encodeImage(face, format, { quality: 75 })), `${seed} ${format}`).toBeGreaterThanOrEqual(99);
      }
    }
  }, 60_000);

  it('stays at or above 99 for JPEG quality 15 and 95 and for resizing to 0.3x and 2x', async () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const original = await faceBytes(seed, 'png');
      expect(await similarity(original, await faceBytes(seed, 'jpeg', 160, 200, 15)), `${seed} q15`).toBeGreaterThanOrEqual(99);
      expect(await similarity(original, await faceBytes(seed, 'jpeg', 160, 200, 95)), `${seed} q95`).toBeGreaterThanOrEqual(99);
      expect(await similarity(original, await resizedBytes(seed, 0.3)), `${seed} 0.3x`).toBeGreaterThanOrEqual(99);
      expect(await similarity(original, await resizedBytes(seed, 2, 'webp')), `${seed} 2x`).toBeGreaterThanOrEqual(99);
    }
  }, 60_000);

  it('stays well above the threshold when 2-3% is cropped from the sides', async () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const original = await faceBytes(seed, 'png');
      const allSides = await similarity(original, await croppedBytes(seed, { left: 0.02, top: 0.02, right: 0.02, bottom: 0.02 }));
      const corner = await similarity(original, await croppedBytes(seed, { left: 0.03, top: 0.03 }, 'webp'));
      const oneSide = await similarity(original, await croppedBytes(seed, { right: 0.03 }, 'gif'));
      for (const [name, value] of [
        ['2% all sides', allSides],
        ['3% corner', corner],
        ['3% one side', oneSide],
      ] as const) {
        expect(value, `${seed} ${name}`).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD + 8);
      }
    }
  }, 60_000);
});

describe('similarity of unrelated pictures', () => {
  it('stays well below the threshold for every pair of 12 different generated faces (66 pairs)', async () => {
    const analyses = [];
    for (const seed of SEEDS) analyses.push(await analyseBytes(decoder, await faceBytes(seed, 'jpeg')));
    let max = 0;
    for (let i = 0; i < analyses.length; i++) {
      for (let j = i + 1; j < analyses.length; j++) {
        const value = compareSignatures(analyses[i]!.signature, analyses[j]!.signature).similarity;
        expect(value, `${SEEDS[i]} vs ${SEEDS[j]}`).toBeLessThan(FACE_MATCH_THRESHOLD - 30);
        max = Math.max(max, value);
      }
    }
    expect(max).toBeGreaterThan(0);
  }, 60_000);
});

describe('the 64-bit perceptual hash', () => {
  it('is 16 hex digits, barely moves under re-encoding and differs a lot between unrelated faces', async () => {
    const a = await analyseBytes(decoder, await faceBytes('hash-a', 'png'));
    const aJpeg = await analyseBytes(decoder, await faceBytes('hash-a', 'jpeg', 160, 200, 40));
    const b = await analyseBytes(decoder, await faceBytes('hash-b', 'png'));
    expect(a.signature.phash).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(a.signature.phash, aJpeg.signature.phash)).toBeLessThanOrEqual(4);
    expect(hammingDistance(a.signature.phash, b.signature.phash)).toBeGreaterThanOrEqual(12);
  });

  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hammingDistance('0f00000000000001', 'f000000000000000')).toBe(9);
  });
});
