/**
 * Machine-readable zones per ICAO Doc 9303: TD3 (passport data page, 2 lines of 44) and TD1 (ID-1
 * card, 3 lines of 30), with every check digit (document number, birth date, expiry, optional data,
 * composite) computed with the 7-3-1 weights.
 *
 * LIMITATIONS:
 * - Names are transliterated the simple way (accents stripped, other punctuation becomes a filler);
 *   long names are truncated, without Doc 9303's abbreviation rules.
 * - Document numbers are at most 9 characters (no TD1 long-number overflow into the optional data).
 */

export const MRZ_FILLER = '<';

/** Value of one MRZ character for check digits: 0-9 → 0-9, A-Z → 10-35, '<' → 0. */
export function mrzCharValue(char: string): number {
  if (char >= '0' && char <= '9') return char.charCodeAt(0) - 48;
  if (char >= 'A' && char <= 'Z') return char.charCodeAt(0) - 55;
  if (char === MRZ_FILLER) return 0;
  throw new Error(`not an MRZ character: ${JSON.stringify(char)}`);
}

/** Doc 9303 part 3 §4.9: weights 7, 3, 1 repeating; sum mod 10. */
export function mrzCheckDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) sum += mrzCharValue(field[i] as string) * (weights[i % 3] as number);
  return String(sum % 10);
}

/** Upper-case A-Z, digits and fillers only: accents stripped, apostrophes dropped, the rest → filler. */
export function toMrzText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/['’.]/g, '')
    .replace(/[^A-Z0-9]+/g, MRZ_FILLER);
}

function pad(text: string, length: number): string {
  return text.length >= length ? text.slice(0, length) : text + MRZ_FILLER.repeat(length - text.length);
}

/** The name field: SURNAME<<GIVEN<NAMES, filled (or truncated) to `length`. */
export function mrzNameField(surname: string, givenNames: string, length: number): string {
  const primary = toMrzText(surname).replace(/^<+|<+$/g, '');
  const secondary = toMrzText(givenNames).replace(/^<+|<+$/g, '');
  return pad(`${primary}<<${secondary}`, length);
}

/** The ICAO 9303 code of a state: its ISO alpha-3 code, except Germany ("D"). */
export function icaoStateCode(alpha3: string): string {
  return alpha3 === 'DEU' ? 'D' : alpha3;
}

/** ISO date (YYYY-MM-DD) → YYMMDD. */
export function mrzDate(isoDate: string): string {
  return `${isoDate.slice(2, 4)}${isoDate.slice(5, 7)}${isoDate.slice(8, 10)}`;
}

export interface MrzPerson {
  surname: string;
  givenNames: string;
  /** ISO 3166-1 alpha-3; written into the MRZ as the ICAO code (icaoStateCode: DEU → D). */
  nationality: string;
  issuingState: string;
  documentNumber: string;
  dateOfBirth: string; // YYYY-MM-DD
  sex: 'M' | 'F' | '<';
  expirationDate: string; // YYYY-MM-DD
  /** Optional data (personal number), up to 14 (TD3) / 15 + 11 (TD1) characters. */
  optionalData?: string;
  optionalData2?: string;
}

/** TD3 (passport) MRZ: two lines of 44 characters. */
export function buildTd3(person: MrzPerson): [string, string] {
  const line1 = pad(`P<${pad(icaoStateCode(person.issuingState), 3)}${mrzNameField(person.surname, person.givenNames, 39)}`, 44);
  const number = pad(toMrzText(person.documentNumber), 9);
  const birth = mrzDate(person.dateOfBirth);
  const expiry = mrzDate(person.expirationDate);
  const optional = pad(toMrzText(person.optionalData ?? ''), 14);
  const numberPart = number + mrzCheckDigit(number);
  const birthPart = birth + mrzCheckDigit(birth);
  const expiryPart = expiry + mrzCheckDigit(expiry);
  const optionalPart = optional + mrzCheckDigit(optional);
  const composite = mrzCheckDigit(numberPart + birthPart + expiryPart + optionalPart);
  const line2 = `${numberPart}${pad(icaoStateCode(person.nationality), 3)}${birthPart}${person.sex}${expiryPart}${optionalPart}${composite}`;
  return [line1, line2];
}

/** TD1 (ID card) MRZ: three lines of 30 characters. */
export function buildTd1(person: MrzPerson): [string, string, string] {
  const number = pad(toMrzText(person.documentNumber), 9);
  const optional1 = pad(toMrzText(person.optionalData ?? ''), 15);
  const line1 = `I<${pad(icaoStateCode(person.issuingState), 3)}${number}${mrzCheckDigit(number)}${optional1}`;
  const birth = mrzDate(person.dateOfBirth);
  const expiry = mrzDate(person.expirationDate);
  const optional2 = pad(toMrzText(person.optionalData2 ?? ''), 11);
  const birthPart = birth + mrzCheckDigit(birth);
  const expiryPart = expiry + mrzCheckDigit(expiry);
  // Composite over line 1 positions 6-30 and line 2 positions 1-7, 9-15 and 19-29 (Doc 9303 part 5).
  const composite = mrzCheckDigit(line1.slice(5, 30) + birthPart + expiryPart + optional2);
  const line2 = `${birthPart}${person.sex}${expiryPart}${pad(icaoStateCode(person.nationality), 3)}${optional2}${composite}`;
  const line3 = mrzNameField(person.surname, person.givenNames, 30);
  return [line1, line2, line3];
}
