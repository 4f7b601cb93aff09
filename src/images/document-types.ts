/**
 * The documentType values of the image operations (document scan and identity verify share the field):
 * the spec values, the accepted spellings and what `auto` resolves to. The document area parses and
 * resolves with these tables; the catalog and the request schemas show them.
 */
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

/** Width/height from which `auto` reads a picture as an ID-1 card. */
export const AUTO_CARD_ASPECT = 1.5;

/** What `auto` becomes: ID-1 card proportions read as a driver's licence, anything else as a passport. */
export const AUTO_DOCUMENT_TYPE_RULES: readonly { input: string; outcome: DocumentType; description: string }[] = [
  {
    input: `auto, picture width/height >= ${AUTO_CARD_ASPECT}`,
    outcome: 'drivers_license',
    description: 'ID-1 card proportions (85.6 x 54 mm = 1.59); national_id is never guessed, ask for it explicitly',
  },
  {
    input: 'auto, any other proportions',
    outcome: 'passport',
    description: 'passport data page (125 x 88 mm = 1.42), portrait photos and everything else',
  },
];
