/**
 * documentType of a scan: the request's value normalised (the spec values and a few spellings people
 * actually send) and what `auto` resolves to from the picture, by the tables of src/images/document-types.ts.
 */
import type { AnalysedImage } from '../images/image-analysis.ts';
import {
  AUTO_CARD_ASPECT,
  AUTO_DOCUMENT_TYPE_RULES,
  DOCUMENT_TYPE_ALIASES,
  DOCUMENT_TYPE_INPUTS,
  type DocumentType,
  type DocumentTypeInput,
} from '../images/document-types.ts';
import { ImageInputError } from '../images/image-input-error.ts';

export { DOCUMENT_TYPES, type DocumentType, type DocumentTypeInput } from '../images/document-types.ts';

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
