/**
 * Pixel codecs: sharp (libvips: libjpeg-turbo, libspng, libwebp, libtiff, libnsgif) decodes JPEG, PNG, WebP,
 * GIF and TIFF; jimp decodes BMP (libvips has no BMP loader). Why sharp: docs/development.md, "Image
 * decoding: why sharp".
 *
 * Plain CommonJS, required on a thread's first decode (image-worker.ts): the server bundle leaves this module
 * (and with it sharp's native binding and jimp) out, so a start that never decodes an image never loads them.
 * CommonJS because the bundle runs from V8's kept compiled code, where Node refuses import()
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING) but require works.
 */
'use strict';
const sharp = require('sharp');

// libvips' operation cache keeps recent results for reuse: every request brings new bytes, so it would only
// hold memory.
sharp.cache(false);

/**
 * Jimp with the BMP codec alone: the one format libvips cannot read. Loaded by the first BMP, as each thread
 * of the image pool loads this module: a thread that never sees a BMP does not hold jimp.
 */
let BmpJimp = null;

async function decodeBmp(buffer) {
  if (BmpJimp === null) {
    const { createJimp } = require('@jimp/core');
    const { defaultFormats } = require('jimp');
    BmpJimp = createJimp({ formats: defaultFormats.filter((format) => format().mime === 'image/bmp'), plugins: [] });
  }
  const image = await BmpJimp.fromBuffer(buffer);
  return { width: image.bitmap.width, height: image.bitmap.height, bitmap: image.bitmap };
}

/**
 * Decodes with sharp, EXIF orientation applied, to RGBA bytes. With `jpegSide` the picture is decoded with
 * its longer side at that many pixels: libjpeg's DCT scaling by the largest of 1/2, 1/4, 1/8 that sharp
 * allows, then a Lanczos reduction to exactly that size (image-decoding.ts: jpegDecodeSide).
 */
async function decodeWithSharp(buffer, { jpegSide, timeoutSeconds }) {
  const { autoOrient } = await sharp(buffer).metadata();
  let pipeline = sharp(buffer).autoOrient().timeout({ seconds: timeoutSeconds });
  if (jpegSide) pipeline = pipeline.resize({ width: jpegSide, height: jpegSide, fit: 'inside', fastShrinkOnLoad: true });
  const { data, info } = await pipeline.toColourspace('srgb').ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { width: autoOrient.width, height: autoOrient.height, bitmap: { width: info.width, height: info.height, data } };
}

/**
 * Box-filter (area-average) downscale of an RGBA bitmap so its longer side is at most `maxSide`, with
 * alpha composited over white (transparent pixels read as a white background, as a viewer shows them).
 * Never upscales. Returns RGB bytes (3 per pixel). Deterministic: integer-free float sums, fixed order.
 * One pass per function, so V8 optimises each whole (docs/performance.md: "not compiled mid-loop").
 */
function downscaleToRgb(bitmap, maxSide) {
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
    for (; sy < syEnd; sy++) addSourceRow(data, sy * sw * 4, sw, colBin, sums);
    writeAverages(sums, dw, out, dy * dw * 3);
  }
  return { width: dw, height: dh, rgb: out };
}

/** Adds the `width` RGBA pixels from `start` to their destination columns' sums (R, G, B over white, count). */
function addSourceRow(data, start, width, colBin, sums) {
  for (let x = 0, i = start; x < width; x++, i += 4) {
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

/** Writes the `width` averaged RGB pixels of one destination row, from `start` in `out`. */
function writeAverages(sums, width, out, start) {
  for (let dx = 0, o = start; dx < width; dx++, o += 3) {
    const n = sums[dx * 4 + 3] || 1;
    out[o] = Math.round(sums[dx * 4] / n);
    out[o + 1] = Math.round(sums[dx * 4 + 1] / n);
    out[o + 2] = Math.round(sums[dx * 4 + 2] / n);
  }
}

/** Encodes an RGBA bitmap as WebP (lossy unless `lossless: 1`). Used by the fixture script and tests. */
async function encodeWebp(bitmap, { quality = 80, lossless = 0 } = {}) {
  return sharp(bitmap.data, { raw: { width: bitmap.width, height: bitmap.height, channels: 4 } })
    .webp({ quality, lossless: lossless === 1 })
    .toBuffer();
}

/** Decode (at the scale `jpegSide` asks for) and area-average to the working image: every image's one decode. */
async function decodeToWorking(bytes, { format, jpegSide, maxSide, timeoutSeconds }) {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoded = format === 'bmp' ? await decodeBmp(buffer) : await decodeWithSharp(buffer, { jpegSide, timeoutSeconds });
  return { width: decoded.width, height: decoded.height, working: downscaleToRgb(decoded.bitmap, maxSide) };
}

module.exports = { downscaleToRgb, encodeWebp, decodeToWorking };
