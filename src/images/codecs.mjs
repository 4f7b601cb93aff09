/**
 * Pixel codecs shared by the main thread and the decode worker.
 *
 * Plain JavaScript on purpose: Node 20 worker threads cannot load TypeScript without a loader, and the
 * decode worker (decode-worker.mjs) imports this file. Types live in codecs.d.mts.
 *
 * Jimp 1.x composes formats with createJimp. The six formats are jimp's defaults (JPEG, PNG, GIF, BMP,
 * TIFF) plus WebP. @jimp/wasm-webp cannot be used as is on Node 20: it calls the codec's init() with no
 * argument on every call, and the Emscripten glue then fetch()es its .wasm from a file: URL, which
 * Node's fetch refuses. So the WebP format below is the same codec (@jsquash/webp, what @jimp/wasm-webp
 * wraps) initialised once with WebAssembly modules compiled from the package's own .wasm files.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { createJimp } from '@jimp/core';
import { defaultFormats } from 'jimp';
import webpDecode, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import webpEncode, { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import { decode as decodeJpeg, OutOfSpecScan } from './jpeg-decoder.mjs';

const require = createRequire(import.meta.url);

let decoderReady;
let encoderReady;

function compileWasm(specifier) {
  return WebAssembly.compile(readFileSync(require.resolve(specifier)));
}

function ensureWebpDecoder() {
  decoderReady ??= compileWasm('@jsquash/webp/codec/dec/webp_dec.wasm').then((module) => initWebpDecoder(module));
  return decoderReady;
}

function ensureWebpEncoder() {
  // encode.js picks its SIMD glue when the runtime supports WebAssembly SIMD (Node 20 does), so the
  // SIMD module is the one that matches; the scalar one is the fallback for runtimes without SIMD.
  encoderReady ??= (async () => {
    let module;
    try {
      module = await compileWasm('@jsquash/webp/codec/enc/webp_enc_simd.wasm');
    } catch {
      module = await compileWasm('@jsquash/webp/codec/enc/webp_enc.wasm');
    }
    await initWebpEncoder(module);
  })();
  return encoderReady;
}

/** A jimp format definition for WebP (decode + encode), same contract as @jimp/wasm-webp's. */
export function webpFormat() {
  return {
    mime: 'image/webp',
    hasAlpha: true,
    encode: async (bitmap, { quality = 80, lossless = 0 } = {}) => {
      await ensureWebpEncoder();
      const out = await webpEncode(
        { data: new Uint8ClampedArray(bitmap.data), width: bitmap.width, height: bitmap.height, colorSpace: 'srgb' },
        { quality, lossless },
      );
      return Buffer.from(out);
    },
    decode: async (data) => {
      await ensureWebpDecoder();
      const copy = new Uint8Array(data.byteLength);
      copy.set(data);
      const result = await webpDecode(copy.buffer);
      return {
        data: Buffer.from(result.data.buffer, result.data.byteOffset, result.data.byteLength),
        width: result.width,
        height: result.height,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Inflation bombs. The header's pixel count bounds what every decoder allocates, except two paths that
// inflate zlib data without a limit: pngjs for interlaced PNGs (zlib.inflateSync without maxLength)
// and utif2 for deflate-compressed TIFF strips (pako.inflateRaw). A few kilobytes can inflate to
// gigabytes there, so those streams are first inflated with a hard output limit derived from the
// declared size (8 bytes per pixel: 16-bit RGBA, the most any PNG/TIFF pixel needs, plus row
// overhead). Other zlib errors are left for the decoder to report.
// ---------------------------------------------------------------------------------------------------

const BOMB_MESSAGE = 'image data inflates beyond the size its header declares (decompression bomb)';

function inflateWithin(data, limit) {
  try {
    return inflateSync(data, { maxOutputLength: Math.max(1024, limit) }).length;
  } catch (error) {
    if (error && (error.code === 'ERR_BUFFER_TOO_LARGE' || /larger than/i.test(String(error.message)))) throw new Error(BOMB_MESSAGE);
    return 0;
  }
}

function checkPngInflation(b) {
  if (b.length < 33 || b[28] !== 1) return; // only interlaced PNGs bypass pngjs's own limit
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const parts = [];
  for (let i = 8; i + 8 <= b.length; ) {
    const length = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    if (type === 'IDAT') parts.push(b.subarray(i + 8, Math.min(b.length, i + 8 + length)));
    if (type === 'IEND') break;
    i += 12 + length;
  }
  inflateWithin(Buffer.concat(parts), 8 * width * height + 16 * height + 1024);
}

function checkTiffInflation(b) {
  if (b.length < 8) return;
  const little = b[0] === 0x49;
  const u16 = (i) => (i + 2 <= b.length ? (little ? b.readUInt16LE(i) : b.readUInt16BE(i)) : 0);
  const u32 = (i) => (i + 4 <= b.length ? (little ? b.readUInt32LE(i) : b.readUInt32BE(i)) : 0);
  const values = (entry) => {
    const type = u16(entry + 2);
    const count = Math.min(u32(entry + 4), 1 << 20);
    const size = type === 3 ? 2 : 4;
    const at = count * size <= 4 ? entry + 8 : u32(entry + 8);
    const out = [];
    for (let k = 0; k < count; k++) out.push(size === 2 ? u16(at + k * 2) : u32(at + k * 4));
    return out;
  };
  const seen = new Set();
  for (let offset = u32(4), page = 0; offset !== 0 && page < 1024 && !seen.has(offset); page++) {
    seen.add(offset);
    const count = u16(offset);
    const tags = new Map();
    for (let e = 0; e < count; e++) tags.set(u16(offset + 2 + e * 12), offset + 2 + e * 12);
    const tag = (id) => (tags.has(id) ? values(tags.get(id)) : []);
    const compression = tag(259)[0] ?? 1;
    if (compression === 8 || compression === 32946) {
      let budget = 8 * (tag(256)[0] ?? 0) * (tag(257)[0] ?? 0) + 1024;
      const offsets = tags.has(273) ? tag(273) : tag(324);
      const counts = tags.has(279) ? tag(279) : tag(325);
      for (let k = 0; k < offsets.length; k++) {
        const start = offsets[k] ?? 0;
        budget -= inflateWithin(b.subarray(start, Math.min(b.length, start + (counts[k] ?? 0))), budget);
      }
    }
    offset = u32(offset + 2 + count * 12);
  }
}

/** Throws when a PNG or TIFF would inflate beyond its declared size. */
export function checkInflation(buffer) {
  if (buffer[0] === 0x89 && buffer[1] === 0x50) checkPngInflation(buffer);
  else if ((buffer[0] === 0x49 && buffer[1] === 0x49) || (buffer[0] === 0x4d && buffer[1] === 0x4d)) checkTiffInflation(buffer);
}

/**
 * Jimp's JPEG format with jpeg-decoder.mjs as its decoder: the same pixels as jimp's own (jpeg-js), in about
 * half the time. The rare out-of-specification picture jpeg-decoder.mjs declines goes to jpeg-js.
 */
function fastJpeg(jpeg) {
  return () => {
    const definition = jpeg();
    return {
      ...definition,
      decode: (data, options) => {
        try {
          return decodeJpeg(data, options);
        } catch (error) {
          if (error instanceof OutOfSpecScan) return definition.decode(data, options);
          throw error;
        }
      },
    };
  };
}

/** Jimp with the six formats and no manipulation plugins: decoding only needs the codecs. */
export const CodecJimp = createJimp({
  formats: [...defaultFormats.map((format) => (format().mime === 'image/jpeg' ? fastJpeg(format) : format)), webpFormat],
  plugins: [],
});

/**
 * Decodes bytes with jimp (Jimp.fromBuffer, never a path) and applies EXIF orientation as jimp does.
 * Returns a bitmap with RGBA bytes. `jpegLimits` feeds jpeg-js's own memory guards.
 */
export async function decodeBitmap(bytes, { maxMegapixels = 100 } = {}) {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkInflation(buffer);
  const image = await CodecJimp.fromBuffer(buffer, {
    'image/jpeg': { maxResolutionInMP: maxMegapixels, maxMemoryUsageInMB: Math.ceil(maxMegapixels * 4 * 1.5) + 64 },
  });
  return { width: image.bitmap.width, height: image.bitmap.height, data: image.bitmap.data, mime: image.mime };
}

/**
 * Box-filter (area-average) downscale of an RGBA bitmap so its longer side is at most `maxSide`, with
 * alpha composited over white (transparent pixels read as a white background, as a viewer shows them).
 * Never upscales. Returns RGB bytes (3 per pixel). Deterministic: integer-free float sums, fixed order.
 */
export function downscaleToRgb(bitmap, maxSide) {
  const { width: sw, height: sh, data } = bitmap;
  const scale = Math.min(1, maxSide / Math.max(sw, sh));
  const dw = Math.max(1, Math.round(sw * scale));
  const dh = Math.max(1, Math.round(sh * scale));
  const out = new Uint8Array(dw * dh * 3);
  const sums = new Float64Array(dw * 4);
  // source column -> destination column (each source pixel lands in exactly one destination bin)
  const colBin = new Uint32Array(sw);
  for (let x = 0; x < sw; x++) colBin[x] = Math.min(dw - 1, Math.floor((x * dw) / sw));
  let sy = 0;
  for (let dy = 0; dy < dh; dy++) {
    const syEnd = dy === dh - 1 ? sh : Math.floor(((dy + 1) * sh) / dh);
    sums.fill(0);
    for (; sy < syEnd; sy++) {
      let i = sy * sw * 4;
      for (let x = 0; x < sw; x++, i += 4) {
        const k = colBin[x] * 4;
        if (data[i + 3] === 255) {
          // Opaque (every JPEG pixel): what the blend below gives for alpha 1, exactly, without the arithmetic.
          sums[k] += data[i];
          sums[k + 1] += data[i + 1];
          sums[k + 2] += data[i + 2];
        } else {
          const a = data[i + 3] / 255;
          sums[k] += data[i] * a + 255 * (1 - a);
          sums[k + 1] += data[i + 1] * a + 255 * (1 - a);
          sums[k + 2] += data[i + 2] * a + 255 * (1 - a);
        }
        sums[k + 3] += 1;
      }
    }
    for (let dx = 0; dx < dw; dx++) {
      const n = sums[dx * 4 + 3] || 1;
      const o = (dy * dw + dx) * 3;
      out[o] = Math.round(sums[dx * 4] / n);
      out[o + 1] = Math.round(sums[dx * 4 + 1] / n);
      out[o + 2] = Math.round(sums[dx * 4 + 2] / n);
    }
  }
  return { width: dw, height: dh, rgb: out };
}

/** Encodes an RGBA bitmap as WebP (lossy unless `lossless: 1`). Used by the fixture script and tests. */
export async function encodeWebp(bitmap, options = {}) {
  return webpFormat().encode(bitmap, options);
}

/** Decode + downscale in one step: what the worker runs for every image. */
export async function decodeToWorking(bytes, { maxSide, maxMegapixels }) {
  const bitmap = await decodeBitmap(bytes, { maxMegapixels });
  const working = downscaleToRgb(bitmap, maxSide);
  return { width: bitmap.width, height: bitmap.height, mime: bitmap.mime, working };
}
