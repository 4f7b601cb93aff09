/**
 * Face presence, position, landmarks and age/gender from the pixels of the working image.
 *
 * - Presence: a near-uniform picture (low contrast, or no edges: a flat colour, faint noise, a smooth
 *   ramp) has no face; any picture with detail has one (the simulation's rule, see IMAGE_OUTCOME_RULES).
 * - Position: the largest central skin-toned blob (YCbCr skin rule), its upper part taken as the face;
 *   when no skin-toned blob qualifies, the centre of edge energy. On a document, the search runs inside
 *   the portrait photo.
 * - Landmarks: the darkest spot of each eye window inside the box; nose and mouth corners placed from
 *   the eyes with average face proportions. Viewer's perspective: eyeLeft is the eye on the left of the
 *   picture.
 * - Age and gender: projections of the face region's DCT signature on two fixed axes, so they change
 *   smoothly with the picture: the same photo re-encoded or resized gets the same estimate (±1 year).
 *
 * LIMITATIONS:
 * - No real face detector: any detailed picture has a "face", a cartoon face counts, only one face is
 *   ever reported, and age/gender are not learned from people (they are a stable function of the photo).
 */
import type { RgbImage } from './codecs.cjs';
import { labelComponents, type Component } from './document-layout.ts';
import type { ImageSignature } from './perceptual-hash.ts';
import { clamp, type NormRect } from './pixel-ops.ts';
import { rngFrom } from '../platform/random/random.ts';
import { round } from '../platform/numbers.ts';

export const LANDMARK_TYPES = ['eyeLeft', 'eyeRight', 'nose', 'mouthLeft', 'mouthRight'] as const;
export type LandmarkType = (typeof LANDMARK_TYPES)[number];

export interface Landmark {
  type: LandmarkType;
  x: number;
  y: number;
}

export type FaceLocator = 'skin' | 'detail';

export interface FaceFinding {
  boundingBox: NormRect;
  landmarks: Landmark[];
  /** 0-1. */
  confidence: number;
  locator: FaceLocator;
}

/** Quality measures of the whole picture, from a 64×64 luminance thumbnail. */
export interface PictureQuality {
  /** Standard deviation of luminance, 0-255. */
  contrast: number;
  /** Mean absolute Laplacian of luminance: edge energy, ~0 for flat colour and smooth ramps. */
  detail: number;
}

/** Below either threshold a picture counts as near-uniform: no face, no readable document. */
export const UNIFORMITY_THRESHOLDS = { minContrast: 6, minDetail: 1 } as const;

/** A picture narrower or lower than this (in pixels) is too small to hold a face or a document. */
export const MIN_PICTURE_SIDE = 16;

export function isNearUniform(quality: PictureQuality): boolean {
  return quality.contrast < UNIFORMITY_THRESHOLDS.minContrast || quality.detail < UNIFORMITY_THRESHOLDS.minDetail;
}

interface PixelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

function regionToPixels(region: NormRect, w: number, h: number): PixelBox {
  const x = clamp(Math.round(region.left * w), 0, w - 1);
  const y = clamp(Math.round(region.top * h), 0, h - 1);
  return {
    x,
    y,
    w: clamp(Math.round(region.width * w), 1, w - x),
    h: clamp(Math.round(region.height * h), 1, h - y),
  };
}

// Y, Cb, Cr (ITU-R BT.601, full range), one number each: no tuple per pixel on the analysis's hottest loops.
const lumaOf = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;
const cbOf = (r: number, g: number, b: number) => 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
const crOf = (r: number, g: number, b: number) => 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;

/**
 * The middle value (the upper one of an even count) of the first `count` values, which it reorders: a
 * selection (Hoare's), not a sort, as this was the largest cost of a face analysis. The k-th smallest value
 * is one number whatever the algorithm, so the result is the sorted array's middle value. A partition that
 * keeps failing to shrink the range (hostile pixel values) falls back to sorting what is left.
 */
