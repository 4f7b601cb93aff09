import { describe, expect, it } from 'vitest';
import { FaceAgeResponseSchema, FaceCompareResponseSchema, FaceDetectResponseSchema } from '../../src/face/face.schemas.ts';
import { compareFaces, estimateAge, FACE_MATCH_THRESHOLD } from '../../src/face/face.service.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { analysed, balances, expectImageError, fixture, postMultipart } from '../images/http-helpers.ts';
import { croppedBytes, faceBytes, resizedBytes } from '../images/helpers.ts';

const b64 = (name: string) => fixture(name).toString('base64');

async function compare(sandbox: TestSandbox, source: Buffer, target: Buffer) {
  const response = await sandbox.call('POST', '/v1/face/compare', { body: { source: source.toString('base64'), target: target.toString('base64') } });
  expect(response.status, response.text).toBe(200);
  return { body: FaceCompareResponseSchema.parse(response.body), explain: response.headers.get('x-sandbox-explain') ?? '' };
}

describe('POST /v1/face/compare', () => {
  it('answers every row of the spec table, plus the match row, with 200 and exact values', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const rows: [string, string, string, Partial<Record<string, unknown>>][] = [
      ['match', 'face.jpg', 'face-cropped.jpg', { isMatch: true, sourceFaceDetected: true, targetFaceDetected: true }],
      ['both faces, similarity too low', 'face.jpg', 'different-face.jpg', { isMatch: false, sourceFaceDetected: true, targetFaceDetected: true }],
      ['no face in source (target has one)', 'blank.png', 'face.jpg', { isMatch: false, confidence: 0, sourceFaceDetected: false, targetFaceDetected: true }],
      ['no face in target', 'face.jpg', 'blank.png', { isMatch: false, confidence: 0, sourceFaceDetected: true, targetFaceDetected: false }],
      ['no face in either', 'blank.png', 'blank.png', { isMatch: false, confidence: 0, sourceFaceDetected: false, targetFaceDetected: false }],
    ];
    for (const [row, source, target, expected] of rows) {
      const { body, explain } = await compare(sandbox, fixture(source), fixture(target));
      expect(body, row).toMatchObject({ ...expected, threshold: FACE_MATCH_THRESHOLD });
      expect(body, row).toStrictEqual(compareFaces(await analysed(fixture(source)), await analysed(fixture(target))).value);
      if (row === 'match') expect(body.confidence).toBeGreaterThanOrEqual(90);
      if (row === 'both faces, similarity too low') {
        expect(body.confidence).toBeGreaterThan(0);
        expect(body.confidence).toBeLessThan(20);
        expect(explain).toContain(`face similarity ${body.confidence.toFixed(2)} < threshold 80`);
      }
      if (row === 'no face in target') expect(explain).toContain('no face in target -> confidence 0');
    }
  });

  it('matches a generated face re-encoded, resized or cropped, and not a different generated face', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const original = await faceBytes('http-pair-a');
    const sameFace = [
      await faceBytes('http-pair-a', 'webp', 160, 200, 60),
      await resizedBytes('http-pair-a', 0.7, 'png'),
      await croppedBytes('http-pair-a', { left: 0.03, top: 0.02 }),
    ];
    for (const variant of sameFace) {
      const { body } = await compare(sandbox, original, variant);
      expect(body.isMatch).toBe(true);
      expect(body.confidence).toBeGreaterThanOrEqual(90);
    }
    for (const seed of ['http-pair-b', 'http-pair-c']) {
      const { body } = await compare(sandbox, original, await faceBytes(seed));
      expect(body.isMatch).toBe(false);
      expect(body.confidence).toBeGreaterThan(0);
      expect(body.confidence).toBeLessThan(FACE_MATCH_THRESHOLD);
    }
  });

  it('decodes two fields holding the same bytes once and answers 100', async () => {
    const sandbox = await testSandbox();
    const response = await sandbox.call('POST', '/v1/face/compare', { body: { source: b64('face.png'), target: b64('face.png') } });
    expect(response.body).toStrictEqual({ isMatch: true, confidence: 100, threshold: 80, sourceFaceDetected: true, targetFaceDetected: true });
  });
});

