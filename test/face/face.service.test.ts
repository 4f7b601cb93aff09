import { describe, expect, it } from 'vitest';
import { FaceAgeResponseSchema, FaceCompareResponseSchema, FaceDetectResponseSchema } from '../../src/face/face.schemas.ts';
import { compareFaces, detectFace, estimateAge, FACE_MATCH_THRESHOLD, MIN_FACE_SIMILARITY } from '../../src/face/face.service.ts';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { analyseBytes, blankBytes, faceBytes, inlineDecoder } from '../images/helpers.ts';

const decoder = inlineDecoder();

async function face(seed: string, format: 'jpeg' | 'png' | 'webp' = 'jpeg') {
  return analyseBytes(decoder, await faceBytes(seed, format));
}
async function blank() {
  return analyseBytes(decoder, await blankBytes('png', [240, 240, 240], 2));
}

describe('face detect', () => {
  it('answers a face with confidence, box and five landmarks for a portrait', async () => {
    const {
      value: response,
      explanations: [explanation],
    } = detectFace(await face('detect-portrait'));
    expect(FaceDetectResponseSchema.parse(response)).toEqual(response);
    expect(Object.keys(response)).toEqual(['faceDetected', 'confidence', 'boundingBox', 'landmarks']);
    expect(response.faceDetected).toBe(true);
    expect(response.confidence).toBeGreaterThan(0.8);
    expect(response.landmarks?.map((l) => l.type)).toEqual(['eyeLeft', 'eyeRight', 'nose', 'mouthLeft', 'mouthRight']);
    expect(explanation).toMatch(/^JPEG 160x200: photo, face by skin \(confidence 0\.\d+\), phash [0-9a-f]{16}$/);
  });

  it('answers exactly { faceDetected: false, confidence: 0 } for a blank frame', async () => {
    const {
      value: response,
      explanations: [explanation],
    } = detectFace(await blank());
    expect(response).toStrictEqual({ faceDetected: false, confidence: 0 });
    expect(FaceDetectResponseSchema.parse(response)).toStrictEqual(response);
    expect(explanation).toContain('near-uniform');
  });
});