export function medianInPlace(values: Float64Array, count: number): number {
  if (count === 0) return 0;
  const k = count >> 1;
  let lo = 0;
  let hi = count - 1;
  for (let rounds = 0; lo < hi; rounds++) {
    if (rounds > 64) {
      values.subarray(lo, hi + 1).sort();
      break;
    }
    const pivot = values[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k] as number;
}

/**
 * The face box from skin-toned pixels of the region, or null when no blob looks like a face. Two passes:
 * the broad rule also accepts brown and blond hair, wood and sand, so the skin colour of this picture
 * is taken from the centre of the region (where a portrait has its face) and only pixels close to it
 * in chroma count.
 * One pass per function, so V8 optimises each whole (docs/performance.md: "not compiled mid-loop").
 */
function locateBySkin(image: RgbImage, area: PixelBox): { box: PixelBox; skinShare: number } | null {
  const broad = new Uint8Array(area.w * area.h);
  const centre = centreSkin(image, area, broad);
  if (centre.count < 12) return null;
  const mask = skinNear(image, area, broad, [
    medianInPlace(centre.ys, centre.count),
    medianInPlace(centre.cbs, centre.count),
    medianInPlace(centre.crs, centre.count),
  ]);
  const { components, labels } = labelComponents(mask, area.w, area.h);
  const bestIndex = faceLikeComponent(components, area);
  const best = components[bestIndex];
  if (!best) return null;
  // The face is the top of the blob (the neck and chest continue below): width from the upper half.
  const blobH = best.y1 - best.y0 + 1;
  const { left, right } = labelColumns(labels, area.w, bestIndex + 1, best.x0, best.x1, best.y0, best.y0 + Math.floor(blobH / 2));
  const faceW = Math.max(1, right - left + 1);
  const faceH = clamp(Math.min(blobH, Math.round(1.3 * faceW)), 1, area.h - best.y0);
  const skinInBox = maskCount(mask, area.w, left, best.y0, faceW, faceH);
  return { box: { x: area.x + left, y: area.y + best.y0, w: faceW, h: faceH }, skinShare: skinInBox / (faceW * faceH) };
}

/**
 * The broad skin rule over the region: marks `broad`, and gives the Y, Cb and Cr of the skin pixels in the
 * centre window where a portrait has its face.
 */
function centreSkin(image: RgbImage, area: PixelBox, broad: Uint8Array): { ys: Float64Array; cbs: Float64Array; crs: Float64Array; count: number } {
  const { rgb, width } = image;
  // The centre window: the same bounds as `x > area.w * 0.3 && x < area.w * 0.7`.
  const centreX0 = area.w * 0.3;
  const centreX1 = area.w * 0.7;
  const centreY0 = area.h * 0.2;
  const centreY1 = area.h * 0.6;
  const centreMax = Math.ceil(centreX1 - centreX0) * Math.ceil(centreY1 - centreY0) + 4;
  const ys = new Float64Array(centreMax);
  const cbs = new Float64Array(centreMax);
  const crs = new Float64Array(centreMax);
  let count = 0;
  for (let y = 0; y < area.h; y++) {
    const inCentreRows = y > centreY0 && y < centreY1;
    for (let x = 0, i = ((area.y + y) * width + area.x) * 3; x < area.w; x++, i += 3) {
      const r = rgb[i] as number;
      const g = rgb[i + 1] as number;
      const b = rgb[i + 2] as number;
      // The YCbCr skin rule (a classic broad one, covering light to dark skin tones).
      if (!(r > b)) continue;
      const luma = lumaOf(r, g, b);
      const cb = cbOf(r, g, b);
      const cr = crOf(r, g, b);
      if (!(luma > 35 && luma < 250 && cb >= 80 && cb <= 135 && cr >= 135 && cr <= 180)) continue;
      broad[y * area.w + x] = 1;
      if (inCentreRows && x > centreX0 && x < centreX1) {
        ys[count] = luma;
        cbs[count] = cb;
        crs[count] = cr;
        count++;
      }
    }
  }
  return { ys, cbs, crs, count };
}

/** The broad-rule pixels close to this picture's skin colour `reference` (Y, Cb, Cr), as a mask of the region. */
function skinNear(image: RgbImage, area: PixelBox, broad: Uint8Array, reference: readonly [number, number, number]): Uint8Array {
  const { rgb, width } = image;
  const [refY, refCb, refCr] = reference;
  const mask = new Uint8Array(area.w * area.h);
  for (let y = 0, p = 0; y < area.h; y++) {
    for (let x = 0, i = ((area.y + y) * width + area.x) * 3; x < area.w; x++, p++, i += 3) {
      if (!broad[p]) continue;
      const r = rgb[i] as number;
      const g = rgb[i + 1] as number;
      const b = rgb[i + 2] as number;
      if (Math.abs(lumaOf(r, g, b) - refY) <= 70 && Math.abs(cbOf(r, g, b) - refCb) + Math.abs(crOf(r, g, b) - refCr) <= 12) mask[p] = 1;
    }
  }
  return mask;
}

/** The index of the blob that looks most like a face (large, central, not along the region's edges), or -1. */
function faceLikeComponent(components: readonly Component[], area: PixelBox): number {
  const total = area.w * area.h;
  let bestIndex = -1;
  let bestScore = 0;
  for (let index = 0; index < components.length; index++) {
    const c = components[index] as Component;
    const share = c.area / total;
    const bordersTouched = Number(c.x0 === 0) + Number(c.y0 === 0) + Number(c.x1 === area.w - 1) + Number(c.y1 === area.h - 1);
    if (share < 0.01 || share > 0.6 || bordersTouched >= 3 || c.x1 - c.x0 < 3 || c.y1 - c.y0 < 3) continue;
    const cx = c.sumX / c.area / area.w - 0.5;
    const cy = c.sumY / c.area / area.h - 0.5;
    const centrality = 1 - clamp(Math.hypot(cx, cy) / 0.7, 0, 1);
    const score = share * (0.4 + 0.6 * centrality);
    if (score > bestScore) {
      bestScore = score;
      bestIndex = index;
    }
  }
  return bestIndex;
}

/** The leftmost and rightmost columns of label `id` in rows y0..y1 and columns x0..x1 (inclusive). */
function labelColumns(labels: Int32Array, width: number, id: number, x0: number, x1: number, y0: number, y1: number): { left: number; right: number } {
  let left = x1;
  let right = x0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (labels[y * width + x] !== id) continue;
      if (x < left) left = x;
      if (x > right) right = x;
    }
  }
  return { left, right };
}

