import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseImage } from '../../src/images/image-analysis.ts';
import { IMAGE_LIMITS } from '../../src/images/image-checks.ts';
import { createImageDecoder, type ImageDecoder, imagesDoneOnThreads } from '../../src/images/image-decoding.ts';
import { ImageInputError } from '../../src/images/image-input-error.ts';
import { loadImage, loadImages } from '../../src/images/image-loading.ts';
import { faceBytes } from './helpers.ts';

function countingDecoder(): { decoder: ImageDecoder; calls: string[] } {
  const inner = createImageDecoder();
  const calls: string[] = [];
  return {
    calls,
    decoder: {
      ...inner,
      analyse: (bytes, field) => {
        calls.push(field ?? 'image');
        return inner.analyse(bytes, field);
      },
    },
  };
}

describe('loadImages', () => {
  it('decodes identical bytes once even when they arrive in two fields and two encodings', async () => {
    const bytes = await faceBytes('load-same');
    const { decoder, calls } = countingDecoder();
    const storage = new Map([['uploads/org/a.jpg', new Uint8Array(bytes)]]);
    const loaded = await loadImages(
      { source: bytes.toString('base64'), target: 'uploads/org/a.jpg' },
      { readStorageKey: (k) => storage.get(k) ?? null, decoder },
    );
    expect(calls).toEqual(['source']);
    expect(loaded.source.analysis).toBe(loaded.target.analysis);
    expect([loaded.source.input.via, loaded.target.input.via]).toEqual(['base64', 'storageKey']);
  });

  it('decodes different images once each', async () => {
    const { decoder, calls } = countingDecoder();
    const loaded = await loadImages(
      { documentImage: await faceBytes('load-a'), faceImage: await faceBytes('load-b', 'png') },
      { readStorageKey: () => null, decoder },
    );
    expect(calls.sort()).toEqual(['documentImage', 'faceImage']);
    expect(loaded.documentImage.analysis.image.format).toBe('jpeg');
    expect(loaded.faceImage.analysis.image.format).toBe('png');
  });

  it('reports the first bad field in the order given, whatever fails first', async () => {
    const { decoder } = countingDecoder();
    const error = await loadImages({ source: 'not/a/readable key.jpg', target: undefined }, { readStorageKey: () => null, decoder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageInputError);
    expect((error as ImageInputError).field).toBe('source');
    expect((error as ImageInputError).status).toBe(403);
    const second = await loadImages({ source: await faceBytes('ok'), target: Buffer.from('garbage!') }, { readStorageKey: () => null, decoder }).catch(
      (e: unknown) => e,
    );
    expect((second as ImageInputError).field).toBe('target');
    expect((second as ImageInputError).kind).toBe('unsupported_format');
  });

  it('loads one field with the process-wide decoder', async () => {
    const loaded = await loadImage('image', (await faceBytes('load-one', 'gif')).toString('base64url'), { readStorageKey: () => null });
    expect(loaded.analysis.image.format).toBe('gif');
    expect(loaded.analysis.face).not.toBeNull();
  });

  it('takes the format from the bytes: a JPEG in a file part labelled image/png named .png is a JPEG', async () => {
    const { decoder } = countingDecoder();
    const file = new File([await faceBytes('mislabelled')], 'selfie.png', { type: 'image/png' });
    const loaded = await loadImage('image', file, { readStorageKey: () => null, decoder });
    expect(loaded.analysis.image.format).toBe('jpeg');
    expect(loaded.analysis.face).not.toBeNull();
  });

  it('answers a bomb, an oversize upload and garbage with ImageInputError and hints, then keeps serving', async () => {
    const { decoder } = countingDecoder();
    const deps = { readStorageKey: () => null, decoder };
    const bomb = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(bomb);
    bomb.writeUInt32BE(30000, 16);
    bomb.writeUInt32BE(30000, 20);
    const oversize = Buffer.alloc(IMAGE_LIMITS.maxBytes + 1, 0xff);
    const cases: [unknown, string][] = [
      [bomb.toString('base64'), 'too_many_pixels'],
      [oversize, 'too_large'],
      [Buffer.from('definitely not an image').toString('base64'), 'unsupported_format'],
      ['////', 'unsupported_format'],
    ];
    for (const [value, kind] of cases) {
      const error = await loadImage('image', value, deps).catch((e: unknown) => e);
      expect(error, kind).toBeInstanceOf(ImageInputError);
      expect((error as ImageInputError).kind).toBe(kind);
      expect((error as ImageInputError).status).toBe(400);
      expect((error as ImageInputError).hints.length).toBeGreaterThan(0);
      expect((error as ImageInputError).toJSON()).toStrictEqual({ error: (error as ImageInputError).message, hints: (error as ImageInputError).hints });
    }
    expect((await loadImage('image', await faceBytes('still-serving'), deps)).analysis.face).not.toBeNull();
  });

  it("decodes and analyses on the pool's worker threads, with the analysis this thread would give", async () => {
    const decoder = createImageDecoder();
    const pictures = ['face.jpg', 'different-face.jpg', 'passport.jpg', 'drivers-license.jpg'].map((name) =>
      readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url)),
    );
    const here = (await Promise.all(pictures.map((bytes) => decoder.decode(bytes)))).map((image) => analyseImage(image));
    const before = imagesDoneOnThreads();
    const there = await Promise.all(pictures.map((bytes) => decoder.analyse(bytes)));
    // One task per picture, each counted by the pool once a thread answered it.
    expect(imagesDoneOnThreads() - before).toBe(pictures.length);
    // Whichever thread analysed it, a picture's analysis is the same.
    expect(there).toEqual(here);
  });
});
