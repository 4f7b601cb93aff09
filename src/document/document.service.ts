/**
 * Document scan: what POST /v1/document/scan "reads" from a picture.
 *
 * Simulates an OCR/ID-analysis provider: the document type is the requested one (or resolved from the
 * picture's proportions for auto), the identity is a synthetic person derived from the pixels (see
 * synthetic-identity.ts), passports carry a TD3 MRZ and national ID cards a TD1 MRZ with correct check
 * digits, rawFields use provider-style names (FIRST_NAME, DATE_OF_BIRTH, MRZ_CODE, …) with values as
 * printed, and each field has a confidence that depends on the picture's quality; the response's
 * confidence is their average.
 *
 * LIMITATIONS:
 * - Nothing is actually read: any picture with detail reads as a valid document of the requested type,
 *   and the printed text on the picture is ignored.
 * - A near-uniform picture (blank frame) or one under 16 px a side is unreadable: every string is empty, rawFields is {} and
 *   confidence is 0 (still 200, like a provider that found no fields).
 * - Every document is valid on DOCUMENT_REFERENCE_DATE; there are no expired documents.
 */
import type { AnalysedImage } from '../images/image-analysis.ts';
import { clamp } from '../images/pixel-ops.ts';
import type { Explained } from '../platform/explained.ts';
import { rngFrom } from '../platform/random/random.ts';
import type { DocumentScanResponse } from './document.schemas.ts';
import { resolveDocumentType, type DocumentType, type DocumentTypeInput } from './document-type.ts';
import { DOCUMENT_REFERENCE_DATE, syntheticDocument, type SyntheticDocument } from './synthetic-identity.ts';
import { round } from '../platform/numbers.ts';

/** The scan's answer (`value`) and why (`explanations`), with what the workflow steps read besides. */
export interface DocumentScan extends Explained<DocumentScanResponse> {
  /** False for a near-uniform picture: no fields were read. */
  readable: boolean;
  /** The synthetic document behind the response (absent when unreadable). */
  document?: SyntheticDocument;
  /** Confidence (0-1) of each rawFields entry; the response's confidence is their average. */
  fieldConfidence: Record<string, number>;
}

