/**
 * Presigned upload URLs are signed with the sandbox's private secret, never with a key that follows from
 * the public seed; the signature covers every field of the URL and the record it opens. The secret is
 * created once per data directory (mode 0600), per process in memory, and can be pinned.
 */
import { createHmac } from 'node:crypto';
import { statSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hashParts } from '../../src/platform/random/random.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { silentLogger, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

async function presigned(sandbox: TestSandbox, namespace?: string): Promise<{ url: URL; fileKey: string }> {
  const response = await sandbox.call('POST', '/v1/upload/presign', {
    body: { files: [{ contentType: 'image/jpeg', byteLength: JPEG.length }] },
    ...(namespace === undefined ? {} : { namespace }),
  });
  expect(response.status).toBe(200);
  return { url: new URL(response.body.uploads[0].uploadUrl), fileKey: response.body.uploads[0].fileKey };
}

async function put(sandbox: TestSandbox, url: URL, contentType = 'image/jpeg') {
  const response = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': contentType }, body: JPEG });
  return { status: response.status, body: (await response.json()) as { error?: string } };
}

const withParam = (url: URL, name: string, value: string) => {
  const changed = new URL(url);
  changed.searchParams.set(name, value);
  return changed;
};

describe('upload URL signatures', () => {
  it('refuses a URL signed with the key the public seed gave before, for the same upload', async () => {
    const sandbox = await testSandbox();
    const { url } = await presigned(sandbox);
    const id = url.pathname.split('/').at(-1) as string;
    const expires = url.searchParams.get('expires') as string;
    const seedKey = hashParts('signing', 42).toString('hex');
    const forged = createHmac('sha256', seedKey).update(`default\n${id}\n${expires}`).digest('base64url');
    const refused = await put(sandbox, withParam(url, 'signature', forged));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('The upload URL signature is invalid: use the uploadUrl exactly as the presign call returned it.');
    expect((await put(sandbox, url)).status).toBe(200);
  });

  it('refuses a changed expiry, namespace, storage key or signature, and a URL of another namespace replayed here', async () => {
    const sandbox = await testSandbox();
    const { url } = await presigned(sandbox);
    const later = String(Number(url.searchParams.get('expires')) + 3_600_000);
    expect((await put(sandbox, withParam(url, 'expires', later))).status).toBe(403);
    expect((await put(sandbox, withParam(url, 'namespace', 'qa-2'))).status).toBe(403);
    const signature = url.searchParams.get('signature') as string;
    expect((await put(sandbox, withParam(url, 'signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`))).status).toBe(403);
    expect((await put(sandbox, withParam(url, 'signature', ''))).status).toBe(403);
    const other = await presigned(sandbox, 'qa-2');
    expect((await put(sandbox, withParam(other.url, 'namespace', 'default'))).status).toBe(403);
    const second = await presigned(sandbox);
    const swapped = new URL(url);
    swapped.pathname = second.url.pathname;
    expect((await put(sandbox, swapped)).status).toBe(403);
    // Nothing was stored by the refusals; the genuine URL still works.
    expect((await put(sandbox, url)).status).toBe(200);
  });

  it('gives two sandboxes on the same seed different signatures, and a pinned secret the same ones', async () => {
    const first = await presigned(await testSandbox());
    const second = await presigned(await testSandbox());
    expect(first.url.pathname).toBe(second.url.pathname);
    expect(first.url.searchParams.get('signature')).not.toBe(second.url.searchParams.get('signature'));
    const pinned = await presigned(await testSandbox({ secret: 'a pinned secret of the team' }));
    const pinnedAgain = await presigned(await testSandbox({ secret: 'a pinned secret of the team' }));
    expect(pinned.url.href).toBe(pinnedAgain.url.href);
    await expect(testSandbox({ secret: 'short' })).rejects.toThrow('at least 16 characters');
  });
});

describe('the secret of a data directory', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.closeNow();
    sandbox = undefined;
  });

  it('is created once beside the data file with mode 0600 and kept across restarts, so issued URLs stay valid', async () => {
    const dir = temporaryDirectory();
    const data = `${dir}/sandbox.json`;
    const options = { port: null, data, seed: 42, clock: 'frozen@2026-01-15T09:30:00Z', logger: silentLogger } as const;
    sandbox = await createSandbox(options);
    const secret = readFileSync(`${data}.secret`, 'utf8').trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(`${data}.secret`).mode & 0o777).toBe(0o600);
    expect(secret).not.toBe(hashParts('signing', 42).toString('hex'));
    const presign = await sandbox.app.request('/v1/upload/presign', {
      method: 'POST',
      headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json' },
      body: JSON.stringify({ files: [{ contentType: 'image/jpeg', byteLength: JPEG.length }] }),
    });
    const url = new URL(((await presign.json()) as { uploads: { uploadUrl: string }[] }).uploads[0]?.uploadUrl as string);
    await sandbox.close();
    sandbox = await createSandbox(options);
    expect(readFileSync(`${data}.secret`, 'utf8').trim()).toBe(secret);
    const stored = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: JPEG });
    expect(stored.status).toBe(200);
  });
});
