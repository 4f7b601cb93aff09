/**
 * The documented outcomes of the image operations, as data: the rules the analysis applies
 * (IMAGE_OUTCOME_RULES) and the fixture files that demonstrate them (IMAGE_FIXTURES). The fixture
 * script, the tests, docs/reference.md and GET /__sandbox/catalog all read these tables.
 */
import { FACE_MATCH_THRESHOLD } from './face-match.ts';
import { IMAGE_LIMITS } from './image-checks.ts';
import { UNIFORMITY_THRESHOLDS } from './face-analysis.ts';
import type { ImageFormat } from './image-format.ts';

export interface OutcomeRule {
  input: string;
  outcome: string;
  description: string;
}

export const IMAGE_OUTCOME_RULES: readonly OutcomeRule[] = [
  {
    input: `near-uniform picture (luminance std < ${UNIFORMITY_THRESHOLDS.minContrast} or mean absolute Laplacian < ${UNIFORMITY_THRESHOLDS.minDetail} on a 64x64 thumbnail)`,
    outcome:
      'no face: detect {faceDetected:false, confidence:0}; estimate-age {faceDetected:false}; compare confidence 0; document scan unreadable (empty strings, rawFields {}, confidence 0)',
    description: 'a flat colour, a frame with faint noise, a smooth gradient',
  },
  {
    input: 'picture under 16 px on either side',
    outcome: 'no face, unreadable document (as for a near-uniform picture)',
    description: 'too small to hold a face',
  },
  {
    input: 'any other picture',
    outcome: 'face detected, with boundingBox, 5 landmarks and a confidence from contrast, detail and skin tone (0.55-0.99)',
    description: 'the simulation has no real face detector: detail is enough',
  },
  {
    input: 'landscape picture dominated by one card colour with a photo-shaped blob',
    outcome: 'treated as a document: the face is searched, compared and aged on the portrait photo',
    description: 'so a passport matches a selfie that is the same photo',
  },
  {
    input: 'the same photo re-encoded (any of the 6 formats, JPEG quality 15-95), resized, or cropped by up to ~3% per side',
    outcome: `face compare similarity >= 90 (re-encoded/resized: >= 99) -> isMatch (threshold ${FACE_MATCH_THRESHOLD})`,
    description: 'similarity = 100 x structure (DCT of the face region) x colour (6x6 colour grid)',
  },
  {
    input: 'unrelated photos',
    outcome: `face compare similarity well below ${FACE_MATCH_THRESHOLD} (generated portraits: 0-20) -> no match`,
    description: 'confidence is the raw similarity, at least 0.01 when both pictures have a face',
  },
  {
    input: 'same picture bytes',
    outcome: 'same face box, same age and gender, same document identity',
    description: 'everything is derived from the pixels; identity is seeded by the SHA-256 of the working pixels',
  },
  {
    input: `over ${IMAGE_LIMITS.maxBytes} bytes (15 MiB), over ${IMAGE_LIMITS.maxPixels / 1e6} megapixels in the header, or decoding longer than ${IMAGE_LIMITS.decodeTimeoutMs} ms`,
    outcome: '400 with error and hints (too_large, too_many_pixels, decode_timeout)',
    description: 'checked before decoding where possible (size, header dimensions)',
  },
];

export type FixturePerson = 'A' | 'B' | null;

export interface ImageFixture {
  /** File name under fixtures/images/. */
  file: string;
  /** Format of the bytes (the extension agrees). */
  format: ImageFormat;
  /** Whose face it shows (null: none). Two fixtures match in face compare iff they show the same person. */
  person: FixturePerson;
  faceDetected: boolean;
  /** What document scan with documentType auto reports, when the file is a document. */
  autoDocumentType?: 'passport' | 'drivers_license';
  description: string;
}

/** Seeds of the generated fixtures (scripts/make-fixture-images.ts). */
export const FIXTURE_SEEDS = { personA: 'fixture-person-a-2', personB: 'fixture-person-b-6' } as const;

export const FIXTURE_FACE_SIZE = { width: 104, height: 130 } as const;

export const IMAGE_FIXTURES: readonly ImageFixture[] = [
  { file: 'face.jpg', format: 'jpeg', person: 'A', faceDetected: true, description: 'portrait of person A (JPEG quality 85)' },
  { file: 'face.png', format: 'png', person: 'A', faceDetected: true, description: 'face.jpg re-encoded as PNG' },
  { file: 'face.gif', format: 'gif', person: 'A', faceDetected: true, description: 'face.jpg re-encoded as GIF (256 colours)' },
  { file: 'face.bmp', format: 'bmp', person: 'A', faceDetected: true, description: 'face.jpg re-encoded as BMP' },
  { file: 'face.tiff', format: 'tiff', person: 'A', faceDetected: true, description: 'face.jpg re-encoded as TIFF' },
  { file: 'face.webp', format: 'webp', person: 'A', faceDetected: true, description: 'face.jpg re-encoded as WebP (lossy, quality 80)' },
  {
    file: 'face-cropped.jpg',
    format: 'jpeg',
    person: 'A',
    faceDetected: true,
    description: 'face.jpg cropped by 3% on the left and top, enlarged to 180 px wide, JPEG quality 60',
  },
  { file: 'different-face.jpg', format: 'jpeg', person: 'B', faceDetected: true, description: 'portrait of person B: matches no picture of person A' },
  {
    file: 'blank.png',
    format: 'png',
    person: null,
    faceDetected: false,
    description: 'near-uniform light grey frame with faint noise: no face, unreadable document',
  },
  {
    file: 'passport.jpg',
    format: 'jpeg',
    person: 'A',
    faceDetected: true,
    autoDocumentType: 'passport',
    description: 'passport-like data page with the portrait of person A (verify with face.jpg: verified)',
  },
  {
    file: 'drivers-license.jpg',
    format: 'jpeg',
    person: 'B',
    faceDetected: true,
    autoDocumentType: 'drivers_license',
    description: "driver's-licence-like card with the portrait of person B (verify with different-face.jpg: verified)",
  },
  {
    file: 'national-id.jpg',
    format: 'jpeg',
    person: 'A',
    faceDetected: true,
    autoDocumentType: 'drivers_license',
    description: 'ID-card-like card (scan it with documentType national_id for a TD1 MRZ) with the portrait of person A',
  },
];

/** The fixtures as catalog rows ({ input, outcome, description }). */
export function imageFixtureCatalog(): OutcomeRule[] {
  return IMAGE_FIXTURES.map((fixture) => {
    const matches = IMAGE_FIXTURES.filter((other) => other.person !== null && other.person === fixture.person && other.file !== fixture.file).map(
      (other) => other.file,
    );
    return {
      input: `fixtures/images/${fixture.file}`,
      outcome: fixture.faceDetected
        ? `face detected; face compare matches ${matches.join(', ')}; no match with the other person's pictures${fixture.autoDocumentType ? `; scan auto -> ${fixture.autoDocumentType}` : ''}`
        : 'no face (compare confidence 0 with anything); document scan unreadable',
      description: fixture.description,
    };
  });
}
