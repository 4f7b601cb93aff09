import { describe, expect, it } from 'vitest';
import { checkImageBytes, IMAGE_LIMITS } from '../../src/images/image-checks.ts';
import { describeUnsupportedBytes, readImageHeader, sniffImageFormat } from '../../src/images/image-format.ts';
import { ImageInputError } from '../../src/images/image-input-error.ts';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { ALL_FORMATS } from './helpers.ts';

function expectImageError(run: () => unknown, kind: string): ImageInputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImageInputError);
    const e = error as ImageInputError;
    expect(e.kind).toBe(kind);
    expect(e.hints.length).toBeGreaterThan(0);
    return e;
  }
  throw new Error(`expected ImageInputError ${kind}`);
}

// ---- crafted headers: tiny files that claim huge pictures -------------------------------------------

function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 6;
  return b;
}

function jpegHeader(width: number, height: number): Buffer {
  // SOI, APP0 (16 bytes), SOF0 with 3 components
  return Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
}

function gifHeader(screenW: number, screenH: number, frameW: number, frameH: number): Buffer {
  const b = Buffer.alloc(13 + 10 + 4);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(screenW, 6);
  b.writeUInt16LE(screenH, 8);
  b[10] = 0; // no global colour table
  b[13] = 0x2c;
  b.writeUInt16LE(frameW, 18);
  b.writeUInt16LE(frameH, 20);
  return b;
}

function bmpHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(54);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(-height, 22); // top-down
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

function tiffHeader(pages: readonly [number, number][]): Buffer {
  const entrySize = 2 + 2 * 12 + 4;
  const b = Buffer.alloc(8 + pages.length * entrySize);
  b.write('II', 0, 'latin1');
  b.writeUInt16LE(42, 2);
  b.writeUInt32LE(8, 4);
  pages.forEach(([width, height], page) => {
    const at = 8 + page * entrySize;
    b.writeUInt16LE(2, at);
    b.writeUInt16LE(256, at + 2);
    b.writeUInt16LE(4, at + 4);
    b.writeUInt32LE(1, at + 6);
    b.writeUInt32LE(width, at + 10);
    b.writeUInt16LE(257, at + 14);
    b.writeUInt16LE(4, at + 16);
    b.writeUInt32LE(1, at + 18);
    b.writeUInt32LE(height, at + 22);
    b.writeUInt32LE(page < pages.length - 1 ? at + entrySize : 0, at + 26);
  });
  return b;
}

