/**
 * Procedural test pictures, drawn with jimp from a seed (no downloads, no Math.random): a portrait-like
 * "face" (background, shoulders, head, hair, eyes, brows, nose, mouth, lighting and sensor noise), a
 * blank frame, and passport / driver's-licence / ID-card-like documents that carry a given portrait.
 * Used by scripts/make-fixture-images.ts, by the tests (which generate their own pairs) and by the bench.
 *
 * LIMITATIONS:
 * - These are cartoons: they exercise the image pipeline (decode, face presence, similarity, document
 *   scan), they do not look like real people or real documents.
 */
import { Jimp, loadFont } from 'jimp';
import { SANS_10_BLACK, SANS_16_WHITE } from 'jimp/fonts';
import { encodeWebp } from './codecs.cjs';
import type { ImageFormat } from './image-format.ts';
import { rngFrom, type Rng } from '../platform/random/random.ts';

export type JimpImage = InstanceType<typeof Jimp>;
type Rgb = readonly [number, number, number];

const SKIN_TONES: readonly Rgb[] = [
  [241, 194, 167],
  [224, 172, 138],
  [198, 134, 99],
  [170, 112, 80],
  [141, 85, 58],
  [112, 68, 46],
  [232, 184, 150],
];
const HAIR_COLOURS: readonly Rgb[] = [
  [30, 22, 18],
  [60, 40, 28],
  [98, 66, 40],
  [150, 110, 60],
  [200, 160, 90],
  [120, 50, 30],
  [170, 170, 170],
];
const EYE_COLOURS: readonly Rgb[] = [
  [70, 45, 30],
  [60, 100, 140],
  [80, 110, 70],
  [40, 30, 25],
];