/** How many pixels of the w×h box at (x0, y0) a mask of rows `width` wide holds. */
function maskCount(mask: Uint8Array, width: number, x0: number, y0: number, w: number, h: number): number {
  let count = 0;
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) if (mask[y * width + x]) count++;
  }
  return count;
}

/** The face box around the centre of edge energy of the region (used when there is no skin blob). */
function locateByDetail(luma: Float32Array, width: number, area: PixelBox): PixelBox {
  let total = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  for (let y = 1; y < area.h - 1; y++) {
    for (let x = 1; x < area.w - 1; x++) {
      const i = (area.y + y) * width + area.x + x;
      const e = Math.abs(4 * (luma[i] ?? 0) - (luma[i - 1] ?? 0) - (luma[i + 1] ?? 0) - (luma[i - width] ?? 0) - (luma[i + width] ?? 0));
      total += e;
      sx += e * x;
      sy += e * y;
      sxx += e * x * x;
    }
  }
  const cx = total > 0 ? sx / total : area.w / 2;
  const cy = total > 0 ? sy / total : area.h / 2;
  const spreadX = total > 0 ? Math.sqrt(Math.max(0, sxx / total - cx * cx)) : area.w / 4;
  // A face-shaped box (4:5) around the centre of edges, 25-80% of the region wide, never outside it.
  const minW = Math.max(1, Math.round(area.w * 0.25));
  const maxW = Math.max(minW, Math.round(area.w * 0.8));
  const w = clamp(Math.round(2.2 * spreadX), minW, maxW);
  const h = clamp(Math.round(w * 1.25), 1, Math.max(1, Math.round(area.h * 0.95)));
  const x = clamp(Math.round(cx - w / 2), 0, area.w - w);
  const y = clamp(Math.round(cy - h * 0.45), 0, area.h - h);
  return { x: area.x + x, y: area.y + y, w, h };
}

/** Darkest point (3×3 mean) of a window of the luminance plane, in pixels. */
function darkestPoint(luma: Float32Array, width: number, height: number, x0: number, y0: number, x1: number, y1: number): { x: number; y: number } {
  let best = Infinity;
  let bx = (x0 + x1) / 2;
  let by = (y0 + y1) / 2;
  for (let y = Math.max(1, Math.floor(y0)); y <= Math.min(height - 2, Math.ceil(y1)); y++) {
    for (let x = Math.max(1, Math.floor(x0)); x <= Math.min(width - 2, Math.ceil(x1)); x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += luma[(y + dy) * width + x + dx] ?? 0;
      if (sum < best) {
        best = sum;
        bx = x;
        by = y;
      }
    }
  }
  return { x: bx, y: by };
}

function placeLandmarks(luma: Float32Array, image: RgbImage, box: PixelBox): Landmark[] {
  const { width, height } = image;
  const eyeTop = box.y + 0.15 * box.h;
  const eyeBottom = box.y + 0.5 * box.h;
  const left = darkestPoint(luma, width, height, box.x + 0.12 * box.w, eyeTop, box.x + 0.45 * box.w, eyeBottom);
  const right = darkestPoint(luma, width, height, box.x + 0.55 * box.w, eyeTop, box.x + 0.88 * box.w, eyeBottom);
  const eyeY = (left.y + right.y) / 2;
  const midX = (left.x + right.x) / 2;
  const noseY = Math.min(box.y + 0.85 * box.h, eyeY + 0.25 * box.h);
  const mouthY = Math.min(box.y + 0.92 * box.h, eyeY + 0.45 * box.h);
  const half = 0.18 * box.w;
  const norm = (type: LandmarkType, x: number, y: number): Landmark => ({
    type,
    x: round(clamp((x + 0.5) / width, 0, 1), 4),
    y: round(clamp((y + 0.5) / height, 0, 1), 4),
  });
  return [
    norm('eyeLeft', left.x, left.y),
    norm('eyeRight', right.x, right.y),
    norm('nose', midX, noseY),
    norm('mouthLeft', midX - half, mouthY),
    norm('mouthRight', midX + half, mouthY),
  ];
}