function webpVp8xHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'latin1');
  b.write('VP8X', 12, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

describe('image format from the bytes', () => {
  it('sniffs each of the six formats from jimp-encoded bytes and reads their size from the header', async () => {
    const face = drawSyntheticFace('format-sniff', 37, 53);
    for (const format of ALL_FORMATS) {
      const bytes = await encodeImage(face, format);
      expect(sniffImageFormat(bytes)).toBe(format);
      expect(readImageHeader(bytes, format)).toEqual({ width: 37, height: 53, decodedPixels: 37 * 53 });
    }
  });

  it('reads lossless WebP (VP8L) and extended WebP (VP8X) headers', async () => {
    const face = drawSyntheticFace('format-webp', 301, 77);
    const { encodeWebp } = await import('../../src/images/codecs.cjs');
    const lossless = await encodeWebp(face.bitmap, { lossless: 1 });
    expect(lossless.subarray(12, 16).toString('latin1')).toBe('VP8L');
    expect(readImageHeader(lossless, 'webp')).toEqual({ width: 301, height: 77, decodedPixels: 301 * 77 });
    expect(readImageHeader(webpVp8xHeader(4000, 3000), 'webp')).toEqual({ width: 4000, height: 3000, decodedPixels: 12_000_000 });
  });

  it('names common non-image bytes instead of guessing', () => {
    expect(sniffImageFormat(Buffer.from('%PDF-1.7\n...'))).toBeNull();
    expect(describeUnsupportedBytes(Buffer.from('%PDF-1.7\n...'))).toBe('a PDF document');
    expect(describeUnsupportedBytes(Buffer.from('\u0000\u0000\u0000\u0018ftypheic', 'latin1'))).toBe('a HEIC/HEIF image');
    expect(describeUnsupportedBytes(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('an SVG drawing');
    expect(describeUnsupportedBytes(Buffer.from('/9j/4AAQSkZJRgABAQ=='))).toBe('text that looks like base64');
    expect(describeUnsupportedBytes(Buffer.from([0x01, 0x02, 0x03, 0xfe]))).toBe('unknown bytes (starting 01 02 03 FE)');
    // "BM" followed by nonsense is not a BMP
    expect(sniffImageFormat(Buffer.from('BMW is a car brand, not a bitmap'))).toBeNull();
  });
});

describe('guards before decoding', () => {
  it('refuses decompression bombs from the header alone, in every format', () => {
    const bombs: [string, Buffer][] = [
      ['png', pngHeader(30000, 30000)],
      ['jpeg', jpegHeader(30000, 30000)],
      ['gif (frame larger than screen)', gifHeader(10, 10, 30000, 30000)],
      ['bmp', bmpHeader(30000, 30000)],
      ['tiff', tiffHeader([[30000, 30000]])],
      ['tiff (many pages)', tiffHeader(Array.from({ length: 12 }, () => [2000, 2000] as [number, number]))],
      ['webp', webpVp8xHeader(16000, 16000)],
    ];
    for (const [name, bytes] of bombs) {
      expect(bytes.length, name).toBeLessThan(400);
      const error = expectImageError(() => checkImageBytes(bytes, 'image'), 'too_many_pixels');
      expect(error.message, name).toMatch(/^image: image header declares \d+×\d+/);
      expect(error.message, name).toContain('the limit is 16 megapixels');
      expect(error.status).toBe(400);
    }
  });

  it('accepts a header exactly at the pixel budget and refuses one pixel more', () => {
    expect(checkImageBytes(pngHeader(4000, 4000), 'image')).toEqual({ format: 'png', width: 4000, height: 4000, pixels: 16_000_000 });
    expectImageError(() => checkImageBytes(pngHeader(4000, 4001), 'image'), 'too_many_pixels');
    // The bomb of the abuse report: 6300 × 6300 RGBA in 154 KB slipped under the former 40-megapixel limit.
    const bomb = expectImageError(() => checkImageBytes(pngHeader(6300, 6300), 'image'), 'too_many_pixels');
    expect(bomb.message).toBe('image: image header declares 6300×6300; the limit is 16 megapixels');
  });

  it('refuses more than 15 MiB before looking at the format, and accepts exactly 15 MiB', () => {
    const over = Buffer.alloc(IMAGE_LIMITS.maxBytes + 1);
    pngHeader(100, 100).copy(over);
    const error = expectImageError(() => checkImageBytes(over, 'source'), 'too_large');
    expect(error.message).toBe('source: image is 15.0 MB (15728641 bytes); the limit is 15.0 MB (15728640 bytes) per image');
    expect(IMAGE_LIMITS.maxBytes).toBe(15 * 1024 * 1024);
    const exact = Buffer.alloc(IMAGE_LIMITS.maxBytes);
    pngHeader(100, 100).copy(exact);
    expect(checkImageBytes(exact, 'source').format).toBe('png');
  });

  it('gives unsupported_format with hints for bytes that are no image, and undecodable for a cut header', () => {
    const pdf = expectImageError(() => checkImageBytes(Buffer.from('%PDF-1.4 fake'), 'target'), 'unsupported_format');
    expect(pdf.message).toBe('target: unsupported image format (a PDF document)');
    expect(pdf.hints[0]).toBe('Send a JPEG, PNG, GIF, BMP, TIFF or WebP image.');
    const cut = expectImageError(() => checkImageBytes(pngHeader(10, 10).subarray(0, 20), 'image'), 'undecodable');
    expect(cut.message).toBe('image: the PNG header is truncated or malformed');
    expectImageError(() => checkImageBytes(new Uint8Array(0), 'image'), 'undecodable');
  });
});
