/**
 * Image format from the bytes, never from a label: magic numbers for the six supported formats, and the
 * pixel dimensions read from the header alone, so a decompression bomb (a tiny file whose header claims
 * 30000×30000) is refused before any pixel is decoded.
 *
 * LIMITATIONS:
 * - Only the first frame of GIF and WebP is decoded; animated WebP is refused by the codec (undecodable).
 * - BigTIFF, HEIC/HEIF, AVIF, JPEG 2000, JPEG XL, SVG and PDF are recognised only to name them in the error.
 */

export const IMAGE_FORMATS = [
  { format: 'jpeg', mime: 'image/jpeg', magic: 'FF D8 FF' },
  { format: 'png', mime: 'image/png', magic: '89 50 4E 47 0D 0A 1A 0A' },
  { format: 'gif', mime: 'image/gif', magic: '"GIF87a" or "GIF89a"' },
  { format: 'bmp', mime: 'image/bmp', magic: '"BM"' },
  { format: 'tiff', mime: 'image/tiff', magic: '"II*\\0" (little-endian) or "MM\\0*" (big-endian)' },
  { format: 'webp', mime: 'image/webp', magic: '"RIFF" <size> "WEBP"' },
] as const;

export type ImageFormat = (typeof IMAGE_FORMATS)[number]['format'];

export function mimeOf(format: ImageFormat): string {
  return IMAGE_FORMATS.find((entry) => entry.format === format)?.mime ?? 'application/octet-stream';
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let out = '';
  for (let i = start; i < start + length && i < bytes.length; i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  return prefix.every((value, i) => bytes[offset + i] === value);
}

/** The format of the bytes from their magic number, or null when they are none of the six. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  const head6 = ascii(bytes, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'gif';
  // "BM" alone is two printable letters; also require a plausible DIB header size.
  if (startsWith(bytes, [0x42, 0x4d]) && bytes.length >= 18) {
    const dib = readU32LE(bytes, 14);
    if (dib === 12 || dib === 16 || dib === 40 || dib === 52 || dib === 56 || dib === 64 || dib === 108 || dib === 124) {
      return 'bmp';
    }
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  return null;
}

/** A human name for bytes that are not one of the six formats, for the error message. */
export function describeUnsupportedBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'empty';
  if (ascii(bytes, 0, 5) === '%PDF-') return 'a PDF document';
  const brand = ascii(bytes, 4, 8);
  if (brand.startsWith('ftyp')) {
    const kind = brand.slice(4);
    if (kind.startsWith('avi')) return 'an AVIF image';
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(kind)) return 'a HEIC/HEIF image';
    return 'an ISO media file (MP4/MOV/HEIF family)';
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2b, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2b])) return 'a BigTIFF image';
  if (startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20])) return 'a JPEG 2000 image';
  if (startsWith(bytes, [0xff, 0x0a]) || startsWith(bytes, [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20])) return 'a JPEG XL image';
  if (ascii(bytes, 0, 4) === '8BPS') return 'a Photoshop document';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return 'an ICO icon';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive';
  if (ascii(bytes, 0, 4) === 'RIFF') return `a RIFF container of type "${ascii(bytes, 8, 4)}"`;
  const head = ascii(bytes, 0, Math.min(bytes.length, 256)).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'an SVG drawing';
  if (head.startsWith('data:')) return 'text holding a data URL';
  const sample = bytes.subarray(0, Math.min(bytes.length, 512));
  const printable = sample.every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));
  if (printable && /^[A-Za-z0-9+/=_\-\s]+$/.test(ascii(sample, 0, sample.length))) return 'text that looks like base64';
  if (printable) return 'text';
  const hex = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
  return `unknown bytes (starting ${hex})`;
}

function readU16BE(b: Uint8Array, i: number): number {
  return ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
}
function readU16LE(b: Uint8Array, i: number): number {
  return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
}
function readU32BE(b: Uint8Array, i: number): number {
  return (((b[i] ?? 0) << 24) >>> 0) + (((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0));
}
function readU32LE(b: Uint8Array, i: number): number {
  return (((b[i + 3] ?? 0) << 24) >>> 0) + (((b[i + 2] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i] ?? 0));
}

/** What the header says about the pixels the decoder would allocate. */
export interface ImageHeaderInfo {
  width: number;
  height: number;
  /** Pixels the decoder will produce in total (TIFF decodes every page; GIF the larger of screen and frame). */
  decodedPixels: number;
}

/**
 * Reads width and height from the header without decoding pixels. Returns null when the header is
 * truncated or malformed (the image is then undecodable).
 */
export function readImageHeader(bytes: Uint8Array, format: ImageFormat): ImageHeaderInfo | null {
  switch (format) {
    case 'jpeg':
      return readJpegHeader(bytes);
    case 'png':
      return readPngHeader(bytes);
    case 'gif':
      return readGifHeader(bytes);
    case 'bmp':
      return readBmpHeader(bytes);
    case 'tiff':
      return readTiffHeader(bytes);
    case 'webp':
      return readWebpHeader(bytes);
  }
}

function info(width: number, height: number, decodedPixels = width * height): ImageHeaderInfo | null {
  if (!Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) return null;
  return { width, height, decodedPixels };
}

function readJpegHeader(b: Uint8Array): ImageHeaderInfo | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    const length = readU16BE(b, i + 2);
    if (length < 2) return null;
    const isFrameHeader = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrameHeader) {
      if (i + 9 > b.length) return null;
      return info(readU16BE(b, i + 7), readU16BE(b, i + 5));
    }
    i += 2 + length;
  }
  return null;
}

