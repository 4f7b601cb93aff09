import { describe, expect, it } from 'vitest';
import { PresignResponseSchema } from '../../src/upload/upload.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

async function presign(sandbox: TestSandbox, files = [{ contentType: 'image/jpeg', byteLength: JPEG.length }], key: string = KEYS.live) {
  return sandbox.call('POST', '/v1/upload/presign', { key, body: { files } });
}

async function put(sandbox: TestSandbox, uploadUrl: string, body: Buffer, contentType = 'image/jpeg') {
  const url = new URL(uploadUrl);
  const response = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': contentType }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('presigned uploads', () => {
  it('returns one upload per file in request order, with storage keys that are neither base64 nor base64url', async () => {
    const sandbox = await testSandbox();
    const response = await presign(sandbox, [
      { contentType: 'image/jpeg', byteLength: 100 },
      { contentType: 'image/png', byteLength: 200 },
    ]);
    expect(response.status).toBe(200);
    const { uploads } = PresignResponseSchema.parse(response.body);
    expect(uploads).toHaveLength(2);
    for (const upload of uploads) {
      expect(upload.uploadUrl.startsWith('http://127.0.0.1:4010/uploads/')).toBe(true);
      expect(upload.fileKey).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    }
    expect(uploads[0]?.fileKey).not.toBe(uploads[1]?.fileKey);
  });

  it('accepts the bytes without an API key and makes the key readable by its organization only', async () => {
    const sandbox = await testSandbox();
    const [upload] = (await presign(sandbox)).body.uploads;
    const stored = await put(sandbox, upload.uploadUrl, JPEG);
    expect(stored).toEqual({ status: 200, body: { fileKey: upload.fileKey, byteLength: JPEG.length, contentType: 'image/jpeg' } });
    const { platform } = sandbox;
    const world = platform.worlds.get();
    expect((await platform.uploads.read(world, 'org_demo', upload.fileKey)).bytes.equals(JPEG)).toBe(true);
    await expect(platform.uploads.read(world, 'org_other', upload.fileKey)).rejects.toMatchObject({ status: 403 });
    await expect(platform.uploads.read(world, 'org_demo', 'uploads/not-a-key')).rejects.toMatchObject({ status: 403 });
  });

  it('refuses a tampered signature, an expired URL, a wrong Content-Type and too many bytes', async () => {
    const sandbox = await testSandbox();
    const [upload] = (await presign(sandbox)).body.uploads;
    const tampered = upload.uploadUrl.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await put(sandbox, tampered, JPEG)).status).toBe(403);
    const wrongType = await put(sandbox, upload.uploadUrl, JPEG, 'image/png');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/does not match the presigned "image\/jpeg"/);
    expect((await put(sandbox, upload.uploadUrl, Buffer.concat([JPEG, JPEG]))).status).toBe(413);
    sandbox.clock.advance(15 * 60_000);
    const expired = await put(sandbox, upload.uploadUrl, JPEG);
    expect(expired.status).toBe(403);
    expect(expired.body.error).toMatch(/expired/);
  });

  it('validates the presign body and refuses sandbox keys', async () => {
    const sandbox = await testSandbox();
    const tooBig = await presign(sandbox, [{ contentType: 'image/jpeg', byteLength: 15 * 1024 * 1024 + 1 }]);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error).toMatch(/files\.0\.byteLength/);
    const badType = await presign(sandbox, [{ contentType: 'text/plain', byteLength: 10 }]);
    expect(badType.status).toBe(400);
    expect(badType.body.error).toMatch(/image\/jpeg/);
    const empty = await presign(sandbox, []);
    expect(empty.status).toBe(400);
    const sandboxKey = await presign(sandbox, undefined, KEYS.sandbox);
    expect(sandboxKey.status).toBe(403);
    expect(sandboxKey.body.error).toMatch(/live API key is needed/);
  });
});
