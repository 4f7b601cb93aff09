import { describe, expect, it } from 'vitest';
import { FaceCompareResponseSchema } from '../../src/face/face.schemas.ts';
import { IdentityVerifyResponseSchema } from '../../src/identity/identity.schemas.ts';
import { verifyIdentity } from '../../src/identity/identity.service.ts';
import { IMAGE_ENDPOINTS, imageCatalogEntries } from '../../src/images/image-catalog.ts';
import { PresignResponseSchema } from '../../src/upload/upload.schemas.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { analysed, balances, expectImageError, fixture, postMultipart, uploadFiles } from '../images/http-helpers.ts';

describe('the real client flow: presign, PUT, then file keys', () => {
  it('compares two uploaded pictures of the same face (match) and verifies the passport against the selfie', async () => {
    const sandbox = await testSandbox();
    const before = await balances(sandbox);
    const [selfie, cropped] = await uploadFiles(sandbox, [
      { bytes: fixture('face.jpg'), contentType: 'image/jpeg' },
      { bytes: fixture('face-cropped.jpg'), contentType: 'image/jpeg' },
    ]);
    const compare = await sandbox.call('POST', '/v1/face/compare', { body: { source: selfie, target: cropped } });
    expect(compare.status, compare.text).toBe(200);
    expect(FaceCompareResponseSchema.parse(compare.body)).toStrictEqual({
      isMatch: true,
      confidence: 97.26,
      threshold: 80,
      sourceFaceDetected: true,
      targetFaceDetected: true,
    });

    const [documentKey, faceKey] = await uploadFiles(sandbox, [
      { bytes: fixture('passport.jpg'), contentType: 'image/jpeg' },
      { bytes: fixture('face.png'), contentType: 'image/png' },
    ]);
    const verify = await sandbox.call('POST', '/v1/identity/verify', { body: { documentImage: documentKey, faceImage: faceKey } });
    expect(verify.status, verify.text).toBe(200);
    const body = IdentityVerifyResponseSchema.parse(verify.body);
    const expected = verifyIdentity({
      document: await analysed(fixture('passport.jpg')),
      face: await analysed(fixture('face.png')),
      documentType: 'auto',
    }).value;
    expect(body).toStrictEqual(expected);
    expect(body.verified).toBe(true);
    expect(body.document.documentType).toBe('passport');
    expect(body.faceMatch).toStrictEqual({ isMatch: true, confidence: 99.04, threshold: 80 });
    expect(body.faceDetection.faceDetected).toBe(true);
    expect(body.faceDetection.confidence).toBeGreaterThan(50);
    expect(body.overallConfidence).toBeGreaterThan(90);
    expect(body.overallConfidence).toBeLessThanOrEqual(100);
    expect('rawFields' in body.document || 'mrzData' in body.document).toBe(false);
    expect(verify.headers.get('x-sandbox-explain')).toMatch(
      /verified: document read \([\d.]+\); face detected \([\d.]+\); face similarity 99\.04 >= threshold 80/,
    );
    expect((await balances(sandbox)).org_demo).toBe((before.org_demo ?? 0) - 2);
  });

  it("answers 403 with hints for another organization's key and for a key whose bytes never arrived, and charges nothing", async () => {
    const sandbox = await testSandbox();
    const [foreignKey] = await uploadFiles(sandbox, [{ bytes: fixture('face.jpg'), contentType: 'image/jpeg' }], KEYS.other);
    const [ownKey] = await uploadFiles(sandbox, [{ bytes: fixture('face.jpg'), contentType: 'image/jpeg' }]);
    const before = await balances(sandbox);

    const foreign = await sandbox.call('POST', '/v1/face/compare', { body: { source: ownKey, target: foreignKey } });
    expectImageError(foreign, 403, `target: storage key "${foreignKey}" is not readable by this organization`);
    expect(foreign.body.hints[0]).toMatch(/is not readable by this organization: use a fileKey returned by a presign call of the same organization/);
    expect(foreign.body.hints).toContain('Keys are scoped to the organization that created them; a key of another organization is never readable.');

    const presign = PresignResponseSchema.parse(
      (await sandbox.call('POST', '/v1/upload/presign', { body: { files: [{ contentType: 'image/png', byteLength: 100 }] } })).body,
    );
    const neverUploaded = presign.uploads[0]?.fileKey as string;
    const missing = await sandbox.call('POST', '/v1/identity/verify', { body: { documentImage: ownKey, faceImage: neverUploaded, documentType: 'passport' } });
    expectImageError(missing, 403, `faceImage: storage key "${neverUploaded}" is not readable by this organization`);
    expect(missing.body.hints[0]).toBe(`Nothing was uploaded for the storage key "${neverUploaded}" yet: PUT the bytes to its uploadUrl first.`);

    // The owner can read its own key.
    expect((await sandbox.call('POST', '/v1/face/detect', { key: KEYS.other, body: { image: foreignKey } })).status).toBe(200);
    expect(await balances(sandbox)).toStrictEqual({ ...before, org_other: (before.org_other ?? 0) - 1 });
  });
});

