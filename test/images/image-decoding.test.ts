import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createImageDecoder, jpegDecodeSide, type DecodedImage } from '../../src/images/image-decoding.ts';
import { ImageInputError } from '../../src/images/image-input-error.ts';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { rngFrom } from '../../src/platform/random/random.ts';
import { ALL_FORMATS, faceBytes } from './helpers.ts';

// The real path: sharp (jimp for BMP).
const decoder = createImageDecoder();

function meanRgb(image: DecodedImage): [number, number, number] {
  const { rgb } = image.working;
  const sums = [0, 0, 0];
  for (let i = 0; i < rgb.length; i++) sums[i % 3] = (sums[i % 3] ?? 0) + (rgb[i] ?? 0);
  const n = rgb.length / 3;
  return [(sums[0] ?? 0) / n, (sums[1] ?? 0) / n, (sums[2] ?? 0) / n];
}

async function decodeError(promise: Promise<unknown>): Promise<ImageInputError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ImageInputError) return error;
    throw new Error(`expected ImageInputError, got ${String(error)}`);
  }
  throw new Error('expected ImageInputError, decode succeeded');
}

describe('decoding the six formats', () => {
  it('decodes JPEG, PNG, GIF, BMP, TIFF and WebP of the same picture to the same size and colours', async () => {
    const face = drawSyntheticFace('decode-all-formats', 150, 190);
    const decoded: DecodedImage[] = [];
    for (const format of ALL_FORMATS) {
      const bytes = await encodeImage(face, format, { quality: 90 });
      const image = await decoder.decode(bytes, 'image');
      expect(image.format).toBe(format);
      expect(image.mime).toBe(`image/${format}`);
      expect([image.width, image.height]).toEqual([150, 190]);
      expect([image.working.width, image.working.height]).toEqual([150, 190]); // never upscaled
      expect(image.byteLength).toBe(bytes.length);
      decoded.push(image);
    }
    const reference = meanRgb(decoded[1] as DecodedImage); // PNG: lossless
    for (const image of decoded) {
      const mean = meanRgb(image);
      for (let c = 0; c < 3; c++) expect(Math.abs((mean[c] ?? 0) - (reference[c] ?? 0)), image.format).toBeLessThan(3);
    }
    // Lossless formats give identical pixels.
    for (const format of ['bmp', 'tiff'] as const) {
      expect(Buffer.from(decoded[ALL_FORMATS.indexOf(format)]?.working.rgb ?? [])).toEqual(Buffer.from(decoded[1]?.working.rgb ?? []));
    }
  });

  it('downscales large pictures to a working image of at most 256 px, keeping the aspect ratio', async () => {
    const image = await decoder.decode(await faceBytes('decode-large', 'jpeg', 1000, 640), 'image');
    expect([image.width, image.height]).toEqual([1000, 640]);
    expect([image.working.width, image.working.height]).toEqual([256, 164]);
    expect(image.working.rgb.length).toBe(256 * 164 * 3);
  });

  it('decodes a JPEG three times the working image or larger straight to the working size, by a rule read from the header alone', async () => {
    expect(jpegDecodeSide('jpeg', 3024, 4032, 256)).toBe(256);
    expect(jpegDecodeSide('jpeg', 768, 300, 256)).toBe(256);
    expect(jpegDecodeSide('jpeg', 767, 767, 256)).toBeUndefined();
    expect(jpegDecodeSide('png', 3024, 4032, 256)).toBeUndefined();
    const image = await decoder.decode(await faceBytes('decode-scaled', 'jpeg', 1600, 1200), 'image');
    expect([image.width, image.height, image.working.width, image.working.height]).toEqual([1600, 1200, 256, 192]);
  });

  it('decodes lossless copies of a large picture to the same working pixels (only JPEG is decoded at reduced scale)', async () => {
    const face = drawSyntheticFace('decode-large-lossless', 1200, 900);
    const [png, bmp, tiff] = await Promise.all((['png', 'bmp', 'tiff'] as const).map(async (format) => decoder.decode(await encodeImage(face, format))));
    expect(Buffer.from(bmp?.working.rgb ?? [])).toEqual(Buffer.from(png?.working.rgb ?? []));
    expect(Buffer.from(tiff?.working.rgb ?? [])).toEqual(Buffer.from(png?.working.rgb ?? []));
  });

  it('gives the same decoded image for the same bytes, in one decoder or another', async () => {
    const bytes = await faceBytes('decode-determinism', 'webp');
    const other = createImageDecoder();
    const [a, b, c] = [await decoder.decode(bytes), await decoder.decode(bytes), await other.decode(bytes)];
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });
});

