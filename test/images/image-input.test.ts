import { describe, expect, it, vi } from 'vitest';
import { ImageInputError } from '../../src/images/image-input-error.ts';
import { classifyImageString, isUnambiguousStorageKey, resolveImageInput, type StorageKeyReader } from '../../src/images/image-input.ts';
import { faceBytes } from './helpers.ts';

const noStorage: StorageKeyReader = () => null;

async function resolveError(value: unknown, readStorageKey: StorageKeyReader = noStorage, maxBytes?: number): Promise<ImageInputError> {
  try {
    await resolveImageInput('image', value, { readStorageKey, ...(maxBytes ? { maxBytes } : {}) });
  } catch (error) {
    if (error instanceof ImageInputError) return error;
    throw error;
  }
  throw new Error('expected ImageInputError');
}

describe('classifyImageString decides base64, then base64url, then storage key', () => {
  const cases: [string, 'base64' | 'base64url' | 'storageKey', string][] = [
    ['aGVsbG8gd29ybGQ=', 'base64', 'padded base64'],
    ['aGVsbG8gd29ybGQ', 'base64', 'unpadded base64 (15 chars)'],
    ['ab+/cd==', 'base64', 'base64-only characters + and /'],
    ['/9j/4AAQSkZJRg', 'base64', 'the start of a JPEG in base64'],
    ['ab-_cd', 'base64url', 'base64url-only characters - and _'],
    ['_9j_4AAQSkZJRg', 'base64url', 'the start of a JPEG in base64url'],
    ['abcd', 'base64', 'letters only: valid in both alphabets, base64 wins'],
    ['QUJDRA==', 'base64', 'letters, digits and padding: valid in both'],
    ['fk_face_001', 'base64url', 'a key made only of base64url characters is base64url (spec order)'],
    ['abcde', 'storageKey', '4n+1 characters is never base64'],
    ['a===', 'storageKey', 'three padding characters'],
    ['ab=c', 'storageKey', 'padding in the middle'],
    ['abc==', 'storageKey', 'padding that does not complete a group'],
    ['ab+c-d', 'storageKey', 'mixes the two alphabets'],
    ['uploads/org_1/7f3e9a.jpg', 'storageKey', 'a dot is in neither alphabet'],
    ['org/sess/id-front.jpg', 'storageKey', 'the real client example key'],
    ['s3://bucket/key', 'storageKey', 'a colon is in neither alphabet'],
  ];
  for (const [input, kind, why] of cases) {
    it(`${JSON.stringify(input)} -> ${kind} (${why})`, () => {
      expect(classifyImageString(input).kind).toBe(kind);
    });
  }

  it('decides a picture-sized string the same way, canonical or not', () => {
    const bytes = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 256));
    const canonical = bytes.toString('base64');
    const large: [string, 'base64' | 'base64url' | 'storageKey'][] = [
      [canonical, 'base64'],
      [canonical.replace(/=+$/, ''), 'base64'],
      [`${canonical.slice(0, -4)}AB==`.replace(/=+$/, '=='), 'base64'],
      [bytes.subarray(1).toString('base64'), 'base64'],
      [bytes.subarray(1).toString('base64').replace(/=+$/, '===='), 'storageKey'],
      [`${canonical.slice(0, 5000)}.${canonical.slice(5001)}`, 'storageKey'],
      [`${canonical.slice(0, 5000)}=${canonical.slice(5001)}`, 'storageKey'],
      [bytes.toString('base64url'), 'base64url'],
      [`${canonical.slice(0, 5000)}-${canonical.slice(5001)}`, 'storageKey'],
    ];
    for (const [input, kind] of large) expect(classifyImageString(input).kind, input.slice(-8)).toBe(kind);
  });

  it('explains strings valid in both alphabets, and they decode to the same bytes either way', () => {
    const both = 'SGVsbG8gV29ybGQh';
    const result = classifyImageString(both);
    expect(result.kind).toBe('base64');
    expect(result.reason).toBe('only letters and digits: valid base64 and base64url, base64 wins (spec order; same bytes either way)');
    expect(Buffer.from(both, 'base64')).toEqual(Buffer.from(both, 'base64url'));
    expect(Buffer.from(both, 'base64').toString()).toBe('Hello World!');
  });

  it('ignores surrounding whitespace and MIME line breaks, and strips a data URL prefix', () => {
    const wrapped = '  aGVsbG8g\r\nd29ybGQ=\n  ';
    expect(classifyImageString(wrapped)).toMatchObject({ kind: 'base64', payload: 'aGVsbG8gd29ybGQ=', dataUrl: false, decodedLength: 11 });
    expect(classifyImageString('data:image/png;base64,aGVsbG8gd29ybGQ=')).toMatchObject({ kind: 'base64', payload: 'aGVsbG8gd29ybGQ=', dataUrl: true });
    expect(classifyImageString('DATA:application/octet-stream;base64,ab-_')).toMatchObject({ kind: 'base64url', payload: 'ab-_', dataUrl: true });
    expect(classifyImageString(' my-key.jpg ')).toMatchObject({ kind: 'storageKey', payload: 'my-key.jpg' });
  });

  it('says which keys the sandbox may issue safely', () => {
    expect(isUnambiguousStorageKey('uploads/org_1/3c1e.jpg')).toBe(true);
    expect(isUnambiguousStorageKey('fk_face_001')).toBe(false);
    expect(isUnambiguousStorageKey('abcd1234')).toBe(false);
  });
});

