import { describe, expect, it } from 'vitest';
import { SessionUploadsResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { addMs } from './helpers.ts';
import { BASE, createSession, drive, expectNoNulls, getSession, HOUR, JANE, local } from './route-helpers.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const PDF = Buffer.from('%PDF-1.4\n%sandbox\n');

const fresh = () => testSandbox({ rateLimit: false });

function requestUploads(sandbox: TestSandbox, id: string, files: unknown, options: { key?: string; namespace?: string } = {}) {
  return sandbox.call('POST', `/v1/sessions/${id}/uploads`, { body: { files }, ...options });
}

async function put(sandbox: TestSandbox, uploadUrl: string, bytes: Buffer, contentType: string) {
  const response = await sandbox.app.request(local(uploadUrl), { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  return response.status;
}

const uploadCount = (sandbox: TestSandbox, namespace?: string) => sandbox.platform.worlds.get(namespace).data.collection('uploads').size;

describe('POST /v1/sessions/{id}/uploads', () => {
  it('answers one signed URL per file from the platform upload store, upload_type only for named slots', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const response = await requestUploads(sandbox, id, [
      { file_name: 'front.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
      { file_name: 'letter.pdf', content_type: 'application/pdf', slot: 'employment_letter' },
    ]);
    expect(response.status).toBe(200);
    expectNoNulls(response.body);
    const { signed_urls: urls } = SessionUploadsResponseSchema.parse(response.body);
    expect(response.body).toEqual({ signed_urls: urls });
    expect(urls.map((u) => Object.keys(u))).toEqual([
      ['file_key', 'slot', 'upload_type', 'upload_url'],
      ['file_key', 'slot', 'upload_url'],
    ]);
    expect(urls[0]).toMatchObject({ slot: 'id_front', upload_type: 'id_front' });
    expect(urls[1]?.slot).toBe('employment_letter');
    for (const url of urls) {
      expect(url.file_key).toMatch(/^uploads\/[0-9a-f-]{36}$/);
      expect(url.upload_url.startsWith(`${BASE}/uploads/${url.file_key.slice('uploads/'.length)}?`)).toBe(true);
    }
  });

  it('flips the slot’s uploads flag once the bytes are PUT, and the file key is readable by the organization only', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const { signed_urls: urls } = (
      await requestUploads(sandbox, id, [
        { file_name: 'front.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
        { file_name: 'selfie.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' },
        { file_name: 'letter.pdf', content_type: 'application/pdf', slot: 'employment_letter' },
      ])
    ).body;
    expect((await getSession(sandbox, id)).session_record.uploads?.id_front).toBe(false);

    sandbox.clock.advance(30_000);
    expect(await put(sandbox, urls[0].upload_url, JPEG, 'image/jpeg')).toBe(200);
    expect(await put(sandbox, urls[2].upload_url, PDF, 'application/pdf')).toBe(200);
    sandbox.clock.advance(30_000);
    const record = (await getSession(sandbox, id)).session_record;
    expect(record.uploads).toMatchObject({ id_front: true, selfie_front: false, id_back: false });
    expect(Object.values(record.uploads ?? {}).filter(Boolean)).toHaveLength(1);
    // updated_at is when the bytes arrived, not when the session was read.
    expect(record.updated_at).toBe(addMs(FROZEN_AT, 30_000));

    const world = sandbox.platform.worlds.get();
    expect((await sandbox.platform.uploads.read(world, 'org_demo', urls[0].file_key)).bytes.equals(JPEG)).toBe(true);
    await expect(sandbox.platform.uploads.read(world, 'org_other', urls[0].file_key)).rejects.toMatchObject({ status: 403 });
    await expect(sandbox.platform.uploads.read(world, 'org_demo', urls[1].file_key)).rejects.toMatchObject({ status: 403 });
  });

  it('moves a listed session’s updated_at when bytes arrive between two reads of the same list page', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const { signed_urls: urls } = (await requestUploads(sandbox, id, [{ file_name: 'front.jpg', content_type: 'image/jpeg', upload_type: 'id_front' }])).body;
    const listed = async () => (await sandbox.call('GET', '/v1/sessions?limit=5')).body.sessions[0];
    expect(await listed()).toMatchObject({ id, updated_at: FROZEN_AT });
    expect(await listed()).toMatchObject({ id, updated_at: FROZEN_AT });
    sandbox.clock.advance(30_000);
    expect(await put(sandbox, urls[0].upload_url, JPEG, 'image/jpeg')).toBe(200);
    expect(await listed()).toMatchObject({ id, updated_at: addMs(FROZEN_AT, 30_000) });
  });

  it('accepts a content_type with parameters, the PUT sending the bare media type', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const [url] = (await requestUploads(sandbox, id, [{ file_name: 'b.jpg', content_type: 'image/jpeg; q=1', upload_type: 'id_back' }])).body.signed_urls;
    expect(await put(sandbox, url.upload_url, JPEG, 'image/jpeg')).toBe(200);
    expect((await getSession(sandbox, id)).session_record.uploads?.id_back).toBe(true);
  });

  it('answers 409 for a terminal session and for an expired one, issuing nothing', async () => {
    const sandbox = await fresh();
    const files = [{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front' }];
    const terminal = await createSession(sandbox, JANE);
    await drive(sandbox, terminal.id, { outcome: 'VERIFIED' });
    const before = uploadCount(sandbox);
    const refused = await requestUploads(sandbox, terminal.id, files);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(`Session ${terminal.id} is VERIFIED (terminal); it no longer accepts uploads.`);
    expect(refused.body).toMatchObject({ code: 'SESSION_TERMINAL', current_step: null });
    const expiring = await createSession(sandbox, { ...JANE, expiresInHours: 1 });
    sandbox.clock.advance(HOUR);
    const expired = await requestUploads(sandbox, expiring.id, files);
    expect(expired.status).toBe(409);
    expect(expired.body.error).toMatch(/expired at .*; it no longer accepts uploads/);
    expect(expired.body).toMatchObject({ code: 'SESSION_TERMINAL', current_step: null });
    expect(uploadCount(sandbox)).toBe(before);
  });

  it('does not flip a flag for bytes that land after the session ended', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const [url] = (await requestUploads(sandbox, id, [{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front' }])).body.signed_urls;
    await drive(sandbox, id, { outcome: 'VOIDED' });
    expect(await put(sandbox, url.upload_url, JPEG, 'image/jpeg')).toBe(200);
    expect((await getSession(sandbox, id)).session_record.uploads?.id_front).toBe(false);
  });

  it('answers 404 for an unknown session and 403 for another organization’s', async () => {
    const sandbox = await fresh();
    const files = [{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front' }];
    expect((await requestUploads(sandbox, '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', files)).status).toBe(404);
    const { id } = await createSession(sandbox, JANE);
    expect((await requestUploads(sandbox, id, files, { key: KEYS.other })).status).toBe(403);
    expect(uploadCount(sandbox)).toBe(0);
  });

  it('answers 400 naming the problem for each invalid body, issuing nothing', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE);
    const cases: [unknown, RegExp][] = [
      [[], /files must contain at least one file/],
      [[{ file_name: 'a.jpg', content_type: 'image/jpeg' }], /needs an upload_type .* or a free slot name/],
      [[{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front', slot: 'x' }], /EITHER upload_type OR slot/],
      [
        [
          { file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
          { file_name: 'b.jpg', content_type: 'image/jpeg', slot: 'id_front' },
        ],
        /uses slot "id_front" already used by files\[0\]/,
      ],
      [[{ file_name: 'a.jpg', content_type: 'jpeg', upload_type: 'id_front' }], /content_type must be a MIME type/],
      [[{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'selfie_left' }], /upload_type must be one of id_front/],
      [[{ file_name: '', content_type: 'image/jpeg', upload_type: 'id_front' }], /file_name must not be empty/],
    ];
    for (const [files, message] of cases) {
      const response = await requestUploads(sandbox, id, files);
      expect(response.status, JSON.stringify(files)).toBe(400);
      expect(response.body.error).toMatch(message);
    }
    expect(uploadCount(sandbox)).toBe(0);
  });

  it('works in a non-default namespace: the URL carries it and the flag flips there', async () => {
    const sandbox = await fresh();
    const { id } = await createSession(sandbox, JANE, { namespace: 'uploads-ns' });
    const [url] = (
      await requestUploads(sandbox, id, [{ file_name: 's.png', content_type: 'image/png', upload_type: 'selfie_front' }], { namespace: 'uploads-ns' })
    ).body.signed_urls;
    expect(url.upload_url).toContain('namespace=uploads-ns');
    expect(await put(sandbox, url.upload_url, Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png')).toBe(200);
    expect((await getSession(sandbox, id, { namespace: 'uploads-ns' })).session_record.uploads?.selfie_front).toBe(true);
  });
});