describe('POST /v1/face/detect and /v1/face/estimate-age', () => {
  it('finds the face of a photo with a box and five landmarks inside the picture, and none in a blank frame', async () => {
    const sandbox = await testSandbox();
    const face = await sandbox.call('POST', '/v1/face/detect', { body: { image: b64('face.jpg') } });
    const body = FaceDetectResponseSchema.parse(face.body);
    expect(body.faceDetected).toBe(true);
    expect(body.confidence).toBe(0.9628);
    expect(body.landmarks?.map((l) => l.type)).toEqual(['eyeLeft', 'eyeRight', 'nose', 'mouthLeft', 'mouthRight']);
    const box = body.boundingBox as { top: number; left: number; width: number; height: number };
    for (const landmark of body.landmarks ?? []) {
      expect(landmark.x).toBeGreaterThanOrEqual(box.left);
      expect(landmark.x).toBeLessThanOrEqual(box.left + box.width);
      expect(landmark.y).toBeGreaterThanOrEqual(box.top);
      expect(landmark.y).toBeLessThanOrEqual(box.top + box.height);
    }
    const blank = await postMultipart(sandbox, '/v1/face/detect', { image: fixture('blank.png') });
    expect(blank.status).toBe(200);
    expect(blank.body).toStrictEqual({ faceDetected: false, confidence: 0 });
    expect(blank.headers.get('x-sandbox-explain')).toContain('near-uniform');
  });

  it('estimates age and gender from the face, and answers exactly {faceDetected:false} without one', async () => {
    const sandbox = await testSandbox();
    const response = await sandbox.call('POST', '/v1/face/estimate-age', { body: { image: b64('face.jpg') } });
    const body = FaceAgeResponseSchema.parse(response.body);
    expect(body).toStrictEqual(estimateAge(await analysed(fixture('face.jpg'))).value);
    expect(body).toStrictEqual({ faceDetected: true, estimatedAge: 32, ageRange: { low: 28, high: 36 }, gender: 'female', genderConfidence: 0.9579 });
    expect(body.estimatedAge).toBe(Math.round(((body.ageRange?.low ?? 0) + (body.ageRange?.high ?? 0)) / 2));
    const again = await postMultipart(sandbox, '/v1/face/estimate-age', { image: fixture('face.jpg') });
    expect(again.body).toStrictEqual(body);

    const blank = await sandbox.call('POST', '/v1/face/estimate-age', { body: { image: b64('blank.png') } });
    expect(blank.status).toBe(200);
    expect(blank.text).toBe('{"faceDetected":false}');
  });
});

describe('face operations: keys and billing', () => {
  it('charges 1 token per successful call, answers 402 to an empty balance before decoding, and 403 to a sandbox key', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const before = await balances(sandbox);
    const broke = await sandbox.call('POST', '/v1/face/compare', { key: KEYS.broke, body: { source: b64('face.jpg'), target: b64('face.png') } });
    expect(broke.status).toBe(402);
    expect(broke.body.error).toMatch(/^Insufficient funds or subscription/);
    expect(broke.body.hints).toEqual([]);
    // 402 comes before the pictures are looked at: even garbage gets it.
    expect((await sandbox.call('POST', '/v1/face/detect', { key: KEYS.broke, body: { image: 'AAAA' } })).status).toBe(402);

    const sandboxKey = await sandbox.call('POST', '/v1/face/detect', { key: KEYS.sandbox, body: { image: b64('face.jpg') } });
    expect(sandboxKey.status).toBe(403);
    expect(sandboxKey.body.error).toMatch(/live API key is needed/);
    expect(Array.isArray(sandboxKey.body.hints)).toBe(true);
    expect((await sandbox.call('POST', '/v1/face/detect', { key: KEYS.revoked, body: { image: b64('face.jpg') } })).status).toBe(401);
    expect((await sandbox.call('POST', '/v1/face/detect', { key: null, body: { image: b64('face.jpg') } })).status).toBe(401);

    expectImageError(await sandbox.call('POST', '/v1/face/detect', { body: { image: 'bm90IGFuIGltYWdl' } }), 400, /unsupported image format/);
    expect(await balances(sandbox)).toStrictEqual(before);

    for (const path of ['/v1/face/detect', '/v1/face/estimate-age']) {
      const ok = await sandbox.call('POST', path, { body: { image: b64('face.jpg') } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-sandbox-explain')).toMatch(/billing: charged 1 token \(balance \d+\)$/);
    }
    await compare(sandbox, fixture('face.jpg'), fixture('blank.png'));
    expect(await balances(sandbox)).toStrictEqual({ ...before, org_demo: (before.org_demo ?? 0) - 3 });
  });
});