describe('resolveImageInput', () => {
  it('reads the same bytes from base64, base64url, a data URL, a storage key, a Buffer and a mislabelled File', async () => {
    const jpeg = await faceBytes('input-modes');
    const storage = new Map([['uploads/org_1/selfie.jpg', new Uint8Array(jpeg)]]);
    const read: StorageKeyReader = async (key) => storage.get(key) ?? null;
    const values: [unknown, string][] = [
      [jpeg.toString('base64'), 'base64'],
      [jpeg.toString('base64url'), 'base64url'],
      [`data:image/png;base64,${jpeg.toString('base64')}`, 'base64'],
      ['uploads/org_1/selfie.jpg', 'storageKey'],
      [jpeg, 'bytes'],
      [new File([jpeg], 'selfie.png', { type: 'image/png' }), 'bytes'],
    ];
    for (const [value, via] of values) {
      const resolved = await resolveImageInput('image', value, { readStorageKey: read });
      expect(resolved.via).toBe(via);
      expect(Buffer.from(resolved.bytes).equals(jpeg)).toBe(true);
    }
  });

  it('decodes a picture-sized base64 string once: classifying it and reading its bytes share one decode', async () => {
    const bytes = await faceBytes('resolve-once');
    const payload = bytes.toString('base64');
    const from = vi.spyOn(Buffer, 'from');
    try {
      const resolved = await resolveImageInput('image', payload, { readStorageKey: noStorage });
      expect(Buffer.compare(resolved.bytes, bytes)).toBe(0);
      expect(from.mock.calls.filter((call: unknown[]) => call[0] === payload && call[1] === 'base64')).toHaveLength(1);
    } finally {
      from.mockRestore();
    }
  });

  it('answers missing_field for absent and empty values and invalid_type for other JSON types', async () => {
    expect((await resolveError(undefined)).message).toBe('image is required');
    expect((await resolveError(null)).kind).toBe('missing_field');
    expect((await resolveError('   ')).message).toBe('image is empty');
    const number = await resolveError(42);
    expect(number.kind).toBe('invalid_type');
    expect(number.message).toBe('image must be a file or a string (base64, base64url or storage file key); got a number');
    expect((await resolveError({ url: 'x' })).message).toMatch(/got an object$/);
    expect((await resolveError(['a'])).message).toMatch(/got an array$/);
  });

  it('answers 403 storage_key_unreadable for a key the organization cannot read, even when the lookup throws', async () => {
    const missing = await resolveError('uploads/org_2/other.jpg');
    expect(missing.kind).toBe('storage_key_unreadable');
    expect(missing.status).toBe(403);
    expect(missing.message).toBe('image: storage key "uploads/org_2/other.jpg" is not readable by this organization');
    const throwing = await resolveError('uploads/../../etc/passwd', () => {
      throw new Error('path escapes the store');
    });
    expect(throwing.status).toBe(403);
  });

  it('answers 400 for a data URL whose payload is not base64', async () => {
    const error = await resolveError('data:image/png;base64,not base64!!');
    expect(error.kind).toBe('invalid_encoding');
    expect(error.status).toBe(400);
  });

  it('refuses oversize base64 and files before decoding them', async () => {
    const payload = 'A'.repeat(1400); // 1050 bytes
    const fromString = await resolveError(payload, noStorage, 1000);
    expect(fromString.kind).toBe('too_large');
    expect(fromString.message).toBe('image: image is 0.0 MB (1050 bytes); the limit is 0.0 MB (1000 bytes) per image');
    const fromFile = await resolveError(new Blob([new Uint8Array(1001)]), noStorage, 1000);
    expect(fromFile.kind).toBe('too_large');
    const fromKey = await resolveError('k.jpg', () => new Uint8Array(1001), 1000);
    expect(fromKey.kind).toBe('too_large');
  });
});
