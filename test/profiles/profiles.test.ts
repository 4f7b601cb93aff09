import { describe, expect, it } from 'vitest';
import { LogoUploadUrlResponseSchema, ProfileListResponseSchema, ProfileSchema } from '../../src/profiles/profiles.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { fixture } from '../images/http-helpers.ts';

async function uploadLogo(sandbox: TestSandbox, bytes: Uint8Array, contentType = 'image/png', key: string = KEYS.live) {
  const presigned = await sandbox.call('POST', '/v1/profiles/logo-upload-url', { body: { contentType, byteLength: bytes.length }, key });
  expect(presigned.status, presigned.text).toBe(200);
  const { uploadUrl, fileKey } = LogoUploadUrlResponseSchema.parse(presigned.body);
  const url = new URL(uploadUrl);
  const put = await sandbox.app.request(url.pathname + url.search, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  expect(put.status).toBe(200);
  return fileKey;
}

describe('profiles', () => {
  it('creates a profile with an uploaded logo and one without; logoUrl is the fileKey or null', async () => {
    const sandbox = await testSandbox();
    const fileKey = await uploadLogo(sandbox, fixture('face.png'));
    const withLogo = await sandbox.call('POST', '/v1/profiles', { body: { name: ' Acme onboarding ', logoUrl: fileKey } });
    expect(withLogo.status, withLogo.text).toBe(200);
    const profile = ProfileSchema.parse(withLogo.body);
    expect(profile).toMatchObject({ name: 'Acme onboarding', organizationId: 'org_demo', logoUrl: fileKey, createdAt: FROZEN_AT, updatedAt: FROZEN_AT });
    expect(withLogo.headers.get('x-sandbox-explain')).toContain('image/png logo');
    const plain = ProfileSchema.parse((await sandbox.call('POST', '/v1/profiles', { body: { name: 'Plain' } })).body);
    expect(plain.logoUrl).toBeNull();
    expect(plain.id).not.toBe(profile.id);
  });

  it('lists the organization’s profiles newest first and retrieves one; another organization sees none of them', async () => {
    const sandbox = await testSandbox();
    const first = (await sandbox.call('POST', '/v1/profiles', { body: { name: 'First' } })).body;
    sandbox.clock.advance(1000);
    const second = (await sandbox.call('POST', '/v1/profiles', { body: { name: 'Second' } })).body;
    const list = ProfileListResponseSchema.parse((await sandbox.call('GET', '/v1/profiles')).body);
    expect(list.profiles.map((profile) => profile.name)).toEqual(['Second', 'First']);
    expect((await sandbox.call('GET', `/v1/profiles/${first.id}`)).body).toEqual(first);
    expect((await sandbox.call('GET', '/v1/profiles', { key: KEYS.sandbox })).body.profiles).toHaveLength(2);
    expect((await sandbox.call('GET', '/v1/profiles', { key: KEYS.other })).body).toEqual({ profiles: [] });
    const foreign = await sandbox.call('GET', `/v1/profiles/${second.id}`, { key: KEYS.other });
    expect(foreign.status).toBe(403);
    const unknown = await sandbox.call('GET', '/v1/profiles/0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('POST /v1/profiles');
  });

  it('refuses a logo type the client cannot send, a size of 0 or over 15 MiB, and names the field', async () => {
    const sandbox = await testSandbox();
    for (const [body, field] of [
      [{ contentType: 'image/bmp', byteLength: 10 }, 'contentType'],
      [{ contentType: 'image/png', byteLength: 0 }, 'byteLength'],
      [{ contentType: 'image/png', byteLength: 15_728_641 }, 'byteLength'],
      [{ contentType: 'image/png' }, 'byteLength'],
    ] as const) {
      const response = await sandbox.call('POST', '/v1/profiles/logo-upload-url', { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    }
  });

  it('refuses a logo that never arrived or is another organization’s (403), bytes that are not an image (400), an empty name (400); nothing is stored', async () => {
    const sandbox = await testSandbox();
    const presigned = (await sandbox.call('POST', '/v1/profiles/logo-upload-url', { body: { contentType: 'image/png', byteLength: 100 } })).body;
    const pending = await sandbox.call('POST', '/v1/profiles', { body: { name: 'Acme', logoUrl: presigned.fileKey } });
    expect(pending.status).toBe(403);
    expect(pending.body.error).toContain('logoUrl');
    const foreignKey = await uploadLogo(sandbox, fixture('face.png'), 'image/png', KEYS.other);
    expect((await sandbox.call('POST', '/v1/profiles', { body: { name: 'Acme', logoUrl: foreignKey } })).status).toBe(403);
    const textKey = await uploadLogo(sandbox, Buffer.from('not an image at all'), 'image/gif');
    const notImage = await sandbox.call('POST', '/v1/profiles', { body: { name: 'Acme', logoUrl: textKey } });
    expect(notImage.status).toBe(400);
    expect(notImage.body.error).toContain('not an image');
    const bmpKey = await uploadLogo(sandbox, fixture('face.bmp'), 'image/png');
    expect((await sandbox.call('POST', '/v1/profiles', { body: { name: 'Acme', logoUrl: bmpKey } })).body.error).toContain('a BMP');
    const empty = await sandbox.call('POST', '/v1/profiles', { body: { name: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('name must not be empty');
    expect((await sandbox.call('POST', '/v1/profiles', { body: { name: 'Acme' }, key: KEYS.sandbox })).status).toBe(403);
    expect((await sandbox.call('GET', '/v1/profiles')).body).toEqual({ profiles: [] });
  });
});