/**
 * Finds the face inside `region` (the whole frame, or a document's portrait). The caller has already
 * decided the picture is not near-uniform, so there always is a face; confidence tells how face-like.
 */
export function findFace(image: RgbImage, luma: Float32Array, region: NormRect, quality: PictureQuality): FaceFinding {
  const area = regionToPixels(region, image.width, image.height);
  const bySkin = locateBySkin(image, area);
  const box = bySkin?.box ?? locateByDetail(luma, image.width, area);
  const q = 0.4 * clamp(quality.contrast / 45, 0, 1) + 0.3 * clamp(quality.detail / 6, 0, 1) + 0.3 * (bySkin?.skinShare ?? 0);
  const confidence = bySkin ? 0.82 + 0.17 * q : 0.55 + 0.25 * q;
  return {
    boundingBox: {
      top: round(box.y / image.height, 4),
      left: round(box.x / image.width, 4),
      width: round(box.w / image.width, 4),
      height: round(box.h / image.height, 4),
    },
    landmarks: placeLandmarks(luma, image, box),
    confidence: round(clamp(confidence, 0, 0.999), 4),
    locator: bySkin ? 'skin' : 'detail',
  };
}

// ---------------------------------------------------------------------------------------------------
// Age and gender
// ---------------------------------------------------------------------------------------------------

function unitAxis(name: string, length: number, orthogonalTo?: Float64Array): Float64Array {
  const rng = rngFrom('face-attribute-axis', name);
  const axis = new Float64Array(length);
  for (let i = 0; i < length; i++) axis[i] = rng.float(-1, 1);
  if (orthogonalTo) {
    let dot = 0;
    for (let i = 0; i < length; i++) dot += (axis[i] ?? 0) * (orthogonalTo[i] ?? 0);
    for (let i = 0; i < length; i++) axis[i] = (axis[i] ?? 0) - dot * (orthogonalTo[i] ?? 0);
  }
  let norm = 0;
  for (let i = 0; i < length; i++) norm += (axis[i] ?? 0) ** 2;
  norm = Math.sqrt(norm);
  for (let i = 0; i < length; i++) axis[i] = (axis[i] ?? 0) / norm;
  return axis;
}

const AGE_AXIS = unitAxis('age', 63);
const GENDER_AXIS = unitAxis('gender', 63, AGE_AXIS);

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 erf approximation, |error| < 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface AgeGenderEstimate {
  /** Integer, the midpoint of the range. */
  age: number;
  low: number;
  high: number;
  gender: 'male' | 'female';
  /** 0.5-0.99: how far the picture sits from the gender boundary. */
  genderConfidence: number;
}

/** Ages span 18-75, skewed young like a population of selfie-takers: median ~37, 90th percentile ~66. */
export const AGE_MODEL = { minAge: 18, maxAge: 75, skew: 1.6 } as const;

/** Age and gender from the face signature: fixed projections, smooth in the picture's content. */
export function estimateAgeGender(signature: ImageSignature): AgeGenderEstimate {
  const scale = Math.sqrt(signature.dct.length);
  let zAge = 0;
  let zGender = 0;
  for (let i = 0; i < signature.dct.length; i++) {
    zAge += (signature.dct[i] ?? 0) * (AGE_AXIS[i] ?? 0);
    zGender += (signature.dct[i] ?? 0) * (GENDER_AXIS[i] ?? 0);
  }
  zAge *= scale;
  zGender *= scale;
  const age = Math.round(AGE_MODEL.minAge + (AGE_MODEL.maxAge - AGE_MODEL.minAge) * normalCdf(zAge) ** AGE_MODEL.skew);
  // Broad range, wider for older faces: 18 → 16-20, 37 → 32-42, 75 → 65-85.
  const halfWidth = 2 + Math.round((age - AGE_MODEL.minAge) / 7);
  return {
    age,
    low: age - halfWidth,
    high: age + halfWidth,
    gender: zGender >= 0 ? 'female' : 'male',
    genderConfidence: round(0.5 + 0.49 * (1 - Math.exp(-1.5 * Math.abs(zGender))), 4),
  };
}