function readPngHeader(b: Uint8Array): ImageHeaderInfo | null {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return info(readU32BE(b, 16), readU32BE(b, 20));
}

function readGifHeader(b: Uint8Array): ImageHeaderInfo | null {
  if (b.length < 13) return null;
  const screenW = readU16LE(b, 6);
  const screenH = readU16LE(b, 8);
  const flags = b[10] ?? 0;
  let i = 13 + (flags & 0x80 ? 3 * (1 << ((flags & 7) + 1)) : 0);
  // Walk to the first image descriptor: its frame size bounds what the LZW decoder allocates.
  while (i < b.length) {
    const block = b[i];
    if (block === 0x21) {
      i += 2;
      while (i < b.length && b[i] !== 0) i += (b[i] ?? 0) + 1;
      i += 1;
    } else if (block === 0x2c) {
      if (i + 9 >= b.length) return null;
      const frameW = readU16LE(b, i + 5);
      const frameH = readU16LE(b, i + 7);
      if (frameW === 0 || frameH === 0) return null;
      return info(screenW, screenH, Math.max(screenW * screenH, frameW * frameH));
    } else {
      return null; // trailer or garbage before any frame
    }
  }
  return null;
}

function readBmpHeader(b: Uint8Array): ImageHeaderInfo | null {
  if (b.length < 26) return null;
  const dib = readU32LE(b, 14);
  if (dib === 12) return info(readU16LE(b, 18), readU16LE(b, 20));
  const width = readU32LE(b, 18) | 0;
  const height = readU32LE(b, 22) | 0;
  return info(Math.abs(width), Math.abs(height));
}

function readTiffHeader(b: Uint8Array): ImageHeaderInfo | null {
  if (b.length < 8) return null;
  const little = b[0] === 0x49;
  const u16 = (i: number) => (little ? readU16LE(b, i) : readU16BE(b, i));
  const u32 = (i: number) => (little ? readU32LE(b, i) : readU32BE(b, i));
  let offset = u32(4);
  const seen = new Set<number>();
  let first: { width: number; height: number } | null = null;
  let total = 0;
  // The codec decodes every page of the chain, so every page counts toward the pixel budget.
  for (let page = 0; page < 1024 && offset !== 0; page++) {
    if (seen.has(offset) || offset + 2 > b.length) return null;
    seen.add(offset);
    const count = u16(offset);
    if (offset + 2 + count * 12 + 4 > b.length) return null;
    let width = 0;
    let height = 0;
    for (let e = 0; e < count; e++) {
      const entry = offset + 2 + e * 12;
      const tag = u16(entry);
      if (tag !== 256 && tag !== 257) continue;
      const type = u16(entry + 2);
      const value = type === 3 ? u16(entry + 8) : type === 4 ? u32(entry + 8) : 0;
      if (tag === 256) width = value;
      else height = value;
    }
    if (width > 0 && height > 0) {
      first ??= { width, height };
      total += width * height;
    }
    offset = u32(offset + 2 + count * 12);
  }
  if (!first) return null;
  return info(first.width, first.height, total);
}

function readWebpHeader(b: Uint8Array): ImageHeaderInfo | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return info(readU16LE(b, 26) & 0x3fff, readU16LE(b, 28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const b1 = b[21] ?? 0;
    const b2 = b[22] ?? 0;
    const b3 = b[23] ?? 0;
    const b4 = b[24] ?? 0;
    const width = 1 + (((b2 & 0x3f) << 8) | b1);
    const height = 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6));
    return info(width, height);
  }
  if (chunk === 'VP8X') {
    const width = 1 + ((b[24] ?? 0) | ((b[25] ?? 0) << 8) | ((b[26] ?? 0) << 16));
    const height = 1 + ((b[27] ?? 0) | ((b[28] ?? 0) << 8) | ((b[29] ?? 0) << 16));
    return info(width, height);
  }
  return null;
}
