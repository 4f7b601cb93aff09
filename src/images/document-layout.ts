/**
 * Finds the portrait photo on a picture of an identity document, so faces are looked for, compared and
 * aged on the portrait and not on the whole card: the passport of a person then matches a selfie that
 * is the same photo.
 *
 * How: a document is a landscape picture dominated by one card colour. Pixels far from that colour are
 * "ink"; a morphological opening (5×5 erosion then dilation) removes thin ink (text, MRZ, lines); of the
 * blobs left, the portrait is the largest one that does not touch the picture's edges, fills most of its
 * bounding box and has photo proportions (taller than wide, up to 2:1).
 *
 * LIMITATIONS:
 * - Tuned for flat-coloured cards photographed straight on (like the generated fixtures); a real card
 *   with a busy background or shot at an angle is treated as a plain photo (whole frame).
 */
import type { RgbImage } from './codecs.cjs';
import type { NormRect } from './pixel-ops.ts';

export interface DocumentLayout {
  /** The portrait photo, normalised to the picture. */
  portrait: NormRect;
  /** Share of the picture within tolerance of the card colour (0-1). */
  cardShare: number;
  /** Width / height of the picture. */
  aspect: number;
}

const MIN_ASPECT = 1.2;
const MIN_CARD_SHARE = 0.3;
const CARD_TOLERANCE = 60; // L1 distance in RGB
const OPEN_RADIUS = 2;

/** Dominant colour: the fullest bin of a 3-bit-per-channel histogram, refined to its mean. */
function dominantColour(image: RgbImage): [number, number, number] {
  const counts = new Uint32Array(512);
  const rgb = image.rgb;
  const n = image.width * image.height;
  // Each pixel's bin, kept for the second pass rather than worked out again.
  const bins = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const bin = (((rgb[i * 3] ?? 0) >> 5) << 6) | (((rgb[i * 3 + 1] ?? 0) >> 5) << 3) | ((rgb[i * 3 + 2] ?? 0) >> 5);
    bins[i] = bin;
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  let best = 0;
  for (let b = 1; b < 512; b++) if ((counts[b] ?? 0) > (counts[best] ?? 0)) best = b;
  let r = 0;
  let g = 0;
  let bl = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (bins[i] !== best) continue;
    r += rgb[i * 3] ?? 0;
    g += rgb[i * 3 + 1] ?? 0;
    bl += rgb[i * 3 + 2] ?? 0;
    count++;
  }
  return [r / count, g / count, bl / count];
}

/** Integral image of a 0/1 mask, (w+1)×(h+1). */
function integral(mask: Uint8Array, w: number, h: number): Uint32Array {
  const sums = new Uint32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += mask[y * w + x] ?? 0;
      sums[(y + 1) * (w + 1) + x + 1] = (sums[y * (w + 1) + x + 1] ?? 0) + row;
    }
  }
  return sums;
}

/** The mask's sum over the (2r+1)² window around (x, y), clipped to the w×h mask, from its integral image. */
function windowSum(sums: Uint32Array, w: number, h: number, x: number, y: number, r: number): number {
  const x0 = Math.max(0, x - r);
  const y0 = Math.max(0, y - r);
  const x1 = Math.min(w, x + r + 1);
  const y1 = Math.min(h, y + r + 1);
  const W = w + 1;
  return (sums[y1 * W + x1] ?? 0) - (sums[y0 * W + x1] ?? 0) - (sums[y1 * W + x0] ?? 0) + (sums[y0 * W + x0] ?? 0);
}

/** How many pixels that window holds once clipped. */
function windowArea(w: number, h: number, x: number, y: number, r: number): number {
  return (Math.min(w, x + r + 1) - Math.max(0, x - r)) * (Math.min(h, y + r + 1) - Math.max(0, y - r));
}

/** Morphological opening with a (2r+1)² square: drops strokes thinner than the square. */
function open(mask: Uint8Array, w: number, h: number, r: number): Uint8Array {
  return dilate(erode(mask, w, h, r), w, h, r);
}

// One pass per function, so V8 optimises each whole (docs/performance.md: "not compiled mid-loop").

/** 1 where the whole (2r+1)² window around a pixel (clipped to the mask) is 1. */
function erode(mask: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const sums = integral(mask, w, h);
  const eroded = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      eroded[y * w + x] = windowSum(sums, w, h, x, y, r) === windowArea(w, h, x, y, r) ? 1 : 0;
    }
  }
  return eroded;
}

/** 1 where any pixel of the (2r+1)² window around a pixel is 1. */
function dilate(mask: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const sums = integral(mask, w, h);
  const dilated = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) dilated[y * w + x] = windowSum(sums, w, h, x, y, r) > 0 ? 1 : 0;
  }
  return dilated;
}

