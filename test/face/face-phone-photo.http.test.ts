/**
 * What a phone app uploads: a 12-megapixel selfie (3024 × 4032, JPEG quality 88 with camera-like noise). It
 * passes the image gate (16 megapixels), is decoded at reduced scale, and gives the same person as a small
 * picture of the same face.
 */
import { describe, expect, it } from 'vitest';
import { FaceCompareResponseSchema, FaceDetectResponseSchema } from '../../src/face/face.schemas.ts';
import { drawSyntheticFace, encodeImage, phonePhotoJpeg } from '../../src/images/synthetic-images.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { postMultipart } from '../images/http-helpers.ts';

describe('a 12-megapixel phone selfie', () => {
  it('is detected (200, a face) and matches a small picture of the same face', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const selfie = await phonePhotoJpeg('phone-selfie', 3024, 4032);
    expect(selfie.length).toBeLessThan(15 * 1024 * 1024);

    const detect = await postMultipart(sandbox, '/v1/face/detect', { image: selfie });
    expect(detect.status, detect.text).toBe(200);
    expect(FaceDetectResponseSchema.parse(detect.body).faceDetected).toBe(true);
    expect(detect.headers.get('x-sandbox-explain')).toContain('JPEG 3024x4032: photo');

    const small = await encodeImage(drawSyntheticFace('phone-selfie', 378, 504), 'jpeg', { quality: 85 });
    const compare = await postMultipart(sandbox, '/v1/face/compare', { source: selfie, target: small });
    expect(compare.status, compare.text).toBe(200);
    const body = FaceCompareResponseSchema.parse(compare.body);
    expect(body.isMatch).toBe(true);
    expect(body.confidence).toBeGreaterThanOrEqual(90);
  }, 60_000);
});