function clamp255(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

function randomColour(rng: Rng, min = 20, max = 235): Rgb {
  return [rng.int(min, max), rng.int(min, max), rng.int(min, max)];
}

/** Inside-ness of an axis-aligned ellipse: < 1 inside. */
function ell(u: number, v: number, cx: number, cy: number, rx: number, ry: number): number {
  const a = (u - cx) / rx;
  const b = (v - cy) / ry;
  return a * a + b * b;
}

/** The parameters of one synthetic person; the same seed always gives the same person. */
export interface FaceParams {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  skin: Rgb;
  hair: Rgb;
  eye: Rgb;
  lips: Rgb;
  clothes: Rgb;
  bgTop: Rgb;
  bgBottom: Rgb;
  bgAngle: number;
  hairVolume: number;
  longHair: boolean;
  glasses: boolean;
  beard: boolean;
  lights: { x: number; y: number; r: number; k: number }[];
  noise: number;
}

export function faceParams(seed: string): FaceParams {
  const rng = rngFrom('synthetic-face', seed);
  const skin = rng.pick(SKIN_TONES);
  return {
    cx: rng.float(0.42, 0.58),
    cy: rng.float(0.36, 0.46),
    rx: rng.float(0.2, 0.29),
    ry: rng.float(0.26, 0.35),
    skin: [skin[0] + rng.int(-10, 10), skin[1] + rng.int(-10, 10), skin[2] + rng.int(-10, 10)],
    hair: rng.pick(HAIR_COLOURS),
    eye: rng.pick(EYE_COLOURS),
    lips: [rng.int(150, 200), rng.int(60, 100), rng.int(70, 110)],
    clothes: randomColour(rng),
    bgTop: randomColour(rng, 40, 250),
    bgBottom: randomColour(rng, 10, 230),
    bgAngle: rng.float(0, Math.PI * 2),
    hairVolume: rng.float(0.6, 1.1),
    longHair: rng.chance(0.4),
    glasses: rng.chance(0.3),
    beard: rng.chance(0.25),
    lights: Array.from({ length: 4 }, () => ({ x: rng.float(0, 1), y: rng.float(0, 1), r: rng.float(0.15, 0.5), k: rng.float(-40, 40) })),
    noise: rng.float(3, 9),
  };
}

/** Paints one pixel of the portrait at normalised (u, v) in [0,1]². */
function facePixel(p: FaceParams, u: number, v: number, aspect: number): Rgb {
  // Background: two-colour gradient along an angle, plus soft light blobs.
  const t = Math.min(1, Math.max(0, 0.5 + (Math.cos(p.bgAngle) * (u - 0.5) + Math.sin(p.bgAngle) * (v - 0.5)) * 1.2));
  let r = p.bgTop[0] * (1 - t) + p.bgBottom[0] * t;
  let g = p.bgTop[1] * (1 - t) + p.bgBottom[1] * t;
  let b = p.bgTop[2] * (1 - t) + p.bgBottom[2] * t;
  const { cx, cy, rx, ry } = p;
  const ryA = ry; // radii are relative to the image width/height respectively
  // Long hair behind the head.
  if (p.longHair && ell(u, v, cx, cy + ryA * 0.35, rx * 1.35, ryA * 1.25) < 1 && v > cy - ryA) {
    [r, g, b] = p.hair;
  }
  // Shoulders and torso.
  if (ell(u, v, cx, 1.08, rx * 2.1, 0.3) < 1) {
    [r, g, b] = p.clothes;
  }
  // Neck.
  if (Math.abs(u - cx) < rx * 0.38 && v > cy && v < cy + ryA * 1.45) {
    [r, g, b] = [p.skin[0] * 0.85, p.skin[1] * 0.85, p.skin[2] * 0.85];
  }
  const head = ell(u, v, cx, cy, rx, ryA);
  if (head < 1) {
    const shade = 1 - 0.18 * head;
    [r, g, b] = [p.skin[0] * shade, p.skin[1] * shade, p.skin[2] * shade];
    const hu = (u - cx) / rx; // -1..1 across the head
    const hv = (v - cy) / ryA; // -1..1 down the head
    // Hair cap with a wavy hairline.
    if (hv < -0.45 + 0.08 * Math.sin(hu * 7) * p.hairVolume || (Math.abs(hu) > 0.86 && hv < 0.05)) [r, g, b] = p.hair;
    // Eyes (viewer's left and right), brows.
    for (const side of [-1, 1]) {
      const ex = side * 0.4;
      const ey = -0.12;
      const eye = ell(hu, hv, ex, ey, 0.2, 0.085);
      if (eye < 1) {
        [r, g, b] = [235, 235, 230];
        if (ell(hu, hv, ex, ey, 0.085, 0.085 * aspect * (rx / ryA)) < 1) [r, g, b] = p.eye;
        if (ell(hu, hv, ex, ey, 0.035, 0.035 * aspect * (rx / ryA)) < 1) [r, g, b] = [15, 12, 10];
      }
      if (ell(hu, hv, ex, ey - 0.15, 0.24, 0.035) < 1) [r, g, b] = [p.hair[0] * 0.8, p.hair[1] * 0.8, p.hair[2] * 0.8];
      if (p.glasses && Math.abs(Math.sqrt(ell(hu, hv, ex, ey, 0.3, 0.17)) - 1) < 0.1) [r, g, b] = [25, 25, 30];
    }
    // Nose shadow and mouth.
    if (ell(hu, hv, 0.04, 0.22, 0.09, 0.2) < 1) [r, g, b] = [r * 0.86, g * 0.86, b * 0.86];
    if (ell(hu, hv, 0, 0.3, 0.16, 0.05) < 1) [r, g, b] = [r * 0.7, g * 0.7, b * 0.7];
    if (ell(hu, hv, 0, 0.55, 0.34, 0.075) < 1) [r, g, b] = p.lips;
    if (Math.abs(hv - 0.55) < 0.012 && Math.abs(hu) < 0.33) [r, g, b] = [p.lips[0] * 0.5, p.lips[1] * 0.5, p.lips[2] * 0.5];
    if (p.beard && hv > 0.42 && head > 0.35 && !(ell(hu, hv, 0, 0.55, 0.34, 0.075) < 1)) [r, g, b] = [p.hair[0] * 1.1, p.hair[1] * 1.1, p.hair[2] * 1.1];
  }
  // Lighting.
  let light = 0;
  for (const l of p.lights) {
    const d2 = ((u - l.x) ** 2 + (v - l.y) ** 2) / (l.r * l.r);
    light += l.k * Math.exp(-d2);
  }
  return [r + light, g + light, b + light];
}

/** A portrait-like picture of the person `seed`, `width`×`height` pixels (default 240×300). */
export function drawSyntheticFace(seed: string, width = 240, height = 300): JimpImage {
  const p = faceParams(seed);
  const image = new Jimp({ width, height, color: 0xffffffff });
  const data = image.bitmap.data;
  const noise = rngFrom('synthetic-face-noise', seed, width, height);
  const aspect = height / width;
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++) {
      const u = (x + 0.5) / width;
      const [r, g, b] = facePixel(p, u, v, aspect);
      const n = (noise.next() - 0.5) * 2 * p.noise;
      const i = (y * width + x) * 4;
      data[i] = clamp255(r + n);
      data[i + 1] = clamp255(g + n);
      data[i + 2] = clamp255(b + n);
      data[i + 3] = 255;
    }
  }
  return image;
}

