import { describe, expect, it } from 'vitest';
import { FaceCompareResponseSchema, FaceDetectResponseSchema } from '../../src/face/face.schemas.ts';
import { compareFaces, detectFace } from '../../src/face/face.service.ts';
import { IMAGE_LIMITS } from '../../src/images/image-checks.ts';
import { classifyImageString } from '../../src/images/image-input.ts';
import { IMAGE_FIXTURES } from '../../src/images/image-outcomes.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { alphanumericBase64Bmp, analysed, balances, expectImageError, fixture, pngBombHeader, postMultipart, uploadFiles } from './http-helpers.ts';

const FORMAT_FILES = ['face.jpg', 'face.png', 'face.gif', 'face.bmp', 'face.tiff', 'face.webp'] as const;
/** A label that is wrong for each file: the server must read the format from the bytes. */
const WRONG_LABEL: Record<(typeof FORMAT_FILES)[number], string> = {
  'face.jpg': 'image/png',
  'face.png': 'image/jpeg',
  'face.gif': 'application/pdf',
  'face.bmp': 'image/webp',
  'face.tiff': 'text/plain',
  'face.webp': 'application/octet-stream',
};

describe('image inputs over HTTP: six formats, JSON and multipart', () => {
  it('detects the face in each of the six formats sent as a mislabelled multipart file part and as JSON base64, with the same answer both ways', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    for (const file of FORMAT_FILES) {
      const bytes = fixture(file);
      const expected = detectFace(await analysed(bytes)).value;
      const format = IMAGE_FIXTURES.find((entry) => entry.file === file)?.format.toUpperCase();

      const multipart = await postMultipart(sandbox, '/v1/face/detect', { image: { bytes, type: WRONG_LABEL[file], filename: 'selfie.txt' } });
      expect(multipart.status, `${file}: ${multipart.text}`).toBe(200);
      expect(FaceDetectResponseSchema.parse(multipart.body)).toStrictEqual(expected);
      expect(multipart.body.faceDetected).toBe(true);
      expect(multipart.headers.get('x-sandbox-explain')).toContain(`${format} 104x130`);
      expect(multipart.headers.get('x-sandbox-explain')).toContain('image: ' + bytes.length + ' bytes from a file part');

      const json = await sandbox.call('POST', '/v1/face/detect', { body: { image: bytes.toString('base64') } });
      expect(json.status, file).toBe(200);
      expect(json.body).toStrictEqual(multipart.body);
    }
  });

  it('matches face.jpg sent as base64 against each format sent as base64url, and mixes a file part with a base64 text part', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const source = fixture('face.jpg');
    for (const file of FORMAT_FILES) {
      const response = await sandbox.call('POST', '/v1/face/compare', {
        body: { source: source.toString('base64'), target: fixture(file).toString('base64url') },
      });
      expect(response.status, file).toBe(200);
      const body = FaceCompareResponseSchema.parse(response.body);
      expect(body).toStrictEqual(compareFaces(await analysed(source), await analysed(fixture(file))).value);
      expect(body.isMatch, file).toBe(true);
      expect(body.confidence, file).toBeGreaterThanOrEqual(99);
    }
    const mixed = await postMultipart(sandbox, '/v1/face/compare', { source: fixture('face.png'), target: fixture('face.webp').toString('base64') });
    expect(mixed.status).toBe(200);
    expect(mixed.body).toStrictEqual(compareFaces(await analysed(fixture('face.png')), await analysed(fixture('face.webp'))).value);
    expect(mixed.headers.get('x-sandbox-explain')).toMatch(/source: \d+ bytes from a file part; target: \d+ bytes from base64/);
  });

  it('decides base64, base64url and storage key by inspection, including strings valid in both alphabets, and mixes them in one call', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const face = fixture('face.jpg');
    const [fileKey] = await uploadFiles(sandbox, [{ bytes: face, contentType: 'image/jpeg' }]);
    expect(classifyImageString(fileKey as string).kind).toBe('storageKey');

    // base64 of face.jpg holds "+" or "/" (base64 only); its base64url form holds "-" or "_" (base64url only).
    const b64 = face.toString('base64');
    const b64url = face.toString('base64url');
    expect(classifyImageString(b64).kind).toBe('base64');
    expect(classifyImageString(b64url).kind).toBe('base64url');
    const mixed = await sandbox.call('POST', '/v1/face/compare', { body: { source: b64url, target: fileKey } });
    expect(mixed.status).toBe(200);
    expect(mixed.body).toMatchObject({ isMatch: true, confidence: 100 });
    expect(mixed.headers.get('x-sandbox-explain')).toContain('source: 4184 bytes from base64url (valid base64url (A-Z a-z 0-9 - _))');
    expect(mixed.headers.get('x-sandbox-explain')).toContain(
      'target: storage key (not base64 or base64url (mixes base64 (+ /) and base64url (- _) characters): storage key)',
    );

    // A picture whose encoding uses only letters and digits is valid in both alphabets: base64 wins (same bytes either way).
    const bmp = alphanumericBase64Bmp();
    expect(bmp.toString('base64')).toMatch(/^[A-Za-z0-9]+$/);
    expect(bmp.toString('base64')).toBe(bmp.toString('base64url'));
    const both = await sandbox.call('POST', '/v1/face/detect', { body: { image: bmp.toString('base64') } });
    expect(both.status).toBe(200);
    expect(both.body).toStrictEqual(detectFace(await analysed(bmp)).value);
    expect(both.headers.get('x-sandbox-explain')).toContain(
      `image: ${bmp.length} bytes from base64 (only letters and digits: valid base64 and base64url, base64 wins`,
    );
    expect(both.headers.get('x-sandbox-explain')).toContain('BMP 64x64');

    // A data URL prefix is stripped; MIME line breaks are ignored.
    const wrapped = `data:image/jpeg;base64,${b64.replace(/(.{76})/g, '$1\r\n')}`;
    const dataUrl = await sandbox.call('POST', '/v1/face/detect', { body: { image: wrapped } });
    expect(dataUrl.status).toBe(200);
    expect(dataUrl.body).toStrictEqual(detectFace(await analysed(face)).value);

    // Text that is neither alphabet is a storage key: 403 (never 404), with hints.
    for (const key of ['fk_face_001.jpg', 'uploads/00000000-0000-4000-8000-000000000000', 's3://bucket/selfie.jpg']) {
      expectImageError(
        await sandbox.call('POST', '/v1/face/detect', { body: { image: key } }),
        403,
        `image: storage key "${key}" is not readable by this organization`,
      );
    }
  });
});