describe('face compare follows every row of the spec table', () => {
  it('same photo re-encoded: match, confidence at or above the threshold', async () => {
    const outcome = compareFaces(await face('compare-same', 'png'), await face('compare-same', 'webp'));
    expect(FaceCompareResponseSchema.parse(outcome.value)).toEqual(outcome.value);
    expect(outcome.value).toMatchObject({ isMatch: true, threshold: 80, sourceFaceDetected: true, targetFaceDetected: true });
    expect(outcome.value.confidence).toBeGreaterThanOrEqual(99);
    expect(outcome.explanations[0]).toMatch(/^face similarity 99\.\d\d >= threshold 80 \(/);
  });

  it('both faces, similarity too low: isMatch false, confidence greater than 0, both detected', async () => {
    const outcome = compareFaces(await face('compare-one'), await face('compare-two'));
    expect(outcome.value.isMatch).toBe(false);
    expect(outcome.value.confidence).toBeGreaterThan(0);
    expect(outcome.value.confidence).toBeLessThan(FACE_MATCH_THRESHOLD);
    expect(outcome.value.sourceFaceDetected).toBe(true);
    expect(outcome.value.targetFaceDetected).toBe(true);
    expect(outcome.explanations[0]).toMatch(/< threshold 80/);
  });

  it('both faces with zero similarity still report a confidence greater than 0 (the floor)', async () => {
    const picture = drawSyntheticFace('compare-negative', 160, 200);
    const negative = picture.clone();
    const data = negative.bitmap.data;
    for (let i = 0; i < data.length; i += 4) {
      data[i] = 255 - (data[i] ?? 0);
      data[i + 1] = 255 - (data[i + 1] ?? 0);
      data[i + 2] = 255 - (data[i + 2] ?? 0);
    }
    const outcome = compareFaces(
      await analyseBytes(decoder, await encodeImage(picture, 'png')),
      await analyseBytes(decoder, await encodeImage(negative, 'png')),
    );
    expect(outcome.similarity?.similarity).toBe(0);
    expect(outcome.value).toStrictEqual({
      isMatch: false,
      confidence: MIN_FACE_SIMILARITY,
      threshold: 80,
      sourceFaceDetected: true,
      targetFaceDetected: true,
    });
  });

  it('no face in source: confidence 0, sourceFaceDetected false, targetFaceDetected true', async () => {
    const outcome = compareFaces(await blank(), await face('compare-target'));
    expect(outcome.value).toStrictEqual({ isMatch: false, confidence: 0, threshold: 80, sourceFaceDetected: false, targetFaceDetected: true });
    expect(outcome.explanations[0]).toMatch(/^no face in source -> confidence 0/);
  });

  it('no face in target: confidence 0, sourceFaceDetected true, targetFaceDetected false', async () => {
    const outcome = compareFaces(await face('compare-source'), await blank());
    expect(outcome.value).toStrictEqual({ isMatch: false, confidence: 0, threshold: 80, sourceFaceDetected: true, targetFaceDetected: false });
  });

  it('no face in either: confidence 0, both false (two identical blank frames do not match)', async () => {
    const outcome = compareFaces(await blank(), await blank());
    expect(outcome.value).toStrictEqual({ isMatch: false, confidence: 0, threshold: 80, sourceFaceDetected: false, targetFaceDetected: false });
    expect(FaceCompareResponseSchema.parse(outcome.value)).toStrictEqual(outcome.value);
    expect(outcome.explanations[0]).toMatch(/^no face in either picture/);
  });

  it('isMatch is true exactly when confidence is at or above the threshold', async () => {
    const [a, b] = [await face('threshold-a', 'png'), await face('threshold-a', 'jpeg')];
    const confidence = compareFaces(a, b).value.confidence;
    expect(compareFaces(a, b, confidence).value.isMatch).toBe(true);
    expect(compareFaces(a, b, confidence + 0.01).value).toMatchObject({ isMatch: false, confidence, threshold: confidence + 0.01 });
  });
});

describe('face estimate-age', () => {
  it('answers age, range, gender and confidence for a face; the age is the midpoint of the range', async () => {
    const { value: response } = estimateAge(await face('age-portrait'));
    expect(FaceAgeResponseSchema.parse(response)).toStrictEqual(response);
    expect(Object.keys(response)).toEqual(['faceDetected', 'estimatedAge', 'ageRange', 'gender', 'genderConfidence']);
    expect(response.faceDetected).toBe(true);
    expect(response.estimatedAge).toBe(((response.ageRange?.low ?? 0) + (response.ageRange?.high ?? 0)) / 2);
    expect(Number.isInteger(response.estimatedAge)).toBe(true);
  });

  it('answers just { faceDetected: false } without a face', async () => {
    const { value: response } = estimateAge(await blank());
    expect(response).toStrictEqual({ faceDetected: false });
  });

  it('gives the same person the same estimate when the photo is re-encoded (±1 year)', async () => {
    for (let s = 0; s < 6; s++) {
      const png = estimateAge(await face(`age-stable-${s}`, 'png')).value;
      const jpeg = estimateAge(await face(`age-stable-${s}`, 'jpeg')).value;
      const webp = estimateAge(await face(`age-stable-${s}`, 'webp')).value;
      for (const other of [jpeg, webp]) {
        expect(Math.abs((other.estimatedAge ?? 0) - (png.estimatedAge ?? 0))).toBeLessThanOrEqual(1);
        expect(other.gender).toBe(png.gender);
      }
    }
  });

  it('is deterministic: the same bytes always give the same answer', async () => {
    const bytes = await faceBytes('age-determinism');
    const first = estimateAge(await analyseBytes(decoder, bytes)).value;
    const second = estimateAge(await analyseBytes(decoder, bytes)).value;
    expect(second).toStrictEqual(first);
  });
});