/** A flat frame of one colour, optionally with faint sensor noise (still "near-uniform"). */
export function drawBlankFrame(width: number, height: number, colour: Rgb = [236, 236, 236], noise = 0, seed = 'blank'): JimpImage {
  const image = new Jimp({ width, height, color: 0xffffffff });
  const data = image.bitmap.data;
  const rng = rngFrom('blank-frame', seed);
  for (let i = 0; i < width * height; i++) {
    const n = noise > 0 ? (rng.next() - 0.5) * 2 * noise : 0;
    data[i * 4] = clamp255(colour[0] + n);
    data[i * 4 + 1] = clamp255(colour[1] + n);
    data[i * 4 + 2] = clamp255(colour[2] + n);
    data[i * 4 + 3] = 255;
  }
  return image;
}

export type SyntheticDocumentKind = 'passport' | 'drivers_license' | 'national_id';

/** Card sizes keep the real aspect ratios: ID-1 cards 85.6×54 mm, the TD3 passport data page 125×88 mm. */
const DOCUMENT_LAYOUT: Record<SyntheticDocumentKind, { width: number; height: number; title: string; card: Rgb; band: Rgb; mrzLines: number }> = {
  passport: { width: 500, height: 352, title: 'PASSPORT', card: [226, 222, 236], band: [58, 62, 120], mrzLines: 2 },
  drivers_license: { width: 428, height: 270, title: 'DRIVER LICENSE', card: [214, 232, 240], band: [30, 110, 150], mrzLines: 0 },
  national_id: { width: 428, height: 270, title: 'IDENTITY CARD', card: [232, 226, 210], band: [120, 60, 40], mrzLines: 3 },
};

type LoadedFont = Awaited<ReturnType<typeof loadFont>>;
let fonts: Promise<{ title: LoadedFont; small: LoadedFont }> | null = null;

/** jimp's bundled bitmap fonts (read from node_modules, never fetched), loaded once. */
function documentFonts(): Promise<{ title: LoadedFont; small: LoadedFont }> {
  fonts ??= Promise.all([loadFont(SANS_16_WHITE), loadFont(SANS_10_BLACK)]).then(([title, small]) => ({ title, small }));
  return fonts;
}

/**
 * A document-like card: coloured card with a title band, the portrait in the photo slot (left), lines of
 * label/value text and, for passports and ID cards, an MRZ-like band of `<`-filled lines at the bottom.
 * The text is decoration (SPECIMEN); what a scan returns is derived from the pixels, not read from it.
 */