describe('POST /v1/identity/verify', () => {
  it('verifies a driving licence against its holder and not against another person, in multipart with documentType', async () => {
    const sandbox = await testSandbox();
    const holder = await postMultipart(sandbox, '/v1/identity/verify', {
      documentImage: fixture('drivers-license.jpg'),
      faceImage: fixture('different-face.jpg'),
      documentType: 'drivers_license',
    });
    expect(holder.status, holder.text).toBe(200);
    const verified = IdentityVerifyResponseSchema.parse(holder.body);
    expect(verified.verified).toBe(true);
    expect(verified.document.documentType).toBe('drivers_license');

    const stranger = await sandbox.call('POST', '/v1/identity/verify', {
      body: { documentImage: fixture('drivers-license.jpg').toString('base64'), faceImage: fixture('face.webp').toString('base64url') },
    });
    const rejected = IdentityVerifyResponseSchema.parse(stranger.body);
    expect(rejected.verified).toBe(false);
    expect(rejected.faceMatch.isMatch).toBe(false);
    expect(rejected.faceMatch.confidence).toBeLessThan(20);
    expect(rejected.document).toStrictEqual(verified.document);

    const blankSelfie = IdentityVerifyResponseSchema.parse(
      (
        await sandbox.call('POST', '/v1/identity/verify', {
          body: { documentImage: fixture('passport.jpg').toString('base64'), faceImage: fixture('blank.png').toString('base64') },
        })
      ).body,
    );
    expect(blankSelfie).toMatchObject({
      verified: false,
      faceDetection: { faceDetected: false, confidence: 0 },
      faceMatch: { isMatch: false, confidence: 0, threshold: 80 },
    });
  });

  it('checks documentType before anything else is done, and answers 402 to an empty balance', async () => {
    const sandbox = await testSandbox();
    const bad = await sandbox.call('POST', '/v1/identity/verify', { body: { documentImage: 'uploads/x-y', faceImage: 'uploads/x-y', documentType: 'visa' } });
    expectImageError(bad, 400, /^documentType "visa" is not supported/);
    const broke = await sandbox.call('POST', '/v1/identity/verify', { key: KEYS.broke, body: { documentImage: 'uploads/x-y', faceImage: 'uploads/x-y' } });
    expect(broke.status).toBe(402);
    expect((await balances(sandbox)).org_broke).toBe(0);
  });
});

describe('image modules on the platform', () => {
  it('registers the image rules, fixtures and liveness magic values in the catalog once', async () => {
    const sandbox = await testSandbox();
    const catalog = await sandbox.call('GET', '/__sandbox/catalog', { key: null });
    const rows = catalog.body.magicValues as { endpoint: string; input: string; outcome: string }[];
    const imageRows = rows.filter((row) => row.endpoint === IMAGE_ENDPOINTS);
    expect(imageRows.length).toBe(imageCatalogEntries().filter((row) => row.endpoint === IMAGE_ENDPOINTS).length);
    expect(rows).toContainEqual(
      expect.objectContaining({
        endpoint: IMAGE_ENDPOINTS,
        input: 'fixtures/images/blank.png',
        outcome: 'no face (compare confidence 0 with anything); document scan unreadable',
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        endpoint: 'POST /v1/identity/verify',
        input: 'documentImage fixtures/images/passport.jpg, faceImage one of face.jpg, face.png, face.gif, face.bmp, face.tiff, face.webp, face-cropped.jpg',
      }),
    );
    expect(rows).toContainEqual(expect.objectContaining({ input: 'documentType auto, picture width/height >= 1.5', outcome: 'documentType drivers_license' }));
    expect(rows.filter((row) => row.input === 'session_id test_liveness_spoof')).toHaveLength(1);
    // The retention sweep's stop alone: the image decoder holds nothing to release (no worker threads).
    expect(sandbox.platform.closers).toHaveLength(1);
  });

  it('keeps decoding in one sandbox after another closed, and in a sandbox created after both closed', async () => {
    const first = await testSandbox();
    const second = await testSandbox();
    const body = { image: fixture('face.gif').toString('base64') };
    expect((await first.call('POST', '/v1/face/detect', { body })).status).toBe(200);
    await first.close();
    expect((await second.call('POST', '/v1/face/detect', { body })).body.faceDetected).toBe(true);
    await second.close();
    const third = await testSandbox();
    expect((await third.call('POST', '/v1/face/detect', { body })).body.faceDetected).toBe(true);
    await third.close();
  });
});