describe('bad image inputs over HTTP', () => {
  it('answers oversize, bomb, garbage, empty and truncated images with 400 and hints, charges nothing, and keeps serving', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const before = await balances(sandbox);

    const oversize = Buffer.alloc(IMAGE_LIMITS.maxBytes + 1, 0xff);
    expectImageError(
      await postMultipart(sandbox, '/v1/face/detect', { image: oversize }),
      400,
      'image: image is 15.0 MB (15728641 bytes); the limit is 15.0 MB (15728640 bytes) per image',
    );
    expectImageError(
      await sandbox.call('POST', '/v1/face/compare', { body: { source: fixture('face.jpg').toString('base64'), target: oversize.toString('base64') } }),
      400,
      /^target: image is 15\.0 MB \(15728641 bytes\)/,
    );
    expectImageError(
      await postMultipart(sandbox, '/v1/face/detect', { image: pngBombHeader(30000, 30000) }),
      400,
      /^image: image header declares 30000×30000; the limit is 16 megapixels$/,
    );
    expectImageError(
      await sandbox.call('POST', '/v1/face/estimate-age', { body: { image: pngBombHeader(60000, 1000).toString('base64') } }),
      400,
      /header declares 60000×1000/,
    );
    expectImageError(
      await postMultipart(sandbox, '/v1/face/detect', { image: Buffer.from('definitely not an image, just text') }),
      400,
      /^image: unsupported image format/,
    );
    expectImageError(
      await sandbox.call('POST', '/v1/face/detect', { body: { image: Buffer.from('%PDF-1.7 not a picture').toString('base64') } }),
      400,
      'image: unsupported image format (a PDF document)',
    );
    expectImageError(await postMultipart(sandbox, '/v1/face/detect', { image: Buffer.alloc(0) }), 400, 'image: the image is empty (0 bytes)');
    expectImageError(
      await postMultipart(sandbox, '/v1/face/detect', { image: fixture('face.jpg').subarray(0, 600) }),
      400,
      /^image: the JPEG image could not be decoded$/,
    );
    expectImageError(
      await postMultipart(sandbox, '/v1/document/scan', { image: Buffer.from(fixture('face.jpg').toString('base64')) }),
      400,
      /^image: unsupported image format \(text that looks like base64\)/,
    );

    expect(await balances(sandbox)).toStrictEqual(before);
    const good = await sandbox.call('POST', '/v1/face/detect', { body: { image: fixture('face.jpg').toString('base64') } });
    expect(good.status).toBe(200);
    expect(good.body.faceDetected).toBe(true);
    expect((await balances(sandbox)).org_demo).toBe((before.org_demo ?? 0) - 1);
  });

  it('names a missing field, refuses a field of the wrong type, a part sent twice and an unreadable body, all with hints', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const face = fixture('face.jpg').toString('base64');
    expectImageError(await sandbox.call('POST', '/v1/face/compare', { body: { source: face } }), 400, 'Invalid request: body field "target" is required.');
    expectImageError(
      await sandbox.call('POST', '/v1/identity/verify', { body: { faceImage: face } }),
      400,
      'Invalid request: body field "documentImage" is required.',
    );
    expectImageError(await postMultipart(sandbox, '/v1/face/compare', { target: fixture('face.jpg') }), 400, 'source is required');
    expectImageError(await sandbox.call('POST', '/v1/face/detect', { body: { image: '' } }), 400, 'image is empty');
    expectImageError(await sandbox.call('POST', '/v1/face/detect', { body: { image: 42 } }), 400, /^Invalid request: body field "image" has the wrong type/);
    expectImageError(await sandbox.call('POST', '/v1/face/detect', { body: ['image'] }), 400, /^Invalid request: the request body has the wrong type/);
    expectImageError(
      await postMultipart(sandbox, '/v1/face/detect', { image: [fixture('face.jpg'), fixture('face.png')] }),
      400,
      'Invalid request: form field "image" was sent 2 times; send it once.',
    );
    expectImageError(
      await sandbox.call('POST', '/v1/face/detect', { raw: '{"image": "abc', headers: { 'content-type': 'application/json' } }),
      400,
      /^Malformed JSON in request body/,
    );
    expectImageError(
      await sandbox.call('POST', '/v1/face/detect', { raw: '--x\r\nnot a multipart body', headers: { 'content-type': 'multipart/form-data; boundary=zzz' } }),
      400,
      'Malformed multipart/form-data body: it could not be parsed.',
    );
  });

  it('answers a missing body with 400 and a foreign Content-Type with 415, both with hints', async () => {
    const sandbox = await testSandbox();
    expectImageError(await sandbox.call('POST', '/v1/face/detect'), 400, 'Invalid request: the request body is required (the image fields are missing).');
    expectImageError(
      await sandbox.call('POST', '/v1/face/detect', { raw: 'aGVsbG8=', headers: { 'content-type': 'text/plain' } }),
      415,
      'Unsupported Content-Type "text/plain": send the body as application/json or multipart/form-data.',
    );
    const raw = await sandbox.app.request('/v1/document/scan', {
      method: 'POST',
      headers: { 'x-api-key': KEYS.live, 'content-type': 'image/jpeg' },
      body: fixture('face.jpg'),
    });
    expect(raw.status).toBe(415);
    expect(((await raw.json()) as { hints: string[] }).hints[0]).toMatch(/^Raw image bytes are not accepted as the whole body/);
    expectImageError(
      await sandbox.call('POST', '/v1/face/detect', { raw: '--b--', headers: { 'content-type': 'multipart/form-data; charset=utf-8; boundary=b' } }),
      415,
      /send multipart bodies as "multipart\/form-data; boundary=<boundary>"/,
    );
  });

  it('never answers 500: odd JSON values and odd parts give 400 or 403 with error and hints', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const odd: unknown[] = [
      null,
      true,
      0,
      -1,
      1e308,
      [],
      {},
      { $ref: 'x' },
      '\u0000',
      '😀',
      '====',
      'A',
      'AB',
      'A===',
      '////',
      '----',
      '.',
      ' ',
      'a'.repeat(100_000),
      `uploads/${'../'.repeat(20)}etc/passwd`,
      '%00',
      'data:,',
      'data:image/png;base64,',
    ];
    for (const value of odd) {
      for (const path of ['/v1/face/detect', '/v1/document/scan']) {
        const response = await sandbox.call('POST', path, { body: { image: value, documentType: value } });
        expect([400, 403], `${path} ${JSON.stringify(value).slice(0, 40)}: ${response.text.slice(0, 200)}`).toContain(response.status);
        expect(typeof response.body.error).toBe('string');
        expect(Array.isArray(response.body.hints)).toBe(true);
      }
      const compare = await sandbox.call('POST', '/v1/face/compare', { body: { source: fixture('face.jpg').toString('base64'), target: value } });
      expect([400, 403]).toContain(compare.status);
    }
    for (const part of ['', 'x', '////', 'uploads/a-b', fixture('blank.png').subarray(0, 40).toString('latin1')]) {
      const response = await postMultipart(sandbox, '/v1/identity/verify', { documentImage: part, faceImage: Buffer.from(part), documentType: part });
      expect([400, 403]).toContain(response.status);
      expect(Array.isArray(response.body.hints)).toBe(true);
    }
    const good = await sandbox.call('POST', '/v1/face/compare', {
      body: { source: fixture('face.jpg').toString('base64'), target: fixture('face.png').toString('base64') },
    });
    expect(good.status).toBe(200);
    expect(good.body.isMatch).toBe(true);
  });
});
