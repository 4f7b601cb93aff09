/**
 * documentType of a scan: the four spec values, a few spellings people actually send (normalised), and
 * what `auto` resolves to from the picture.
 */
import type { AnalysedImage } from '../images/image-analysis.ts';
import { ImageInputError } from '../images/image-input-error.ts';

export const DOCUMENT_TYPES = ['passport', 'drivers_license', 'national_id'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_TYPE_INPUTS = [...DOCUMENT_TYPES, 'auto'] as const;
export type DocumentTypeInput = (typeof DOCUMENT_TYPE_INPUTS)[number];

/**
 * Accepted spellings. Matching ignores case and surrounding space and treats `-`, space and `_` alike,
 * so `Drivers-License` and `DRIVERS_LICENSE` both read as drivers_license.
 */
export const DOCUMENT_TYPE_ALIASES: readonly { input: string; outcome: DocumentTypeInput; description: string }[] = [
  { input: 'passport', outcome: 'passport', description: 'spec value' },
  { input: 'drivers_license', outcome: 'drivers_license', description: 'spec value' },
  { input: 'national_id', outcome: 'national_id', description: 'spec value' },
  { input: 'auto', outcome: 'auto', description: 'spec value (default): resolved from the picture, see AUTO_DOCUMENT_TYPE_RULES' },
  { input: 'driver_license', outcome: 'drivers_license', description: 'alias' },
  { input: 'drivers_licence', outcome: 'drivers_license', description: 'alias (British spelling)' },
  { input: 'driving_licence', outcome: 'drivers_license', description: 'alias (British usage)' },
  { input: 'driving_license', outcome: 'drivers_license', description: 'alias' },
  { input: 'id_card', outcome: 'national_id', description: 'alias' },
  { input: 'identity_card', outcome: 'national_id', description: 'alias' },
  { input: 'national_id_card', outcome: 'national_id', description: 'alias' },
];

/** What `auto` becomes: ID-1 card proportions read as a driver's licence, anything else as a passport. */
export const AUTO_DOCUMENT_TYPE_RULES: readonly { input: string; outcome: DocumentType; description: string }[] = [
  {
    input: 'auto, picture width/height >= 1.5',
    outcome: 'drivers_license',
    description: 'ID-1 card proportions (85.6 x 54 mm = 1.59); national_id is never guessed, ask for it explicitly',
  },
  {
    input: 'auto, any other proportions',
    outcome: 'passport',
    description: 'passport data page (125 x 88 mm = 1.42), portrait photos and everything else',
  },
];

const AUTO_CARD_ASPECT = 1.5;

function canonical(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Normalises the request's documentType (absent → auto). Throws ImageInputError (400) when unknown. */
export function parseDocumentType(value: unknown, field = 'documentType'): DocumentTypeInput {
  if (value === undefined || value === null) return 'auto';
  const accepted = DOCUMENT_TYPE_INPUTS.join(', ');
  if (typeof value !== 'string') {
    throw new ImageInputError('invalid_document_type', field, `${field} must be a string: one of ${accepted}`, [
      `Send ${field} as one of ${accepted}, or leave it out for auto.`,
    ]);
  }
  const key = canonical(value);
  const alias = DOCUMENT_TYPE_ALIASES.find((entry) => entry.input === key);
  if (key === '' || !alias) {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    throw new ImageInputError('invalid_document_type', field, `${field} "${shown}" is not supported; use one of ${accepted}`, [
      `Send ${field} as one of ${accepted}, or leave it out for auto.`,
    ]);
  }
  return alias.outcome;
}

/** The document type a scan reports: the requested one, or for auto the one the proportions suggest. */
export function resolveDocumentType(requested: DocumentTypeInput, image: AnalysedImage): { type: DocumentType; reason: string } {
  if (requested !== 'auto') return { type: requested, reason: `requested ${requested}` };
  const aspect = image.image.width / image.image.height;
  const rule = aspect >= AUTO_CARD_ASPECT ? AUTO_DOCUMENT_TYPE_RULES[0] : AUTO_DOCUMENT_TYPE_RULES[1];
  const type = (rule?.outcome ?? 'passport') as DocumentType;
  return { type, reason: `auto -> ${type} (width/height ${aspect.toFixed(2)} ${aspect >= AUTO_CARD_ASPECT ? '>=' : '<'} ${AUTO_CARD_ASPECT})` };
}