describe('bad bytes never escape as anything but ImageInputError', () => {
  it('answers undecodable with hints for a JPEG cut in half, and keeps serving', async () => {
    const bytes = await faceBytes('decode-truncated', 'jpeg');
    const error = await decodeError(decoder.decode(bytes.subarray(0, Math.floor(bytes.length / 2)), 'source'));
    expect(error.kind).toBe('undecodable');
    expect(error.message).toBe('source: the JPEG image could not be decoded');
    expect(error.hints[0]).toMatch(/^Decoder said: /);
    expect((await decoder.decode(bytes)).format).toBe('jpeg');
  });

  it('answers unsupported_format for random garbage', async () => {
    const rng = rngFrom('garbage-bytes');
    for (let i = 0; i < 20; i++) {
      const garbage = rng.bytes(rng.int(1, 4000));
      garbage[0] = 0x00; // not a magic number
      const error = await decodeError(decoder.decode(garbage));
      expect(error.kind).toBe('unsupported_format');
    }
  });

  it('survives 120 corrupted variants of valid files in all six formats (flipped bytes, cuts)', async () => {
    const rng = rngFrom('fuzz-decoders');
    const face = drawSyntheticFace('fuzz-source', 48, 60);
    const kinds = new Map<string, number>();
    for (const format of ALL_FORMATS) {
      const valid = await encodeImage(face, format);
      for (let round = 0; round < 20; round++) {
        const bytes = Buffer.from(valid);
        const flips = rng.int(1, 12);
        for (let f = 0; f < flips; f++) bytes[rng.int(0, bytes.length - 1)] = rng.int(0, 255);
        const cut = rng.chance(0.3) ? bytes.subarray(0, rng.int(1, bytes.length)) : bytes;
        try {
          const image = await decoder.decode(cut);
          kinds.set('decoded', (kinds.get('decoded') ?? 0) + 1);
          expect(image.working.rgb.length).toBe(image.working.width * image.working.height * 3);
        } catch (error) {
          expect(error, `${format} round ${round}`).toBeInstanceOf(ImageInputError);
          const kind = (error as ImageInputError).kind;
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        }
      }
    }
    const total = [...kinds.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(120);
    expect(kinds.get('undecodable') ?? 0).toBeGreaterThan(0);
    // and the decoder still works afterwards
    expect((await decoder.decode(await encodeImage(face, 'png'))).format).toBe('png');
  }, 60_000);

  it('decodes inflation bombs at the size their header declares without inflating the rest: a 10x10 PNG and TIFF whose data inflates to 64 MB', async () => {
    const zeros = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    expect(zeros.length).toBeLessThan(100_000);
    const chunk = (type: string, data: Buffer) => {
      const out = Buffer.alloc(12 + data.length);
      out.writeUInt32BE(data.length, 0);
      out.write(type, 4, 'latin1');
      data.copy(out, 8);
      out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
      return out;
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(10, 0);
    ihdr.writeUInt32BE(10, 4);
    Buffer.from([8, 6, 0, 0, 1]).copy(ihdr, 8); // 8-bit RGBA, interlaced
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zeros),
      chunk('IEND', Buffer.alloc(0)),
    ]);

    const entries: [number, number, number][] = [
      [256, 4, 10],
      [257, 4, 10],
      [258, 3, 8],
      [259, 3, 8],
      [273, 4, 8 + 2 + 10 * 12 + 4],
      [277, 3, 4],
      [278, 4, 10],
      [279, 4, zeros.length],
      [262, 3, 2],
      [338, 3, 2],
    ];
    entries.sort((a, b) => a[0] - b[0]);
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, value], i) => {
      ifd.writeUInt16LE(tag, 2 + i * 12);
      ifd.writeUInt16LE(type, 4 + i * 12);
      ifd.writeUInt32LE(1, 6 + i * 12);
      if (type === 3) ifd.writeUInt16LE(value, 10 + i * 12);
      else ifd.writeUInt32LE(value, 10 + i * 12);
    });
    const tiff = Buffer.concat([Buffer.from([0x49, 0x49, 42, 0, 8, 0, 0, 0]), ifd, zeros]);

    // libspng and libtiff inflate no more than the declared pixels need (measured: RSS grows by about 1 MB).
    for (const [name, bytes] of [
      ['png', png],
      ['tiff', tiff],
    ] as const) {
      const image = await decoder.decode(bytes);
      expect([image.width, image.height, image.working.rgb.length], name).toEqual([10, 10, 300]);
    }
  });

  it('stops a decode that exceeds the time budget with decode_timeout, then decodes again', async () => {
    const impatient = createImageDecoder({ decodeTimeoutMs: 1 });
    const bytes = await faceBytes('decode-timeout', 'jpeg', 600, 600);
    const error = await decodeError(impatient.decode(bytes, 'image'));
    expect(error.kind).toBe('decode_timeout');
    expect(error.message).toBe('image: decoding the JPEG image took longer than 1 ms');
    expect(error.hints.length).toBe(1);
    expect((await decoder.decode(bytes)).width).toBe(600);
  });

  it('decodes two pictures in parallel', async () => {
    const [a, b] = await Promise.all([decoder.decode(await faceBytes('parallel-a')), decoder.decode(await faceBytes('parallel-b', 'png'))]);
    expect([a.format, b.format]).toEqual(['jpeg', 'png']);
    expect(a.working.rgb).not.toEqual(b.working.rgb);
  });
});
