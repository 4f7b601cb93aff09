/** Test helpers for the image operations over HTTP: fixture bytes (read once), multipart calls, uploads, balances. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { analyseImage, type AnalysedImage } from '../../src/images/image-analysis.ts';
import { createImageDecoder } from '../../src/images/image-decoding.ts';
import { PresignResponseSchema } from '../../src/upload/upload.schemas.ts';
import { KEYS, type CallResult, type TestSandbox } from '../helpers/sandbox.ts';

const fixtureCache = new Map<string, Buffer>();

/** The bytes of fixtures/images/<name>, read once per test file. */
export function fixture(name: string): Buffer {
  let bytes = fixtureCache.get(name);
  if (!bytes) {
    bytes = readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url));
    fixtureCache.set(name, bytes);
  }
  return bytes;
}

const inline = createImageDecoder();
const analysisCache = new Map<string, Promise<AnalysedImage>>();

/** The domain layer's analysis of some bytes (inline decoder, cached): what the routes must agree with. */
export function analysed(bytes: Buffer): Promise<AnalysedImage> {
  const key = bytes.toString('base64');
  let pending = analysisCache.get(key);
  if (!pending) {
    pending = inline.decode(bytes).then(analyseImage);
    analysisCache.set(key, pending);
  }
  return pending;
}

export interface FilePart {
  bytes: Uint8Array;
  /** The part's Content-Type label (ignored by the server). */
  type?: string;
  filename?: string;
}

/** POST a multipart/form-data body: Buffers/FileParts become file parts, strings text parts. */
export async function postMultipart(
  sandbox: TestSandbox,
  path: string,
  parts: Record<string, Buffer | FilePart | string | (Buffer | string)[]>,
  key: string = KEYS.live,
): Promise<CallResult> {
  const form = new FormData();
  const add = (name: string, value: Buffer | FilePart | string) => {
    if (typeof value === 'string') form.append(name, value);
    else if (value instanceof Uint8Array) form.append(name, new Blob([value], { type: 'application/octet-stream' }), `${name}.bin`);
    else form.append(name, new Blob([value.bytes], { type: value.type ?? 'application/octet-stream' }), value.filename ?? `${name}.bin`);
  };
  for (const [name, value] of Object.entries(parts)) {
    if (Array.isArray(value)) value.forEach((item) => add(name, item));
    else add(name, value);
  }
  const response = await sandbox.app.request(path, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The real client's upload: presign, then an unauthenticated PUT with the declared Content-Type. Returns the fileKeys. */
export async function uploadFiles(sandbox: TestSandbox, files: { bytes: Buffer; contentType: string }[], key: string = KEYS.live): Promise<string[]> {
  const presign = await sandbox.call('POST', '/v1/upload/presign', {
    key,
    body: { files: files.map((file) => ({ contentType: file.contentType, byteLength: file.bytes.length })) },
  });
  expect(presign.status).toBe(200);
  const { uploads } = PresignResponseSchema.parse(presign.body);
  expect(uploads).toHaveLength(files.length);
  await Promise.all(
    uploads.map(async (upload, index) => {
      const url = new URL(upload.uploadUrl);
      const file = files[index] as { bytes: Buffer; contentType: string };
      const put = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': file.contentType }, body: file.bytes });
      expect(put.status).toBe(200);
    }),
  );
  return uploads.map((upload) => upload.fileKey);
}

/** Every organization's balance in the default namespace, read through the control plane. */
export async function balances(sandbox: TestSandbox): Promise<Record<string, number>> {
  const response = await sandbox.call('GET', '/__sandbox/organizations', { key: null });
  expect(response.status).toBe(200);
  return Object.fromEntries((response.body.organizations as { id: string; balance: number }[]).map((org) => [org.id, org.balance]));
}

/** An image error: the status, a non-empty `error` and a non-empty `hints` array. */
export function expectImageError(response: CallResult, status: number, error: RegExp | string): void {
  expect(response.status, response.text).toBe(status);
  expect(typeof response.body.error).toBe('string');
  if (typeof error === 'string') expect(response.body.error).toBe(error);
  else expect(response.body.error).toMatch(error);
  expect(Array.isArray(response.body.hints)).toBe(true);
  expect(response.body.hints.length).toBeGreaterThan(0);
  for (const hint of response.body.hints) expect(typeof hint).toBe('string');
}

/** A PNG header declaring `width` x `height` (a decompression bomb when large): 33 bytes, no pixels. */
export function pngBombHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(bytes);
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

/**
 * A 64x64 24-bit BMP whose base64 uses only letters and digits (so it is valid base64 AND base64url):
 * the header happens to encode that way at this size, and grey levels 0x20/0x80/0xC0 repeated in
 * pixel-aligned byte triples never produce "+" or "/".
 */
export function alphanumericBase64Bmp(): Buffer {
  const [w, h] = [64, 64];
  const size = 54 + 3 * w * h;
  const bytes = Buffer.alloc(size);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(size, 2);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(w, 18);
  bytes.writeInt32LE(h, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  bytes.writeUInt32LE(3 * w * h, 34);
  bytes.writeUInt32LE(2835, 38);
  bytes.writeUInt32LE(2835, 42);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const grey = (Math.floor(x / 7) + Math.floor(y / 5)) % 3 === 0 ? 0x20 : (x * y) % 11 === 0 ? 0x80 : 0xc0;
      bytes.fill(grey, 54 + 3 * (y * w + x), 54 + 3 * (y * w + x) + 3);
    }
  }
  return bytes;
}
