/**
 * The document types a headless ID_VERIFICATION step accepts (requirements.document.valid_id_types),
 * which of them never need a back image, how the document scan reads each one, and the US states and
 * Canadian provinces a document may come from (requirements.document.valid_states).
 *
 * LIMITATIONS:
 * - The list is the spec's five examples; the real service may accept more.
 */
import type { DocumentType } from '../document/api.ts';

export interface IdDocumentType {
  id: string;
  /** How POST /v1/document/scan reads it. */
  scanAs: DocumentType;
  /** A passport's data page is the whole document: no id_back. */
  frontOnly: boolean;
}

export const ID_DOCUMENT_TYPES: readonly IdDocumentType[] = [
  { id: 'driver-license-us', scanAs: 'drivers_license', frontOnly: false },
  { id: 'driver-license-ca', scanAs: 'drivers_license', frontOnly: false },
  { id: 'passport-us', scanAs: 'passport', frontOnly: true },
  { id: 'passport-ca', scanAs: 'passport', frontOnly: true },
  { id: 'national-id-us', scanAs: 'national_id', frontOnly: false },
];

export const VALID_ID_TYPES = ID_DOCUMENT_TYPES.map((type) => type.id);
export const FRONT_ONLY_DOCUMENT_TYPES = ID_DOCUMENT_TYPES.filter((type) => type.frontOnly).map((type) => type.id);

export function idDocumentType(id: string): IdDocumentType | undefined {
  return ID_DOCUMENT_TYPES.find((type) => type.id === id);
}

/** Document kinds the service recognises in any country (`<kind>-<country>`): a type of one of them that is not in VALID_ID_TYPES is known but not accepted. */
const RECOGNISED_DOCUMENT_TYPE = /^(passport|driver-license|national-id|residence-permit)-[a-z]{2}$/;

export function isRecognisedDocumentType(id: string): boolean {
  return RECOGNISED_DOCUMENT_TYPE.test(id);
}

export function isFrontOnly(id: string): boolean {
  return FRONT_ONLY_DOCUMENT_TYPES.includes(id);
}

/** The 50 US states and DC, then the 13 Canadian provinces and territories. */
export const VALID_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AB',
  'BC',
  'MB',
  'NB',
  'NL',
  'NS',
  'NT',
  'NU',
  'ON',
  'PE',
  'QC',
  'SK',
  'YT',
] as const;