export interface Component {
  area: number;
  x0: number;
  y0: number;
  x1: number; // inclusive
  y1: number; // inclusive
  sumX: number;
  sumY: number;
}

/**
 * 4-connected components of a 0/1 mask (iterative flood fill, no recursion). `labels` holds, per
 * pixel, 0 or the 1-based index of its component.
 */
export function labelComponents(mask: Uint8Array, w: number, h: number): { components: Component[]; labels: Int32Array } {
  const label = new Int32Array(w * h);
  const components: Component[] = [];
  const stack = new Int32Array(w * h);
  const end = w * h;
  for (let start = unlabelled(mask, label, 0, end); start < end; start = unlabelled(mask, label, start + 1, end)) {
    components.push(floodFill(mask, w, h, label, stack, start, components.length + 1));
  }
  return { components, labels: label };
}

/** The first mask pixel in `from`..`end` that no component holds yet (`end` when none). */
function unlabelled(mask: Uint8Array, label: Int32Array, from: number, end: number): number {
  let p = from;
  while (p < end && (!mask[p] || label[p])) p++;
  return p;
}

/**
 * Labels `id` the component of `start` and measures it. Apart from the scan for seeds (`unlabelled`), so V8
 * optimises each whole (docs/performance.md: "not compiled mid-loop").
 */
function floodFill(mask: Uint8Array, w: number, h: number, label: Int32Array, stack: Int32Array, start: number, id: number): Component {
  const component: Component = { area: 0, x0: w, y0: h, x1: -1, y1: -1, sumX: 0, sumY: 0 };
  let top = 0;
  stack[top++] = start;
  label[start] = id;
  while (top > 0) {
    const p = stack[--top] ?? 0;
    const x = p % w;
    const y = (p - x) / w;
    component.area++;
    component.sumX += x;
    component.sumY += y;
    if (x < component.x0) component.x0 = x;
    if (x > component.x1) component.x1 = x;
    if (y < component.y0) component.y0 = y;
    if (y > component.y1) component.y1 = y;
    if (x > 0 && mask[p - 1] && !label[p - 1]) {
      label[p - 1] = id;
      stack[top++] = p - 1;
    }
    if (x < w - 1 && mask[p + 1] && !label[p + 1]) {
      label[p + 1] = id;
      stack[top++] = p + 1;
    }
    if (y > 0 && mask[p - w] && !label[p - w]) {
      label[p - w] = id;
      stack[top++] = p - w;
    }
    if (y < h - 1 && mask[p + w] && !label[p + w]) {
      label[p + w] = id;
      stack[top++] = p + w;
    }
  }
  return component;
}

export function connectedComponents(mask: Uint8Array, w: number, h: number): Component[] {
  return labelComponents(mask, w, h).components;
}

/** The document layout of the picture, or null when it does not look like a card with a portrait. */
export function findDocumentLayout(image: RgbImage): DocumentLayout | null {
  const { width: w, height: h, rgb } = image;
  const aspect = w / h;
  if (aspect < MIN_ASPECT || w < 40 || h < 25) return null;
  const [cr, cg, cb] = dominantColour(image);
  const ink = new Uint8Array(w * h);
  let card = 0;
  for (let i = 0; i < w * h; i++) {
    const d = Math.abs((rgb[i * 3] ?? 0) - cr) + Math.abs((rgb[i * 3 + 1] ?? 0) - cg) + Math.abs((rgb[i * 3 + 2] ?? 0) - cb);
    if (d > CARD_TOLERANCE) ink[i] = 1;
    else card++;
  }
  const cardShare = card / (w * h);
  if (cardShare < MIN_CARD_SHARE) return null;
  const blobs = connectedComponents(open(ink, w, h, OPEN_RADIUS), w, h);
  let best: Component | null = null;
  for (const blob of blobs) {
    const bw = blob.x1 - blob.x0 + 1;
    const bh = blob.y1 - blob.y0 + 1;
    const touchesEdge = blob.x0 <= 0 || blob.y0 <= 0 || blob.x1 >= w - 1 || blob.y1 >= h - 1;
    const share = blob.area / (w * h);
    const fill = blob.area / (bw * bh);
    const ratio = bh / bw;
    if (touchesEdge || share < 0.03 || share > 0.4 || fill < 0.6 || ratio < 0.9 || ratio > 2) continue;
    if (!best || blob.area > best.area) best = blob;
  }
  if (!best) return null;
  return {
    portrait: { left: best.x0 / w, top: best.y0 / h, width: (best.x1 - best.x0 + 1) / w, height: (best.y1 - best.y0 + 1) / h },
    cardShare,
    aspect,
  };
}
