import { describe, expect, it } from 'vitest';
import { FaceDetectResponseSchema } from '../../src/face/face.schemas.ts';
import { compareFaces, detectFace, estimateAge } from '../../src/face/face.service.ts';
import { scanDocument } from '../../src/document/document.service.ts';
import { estimateAgeGender, LANDMARK_TYPES, medianInPlace } from '../../src/images/face-analysis.ts';
import { rngFrom } from '../../src/platform/random/random.ts';
import { encodeImage } from '../../src/images/synthetic-images.ts';
import { analyseBytes, blankBytes, documentBytes, faceBytes, inlineDecoder, paintedImage } from './helpers.ts';

const decoder = inlineDecoder();

describe('face presence comes from the content', () => {
  it('finds no face in near-uniform pictures: flat colours, faint noise, smooth ramps', async () => {
    const pictures: [string, Buffer][] = [
      ['white PNG', await blankBytes('png', [255, 255, 255])],
      ['black JPEG', await blankBytes('jpeg', [0, 0, 0])],
      ['grey with sensor noise', await blankBytes('png', [128, 130, 127], 10)],
      ['beige (skin-coloured) WebP', await blankBytes('webp', [224, 172, 138], 3)],
      [
        'horizontal ramp',
        await encodeImage(
          paintedImage(200, 150, (x) => [x, x, x]),
          'png',
        ),
      ],
      [
        'radial vignette',
        await encodeImage(
          paintedImage(160, 160, (x, y) => {
            const d = Math.hypot(x - 80, y - 80);
            return [200 - d, 180 - d, 170 - d];
          }),
          'jpeg',
        ),
      ],
    ];
    for (const [name, bytes] of pictures) {
      const analysis = await analyseBytes(decoder, bytes);
      expect(analysis.nearUniform, name).toBe(true);
      expect(analysis.face, name).toBeNull();
      expect(analysis.ageGender, name).toBeNull();
      expect(analysis.summary, name).toContain('near-uniform');
    }
  });

  it('finds one face with a box inside the picture and five landmarks placed like a face', async () => {
    for (let s = 0; s < 8; s++) {
      const analysis = await analyseBytes(decoder, await faceBytes(`presence-${s}`));
      const face = analysis.face;
      expect(face, `seed ${s}`).not.toBeNull();
      if (!face) continue;
      const box = face.boundingBox;
      for (const v of [box.top, box.left, box.width, box.height]) expect(v).toBeGreaterThanOrEqual(0);
      expect(box.top + box.height).toBeLessThanOrEqual(1);
      expect(box.left + box.width).toBeLessThanOrEqual(1);
      expect(box.width).toBeGreaterThan(0.15);
      expect(box.height).toBeGreaterThan(0.15);
      expect(face.landmarks.map((l) => l.type)).toEqual([...LANDMARK_TYPES]);
      const at = Object.fromEntries(face.landmarks.map((l) => [l.type, l]));
      const inBox = (x: number, y: number) =>
        x >= box.left - 0.01 && x <= box.left + box.width + 0.01 && y >= box.top - 0.01 && y <= box.top + box.height + 0.01;
      for (const l of face.landmarks) expect(inBox(l.x, l.y), `${l.type} of seed ${s}`).toBe(true);
      expect(at.eyeLeft!.x).toBeLessThan(at.eyeRight!.x);
      expect(at.nose!.y).toBeGreaterThan(Math.min(at.eyeLeft!.y, at.eyeRight!.y));
      expect(at.mouthLeft!.y).toBeGreaterThan(at.nose!.y);
      expect(at.mouthLeft!.x).toBeLessThan(at.mouthRight!.x);
      expect(face.confidence).toBeGreaterThan(0.8);
      expect(face.confidence).toBeLessThan(1);
      expect(face.locator).toBe('skin');
    }
  });

  it('gives a lower confidence to a detailed picture without skin tones than to a portrait', async () => {
    const stripes = await analyseBytes(
      decoder,
      await encodeImage(
        paintedImage(160, 120, (x, y) => ((Math.floor(x / 9) + Math.floor(y / 13)) % 2 ? [20, 60, 200] : [40, 200, 90])),
        'png',
      ),
    );
    const portrait = await analyseBytes(decoder, await faceBytes('confidence-portrait'));
    expect(stripes.face?.locator).toBe('detail');
    expect(stripes.face?.confidence).toBeLessThan(0.8);
    expect(stripes.face?.confidence).toBeGreaterThan(0.55);
    expect(portrait.face?.confidence).toBeGreaterThan(stripes.face?.confidence ?? 1);
  });

  it('analyses the same bytes to the same result, every time', async () => {
    const bytes = await faceBytes('determinism', 'png');
    const [a, b] = [await analyseBytes(decoder, bytes), await analyseBytes(decoder, bytes)];
    expect(b.face).toEqual(a.face);
    expect(b.ageGender).toEqual(a.ageGender);
    expect(b.signature.phash).toBe(a.signature.phash);
    expect(b.pixelHash).toBe(a.pixelHash);
    expect(a.pixelHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the skin reference is the median of the centre pixels', () => {
  const sortedMiddle = (values: number[]) => Float64Array.from(values).sort()[Math.floor(values.length / 2)] ?? 0;

  it('selects the value a numeric sort puts in the middle, for any count, duplicates and order', () => {
    const rng = rngFrom('median-selection');
    for (let round = 0; round < 300; round++) {
      const count = rng.int(1, 400);
      const values = Array.from({ length: count }, () => (round % 3 === 0 ? rng.int(0, 4) : rng.float(-300, 300)));
      if (round % 5 === 0) values.sort((a, b) => a - b);
      if (round % 7 === 0) values.sort((a, b) => b - a);
      const buffer = new Float64Array(count + 10).fill(-1e9);
      buffer.set(values);
      expect(medianInPlace(buffer, count)).toBe(sortedMiddle(values));
    }
    expect(medianInPlace(new Float64Array(4), 0)).toBe(0);
  });

  it('still answers exactly when the values defeat the selection (it falls back to sorting what is left)', () => {
    // Each round's pivot (the middle of the range) is the largest value left, so a partition only moves it
    // to the end and the range shrinks by one: the values are placed by replaying those swaps.
    const count = 2000;
    const values = Float64Array.from({ length: count }, (_, i) => -1 - i);
    const at = Array.from({ length: count }, (_, i) => i);
    for (let hi = count - 1, rank = count; hi > count >> 1; hi--) {
      const middle = hi >> 1;
      values[at[middle] as number] = rank--;
      [at[middle], at[hi]] = [at[hi] as number, at[middle] as number];
    }
    const expected = sortedMiddle([...values]);
    expect(medianInPlace(values, count)).toBe(expected);
  });
});

describe('odd sizes', () => {
  it('never throws and never puts a box or landmark outside the picture, from 1x1 to 4000x3', async () => {
    const rng = rngFrom('odd-sizes');
    const sizes: [number, number][] = [
      [1, 1],
      [2, 2],
      [3, 3],
      [15, 40],
      [16, 16],
      [17, 9],
      [16, 300],
      [300, 16],
      [41, 26],
      [4000, 3],
      [3, 2000],
      [999, 17],
    ];
    for (const [w, h] of sizes) {
      const bytes = await encodeImage(
        paintedImage(w, h, () => [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)]),
        'png',
      );
      const analysis = await analyseBytes(decoder, bytes);
      expect(analysis.tooSmall, `${w}x${h}`).toBe(w < 16 || h < 16);
      const detected = detectFace(analysis).value;
      expect(FaceDetectResponseSchema.parse(detected)).toStrictEqual(detected);
      expect(detected.faceDetected, `${w}x${h}`).toBe(!analysis.tooSmall);
      const box = detected.boundingBox;
      if (box) {
        expect(box.width > 0 && box.height > 0, `${w}x${h}`).toBe(true);
        expect(box.left + box.width, `${w}x${h}`).toBeLessThanOrEqual(1);
        expect(box.top + box.height, `${w}x${h}`).toBeLessThanOrEqual(1);
      }
      for (const l of detected.landmarks ?? []) expect(l.x >= 0 && l.x <= 1 && l.y >= 0 && l.y <= 1).toBe(true);
      estimateAge(analysis);
      compareFaces(analysis, analysis);
      expect(scanDocument(analysis, 'auto').readable).toBe(!analysis.tooSmall);
    }
  });
});

describe('documents', () => {
  it('finds the portrait on generated passports, licences and ID cards, where it was drawn', async () => {
    const kinds = ['passport', 'drivers_license', 'national_id'] as const;
    for (let s = 0; s < 6; s++) {
      const kind = kinds[s % 3] as (typeof kinds)[number];
      const analysis = await analyseBytes(decoder, await documentBytes(kind, `layout-${s}`, `layout-person-${s}`));
      const portrait = analysis.document?.portrait;
      expect(portrait, `${kind} ${s}`).toBeDefined();
      // drawSyntheticDocument puts the photo at x = 5% of the width, y = 19% of the height, 28% wide.
      expect(portrait?.left ?? 0).toBeCloseTo(0.05, 1);
      expect(portrait?.top ?? 0).toBeCloseTo(0.19, 1);
      expect(Math.abs((portrait?.width ?? 0) - 0.28)).toBeLessThan(0.02);
      expect(analysis.faceRegion).toEqual(portrait);
      const box = analysis.face?.boundingBox;
      expect(box && portrait && box.left >= portrait.left - 0.01 && box.left + box.width <= portrait.left + portrait.width + 0.01).toBe(true);
    }
  });

  it('does not take a portrait photo or a blank frame for a document', async () => {
    expect((await analyseBytes(decoder, await faceBytes('not-a-document', 'jpeg', 300, 200))).document).toBeNull();
    expect((await analyseBytes(decoder, await blankBytes())).document).toBeNull();
  });
});

describe('age and gender', () => {
  it('are integers in a broad range centred on the estimate, and a gender with a confidence of 0.5-1', async () => {
    const ages = new Set<number>();
    const genders = new Set<string>();
    for (let s = 0; s < 12; s++) {
      const analysis = await analyseBytes(decoder, await faceBytes(`age-${s}`, 'jpeg', 100, 125));
      const estimate = analysis.ageGender;
      expect(estimate).not.toBeNull();
      if (!estimate) continue;
      expect(Number.isInteger(estimate.age) && Number.isInteger(estimate.low) && Number.isInteger(estimate.high)).toBe(true);
      expect((estimate.low + estimate.high) / 2).toBe(estimate.age);
      expect(estimate.high - estimate.low).toBeGreaterThanOrEqual(4);
      expect(estimate.age).toBeGreaterThanOrEqual(18);
      expect(estimate.age).toBeLessThanOrEqual(75);
      expect(estimate.genderConfidence).toBeGreaterThanOrEqual(0.5);
      expect(estimate.genderConfidence).toBeLessThan(1);
      expect(estimateAgeGender(analysis.signature)).toEqual(estimate);
      ages.add(estimate.age);
      genders.add(estimate.gender);
    }
    expect(ages.size).toBeGreaterThan(5); // depends on the picture
    expect([...genders].sort()).toEqual(['female', 'male']);
  });
});
