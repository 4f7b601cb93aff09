/**
 * Small, exact pixel operations on the working image (RGB, a few hundred pixels a side): luminance,
 * area-weighted resampling of any sub-rectangle, and plain statistics. Pure and deterministic.
 */
import type { RgbImage } from './codecs.cjs';

/** A rectangle in normalised coordinates (0-1 of the image width/height). */
export interface NormRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const FULL_FRAME: NormRect = { left: 0, top: 0, width: 1, height: 1 };

/** Rec. 601 luma of every pixel, 0-255. */
export function luminance(image: RgbImage): Float32Array {
  const out = new Float32Array(image.width * image.height);
  const rgb = image.rgb;
  for (let i = 0, j = 0; i < out.length; i++, j += 3) {
    out[i] = 0.299 * (rgb[j] ?? 0) + 0.587 * (rgb[j + 1] ?? 0) + 0.114 * (rgb[j + 2] ?? 0);
  }
  return out;
}

/**
 * Area-weighted resampling of the sub-rectangle `rect` of a `channels`-channel plane to dw×dh: each
 * output value is the exact average of the source area it covers (fractional pixels weighted), so
 * the result barely depends on the source resolution — the property the similarity relies on.
 */
export function resampleRegion(src: ArrayLike<number>, sw: number, sh: number, channels: 1 | 3, rect: NormRect, dw: number, dh: number): Float64Array {
  const out = new Float64Array(dw * dh * channels);
  const rx0 = Math.max(0, rect.left * sw);
  const ry0 = Math.max(0, rect.top * sh);
  const rx1 = Math.min(sw, (rect.left + rect.width) * sw);
  const ry1 = Math.min(sh, (rect.top + rect.height) * sh);
  const spanX = Math.max(1e-6, rx1 - rx0);
  const spanY = Math.max(1e-6, ry1 - ry0);
  for (let dy = 0; dy < dh; dy++) {
    resampleRow(src, sw, sh, channels, ry0 + (dy * spanY) / dh, ry0 + ((dy + 1) * spanY) / dh, rx0, spanX, dw, out, dy * dw * channels);
  }
  return out;
}

/**
 * One output row of `resampleRegion`: the source rows y0..y1 (fractional) averaged into dw cells across
 * rx0..rx0 + spanX, written from `start` in `out`. Called once per row, so V8 optimises it whole
 * (docs/performance.md: "not compiled mid-loop").
 */
function resampleRow(
  src: ArrayLike<number>,
  sw: number,
  sh: number,
  channels: 1 | 3,
  y0: number,
  y1: number,
  rx0: number,
  spanX: number,
  dw: number,
  out: Float64Array,
  start: number,
): void {
  const yEnd = Math.min(sh, Math.ceil(y1));
  for (let dx = 0; dx < dw; dx++) {
    const x0 = rx0 + (dx * spanX) / dw;
    const x1 = rx0 + ((dx + 1) * spanX) / dw;
    // One running sum per channel in locals (not an array): the same additions in the same order.
    let acc0 = 0;
    let acc1 = 0;
    let acc2 = 0;
    let area = 0;
    const xEnd = Math.min(sw, Math.ceil(x1));
    for (let y = Math.floor(y0); y < yEnd; y++) {
      const wy = Math.min(y + 1, y1) - Math.max(y, y0);
      if (wy <= 0) continue;
      for (let x = Math.floor(x0); x < xEnd; x++) {
        const wx = Math.min(x + 1, x1) - Math.max(x, x0);
        if (wx <= 0) continue;
        const w = wx * wy;
        area += w;
        const base = (y * sw + x) * channels;
        acc0 += w * (src[base] ?? 0);
        if (channels === 3) {
          acc1 += w * (src[base + 1] ?? 0);
          acc2 += w * (src[base + 2] ?? 0);
        }
      }
    }
    const o = start + dx * channels;
    out[o] = area > 0 ? acc0 / area : 0;
    if (channels === 3) {
      out[o + 1] = area > 0 ? acc1 / area : 0;
      out[o + 2] = area > 0 ? acc2 / area : 0;
    }
  }
}

export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] ?? 0;
  return values.length > 0 ? sum / values.length : 0;
}

export function standardDeviation(values: ArrayLike<number>): number {
  const m = mean(values);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += ((values[i] ?? 0) - m) ** 2;
  return values.length > 0 ? Math.sqrt(sum / values.length) : 0;
}

/** Mean absolute 4-neighbour Laplacian of a w×h plane: ~0 for flat areas and linear ramps, high for edges. */
export function meanAbsLaplacian(plane: ArrayLike<number>, w: number, h: number): number {
  if (w < 3 || h < 3) return 0;
  let sum = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const lap = 4 * (plane[i] ?? 0) - (plane[i - 1] ?? 0) - (plane[i + 1] ?? 0) - (plane[i - w] ?? 0) - (plane[i + w] ?? 0);
      sum += Math.abs(lap);
    }
  }
  return sum / ((w - 2) * (h - 2));
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