export async function drawSyntheticDocument(kind: SyntheticDocumentKind, seed: string, portrait: JimpImage): Promise<JimpImage> {
  const layout = DOCUMENT_LAYOUT[kind];
  const rng = rngFrom('synthetic-document', kind, seed);
  const { width, height } = layout;
  const card = new Jimp({ width, height, color: 0xffffffff });
  const data = card.bitmap.data;
  // Card background with a faint guilloche-like pattern so it is not flat.
  const phase = rng.float(0, 6.28);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const wave = 6 * Math.sin(x / 9 + Math.sin(y / 17 + phase) * 2);
      const inBand = y < height * 0.13;
      const base = inBand ? layout.band : layout.card;
      data[i] = clamp255(base[0] + (inBand ? 0 : wave));
      data[i + 1] = clamp255(base[1] + (inBand ? 0 : wave));
      data[i + 2] = clamp255(base[2] + (inBand ? 0 : wave));
      data[i + 3] = 255;
    }
  }
  // Photo slot: portrait scaled to 30% of the card width, 4:5.
  const slotW = Math.round(width * 0.28);
  const slotH = Math.round(slotW * 1.25);
  const slotX = Math.round(width * 0.05);
  const slotY = Math.round(height * 0.19);
  const photo = portrait.clone().resize({ w: slotW, h: slotH });
  card.composite(photo, slotX, slotY);
  const { title: fontTitle, small: fontSmall } = await documentFonts();
  card.print({ font: fontTitle, x: Math.round(width * 0.05), y: Math.round(height * 0.03), text: layout.title });
  card.print({ font: fontSmall, x: Math.round(width * 0.72), y: Math.round(height * 0.05), text: 'SPECIMEN' });
  const textX = slotX + slotW + Math.round(width * 0.05);
  const labels = ['SURNAME', 'GIVEN NAMES', 'NATIONALITY', 'DATE OF BIRTH', 'SEX', 'DATE OF EXPIRY'];
  let y = slotY;
  for (const label of labels) {
    card.print({ font: fontSmall, x: textX, y, text: label });
    // value: a dark bar of random length standing in for printed text
    const barW = rng.int(60, Math.round(width * 0.4));
    const barY = y + 13;
    for (let yy = barY; yy < barY + 6 && yy < height; yy++) {
      for (let xx = textX; xx < textX + barW && xx < width; xx++) {
        if ((xx - textX) % 7 === 6) continue; // letter gaps
        const i = (yy * width + xx) * 4;
        data[i] = 35;
        data[i + 1] = 35;
        data[i + 2] = 45;
      }
    }
    y += Math.round((height * 0.62) / labels.length);
  }
  if (layout.mrzLines > 0) {
    const lineH = 11;
    const top = height - layout.mrzLines * lineH - 8;
    for (let l = 0; l < layout.mrzLines; l++) {
      let text = '';
      for (let c = 0; c < (kind === 'passport' ? 44 : 30); c++) text += rng.chance(0.35) ? '<' : String.fromCharCode(65 + rng.int(0, 25));
      card.print({ font: fontSmall, x: Math.round(width * 0.04), y: top + l * lineH, text });
    }
  }
  return card;
}

export type EncodeOptions = { quality?: number };

/** Anything holding an RGBA bitmap (every jimp image, whatever plugins its type carries). */
export interface HasBitmap {
  bitmap: { data: Buffer; width: number; height: number };
}

/** Encodes with jimp (WebP with the wasm codec). JPEG/WebP quality defaults to 85. */
export async function encodeImage(source: HasBitmap, format: ImageFormat, options: EncodeOptions = {}): Promise<Buffer> {
  const quality = options.quality ?? 85;
  const image = Jimp.fromBitmap({ data: source.bitmap.data, width: source.bitmap.width, height: source.bitmap.height });
  switch (format) {
    case 'jpeg':
      return image.getBuffer('image/jpeg', { quality });
    case 'png':
      return image.getBuffer('image/png');
    case 'gif':
      return image.getBuffer('image/gif');
    case 'bmp':
      return image.getBuffer('image/bmp');
    case 'tiff':
      return image.getBuffer('image/tiff');
    case 'webp':
      return encodeWebp(image.bitmap, { quality });
  }
}

/**
 * A phone-camera-like JPEG: the generated face of `seed` enlarged to width × height with seeded sensor
 * noise (±8 per channel), quality 88 with 4:2:0 chroma, as phones send (12 megapixels: 3024 × 4032).
 */
export async function phonePhotoJpeg(seed: string, width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const face = drawSyntheticFace(seed, Math.round(width / 8), Math.round(height / 8));
  const enlarged = await sharp(face.bitmap.data, { raw: { width: face.bitmap.width, height: face.bitmap.height, channels: 4 } })
    .removeAlpha()
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  // A prime-length table of seeded noise, repeated: its period falls across rows, and a 12-MP picture
  // needs no 36 million draws.
  const rng = rngFrom('phone-photo-noise', seed, width, height);
  const noise = Int8Array.from({ length: 65_521 }, () => rng.int(-8, 8));
  for (let i = 0; i < enlarged.length; i++) enlarged[i] = Math.max(0, Math.min(255, (enlarged[i] ?? 0) + (noise[i % noise.length] ?? 0)));
  return sharp(enlarged, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88, chromaSubsampling: '4:2:0' })
    .toBuffer();
}