export interface ScanOptions {
  /** Day the synthetic dates are relative to (default DOCUMENT_REFERENCE_DATE). */
  referenceDate?: string;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** The printed form of a date on each kind of document. */
function printedDate(iso: string, style: 'icao' | 'us' | 'eu'): string {
  const [year, month, day] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  if (style === 'icao') return `${day} ${MONTHS[Number(month) - 1]} ${year}`;
  if (style === 'us') return `${month}/${day}/${year}`;
  return `${day}.${month}.${year}`;
}

/** Provider-style fields, values as printed (upper case, document date formats). */
function rawFieldsOf(doc: SyntheticDocument): Record<string, string> {
  const { person } = doc;
  const style = doc.type === 'passport' ? 'icao' : doc.issuingCountry === 'USA' ? 'us' : 'eu';
  const fields: Record<string, string> = {
    ID_TYPE: doc.type === 'passport' ? 'PASSPORT' : doc.type === 'national_id' ? 'IDENTITY CARD' : 'DRIVER LICENSE FRONT',
    FIRST_NAME: person.firstName.toUpperCase(),
  };
  if (person.middleName) fields.MIDDLE_NAME = person.middleName.toUpperCase();
  fields.LAST_NAME = person.lastName.toUpperCase();
  fields.DATE_OF_BIRTH = printedDate(person.dateOfBirth, style);
  fields.SEX = person.sex;
  if (doc.type !== 'drivers_license') fields.NATIONALITY = doc.nationality;
  if (doc.placeOfBirth) fields.PLACE_OF_BIRTH = doc.placeOfBirth;
  fields.DOCUMENT_NUMBER = doc.documentNumber;
  fields.DATE_OF_ISSUE = printedDate(doc.issueDate, style);
  fields.EXPIRATION_DATE = printedDate(doc.expirationDate, style);
  if (doc.type !== 'drivers_license') fields.ISSUING_COUNTRY = doc.issuingCountry;
  if (doc.personalNumber) fields.PERSONAL_NUMBER = doc.personalNumber;
  if (doc.address) {
    fields.ADDRESS = doc.address.street;
    fields.CITY_IN_ADDRESS = doc.address.city;
    if (doc.address.region) fields.STATE_IN_ADDRESS = doc.address.region;
    fields.ZIP_CODE_IN_ADDRESS = doc.address.postalCode;
  }
  if (doc.state) fields.STATE_NAME = doc.state.name;
  if (doc.licenceClass) {
    fields.CLASS = doc.licenceClass;
    fields.RESTRICTIONS = 'NONE';
    fields.ENDORSEMENTS = 'NONE';
  }
  if (doc.mrz) fields.MRZ_CODE = doc.mrz.join('\n');
  return fields;
}

/**
 * Per-field confidence: high for a sharp, contrasted picture with a document layout, lower for a plain
 * photo or a washed-out one, with a small per-field variation. Deterministic per picture and field.
 */
function fieldConfidences(image: AnalysedImage, fields: Record<string, string>): Record<string, number> {
  const q = 0.5 * clamp(image.quality.contrast / 50, 0, 1) + 0.3 * clamp(image.quality.detail / 10, 0, 1) + 0.2 * (image.document ? 1 : 0);
  const out: Record<string, number> = {};
  for (const name of Object.keys(fields)) {
    const rng = rngFrom('document-field-confidence', image.pixelHash, name);
    out[name] = round(clamp(0.78 + 0.2 * q - rng.float(0, 0.05), 0, 0.999), 4);
  }
  return out;
}

function unreadableResponse(type: DocumentType): DocumentScanResponse {
  return {
    documentType: type,
    fullName: '',
    firstName: '',
    lastName: '',
    dateOfBirth: '',
    gender: '',
    nationality: '',
    documentNumber: '',
    expirationDate: '',
    issuingCountry: '',
    rawFields: {},
    confidence: 0,
  };
}

/** Scans an analysed picture as `requested` (already parsed with parseDocumentType). */
export function scanDocument(image: AnalysedImage, requested: DocumentTypeInput, options: ScanOptions = {}): DocumentScan {
  const resolved = resolveDocumentType(requested, image);
  if (image.featureless) {
    return {
      value: unreadableResponse(resolved.type),
      readable: false,
      fieldConfidence: {},
      explanations: [`document unreadable: ${image.summary}; ${resolved.reason}`],
    };
  }
  const hints = image.ageGender ? { sex: image.ageGender.gender === 'female' ? ('F' as const) : ('M' as const), age: image.ageGender.age } : {};
  const doc = syntheticDocument(image.pixelHash, resolved.type, hints, options.referenceDate ?? DOCUMENT_REFERENCE_DATE);
  const rawFields = rawFieldsOf(doc);
  const fieldConfidence = fieldConfidences(image, rawFields);
  const confidences = Object.values(fieldConfidence);
  const confidence = round(confidences.reduce((sum, c) => sum + c, 0) / confidences.length, 4);
  const { person } = doc;
  const response: DocumentScanResponse = {
    documentType: resolved.type,
    fullName: [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ').toUpperCase(),
    firstName: person.firstName.toUpperCase(),
    lastName: person.lastName.toUpperCase(),
    dateOfBirth: person.dateOfBirth,
    gender: person.sex,
    nationality: doc.nationality,
    documentNumber: doc.documentNumber,
    expirationDate: doc.expirationDate,
    issuingCountry: doc.issuingCountry,
    ...(doc.address ? { address: doc.address.line } : {}),
    ...(doc.mrz ? { mrzData: doc.mrz.join('\n') } : {}),
    rawFields,
    confidence,
  };
  const portrait = image.ageGender ? `, sex/age from portrait (${image.ageGender.gender}, ~${image.ageGender.age})` : '';
  return {
    value: response,
    readable: true,
    document: doc,
    fieldConfidence,
    explanations: [
      `${resolved.reason}; synthetic identity seeded by pixel hash ${image.pixelHash.slice(0, 12)}${portrait}; ${Object.keys(rawFields).length} fields, confidence ${confidence}`,
    ],
  };
}
