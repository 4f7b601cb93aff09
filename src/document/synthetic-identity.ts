/**
 * The person and the document a scan "reads", derived from the picture only (seeded with the hash of
 * its pixels), so the same picture always reads as the same person with the same document number.
 *
 * - The person (names, sex, date of birth) depends on the picture alone: scanning one picture as a
 *   passport and as a driver's licence gives the same person on two documents.
 * - When the picture has a face, the person's sex follows the face's gender estimate and their age is
 *   the estimated age ± 2 years, so a document agrees with its own portrait.
 * - The document (issuing country, number, dates, address, MRZ) depends on the picture and the type.
 * - Dates are relative to a fixed reference day (DOCUMENT_REFERENCE_DATE), not to the clock, so a
 *   picture reads the same forever; every document is valid on the reference day.
 *
 * LIMITATIONS:
 * - Names come from faker's English locales whatever the issuing country.
 * - Document-number formats are plausible per issuer, not validated against real issuer rules.
 */
import type { Faker } from '@faker-js/faker';
import { buildTd1, buildTd3 } from './mrz.ts';
import type { DocumentType } from './document-type.ts';
import { fakerFrom, rngFrom, type Rng } from '../platform/random/random.ts';

/** Day every synthetic date is relative to (birth dates give the estimated age on this day). */
export const DOCUMENT_REFERENCE_DATE = '2026-01-01';

export interface SyntheticPerson {
  firstName: string;
  middleName?: string;
  lastName: string;
  sex: 'M' | 'F';
  /** YYYY-MM-DD. */
  dateOfBirth: string;
}

export interface SyntheticAddress {
  street: string;
  city: string;
  region?: string;
  postalCode: string;
  /** One line as printed. */
  line: string;
}

export interface SyntheticDocument {
  type: DocumentType;
  person: SyntheticPerson;
  issuingCountry: string;
  nationality: string;
  documentNumber: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  /** YYYY-MM-DD. */
  expirationDate: string;
  placeOfBirth?: string;
  address?: SyntheticAddress;
  /** US state of a driver's licence (code, name). */
  state?: { code: string; name: string };
  licenceClass?: string;
  personalNumber?: string;
  /** MRZ lines: TD3 for passports, TD1 for national ID cards. */
  mrz?: string[];
}

const DAY_MS = 86_400_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function parseIso(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

function addYears(date: string, years: number): string {
  const year = Number(date.slice(0, 4)) + years;
  const monthDay = date.slice(5);
  // 29 February in a non-leap year becomes 28 February.
  if (monthDay === '02-29' && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return `${year}-02-28`;
  return `${String(year).padStart(4, '0')}-${monthDay}`;
}

function addDays(date: string, days: number): string {
  return isoDate(parseIso(date) + days * DAY_MS);
}

const LETTERS = 'ABCDEFGHIJKLMNPRSTUVWXYZ'; // no O or Q: they read as zero
const DIGITS = '0123456789';

function chars(rng: Rng, alphabet: string, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[rng.int(0, alphabet.length - 1)];
  return out;
}

interface Issuer {
  country: string;
  weight: number;
  number: (rng: Rng) => string;
  validityYears: number;
}

const PASSPORT_ISSUERS: readonly Issuer[] = [
  { country: 'USA', weight: 30, number: (r) => chars(r, LETTERS, 1) + chars(r, DIGITS, 8), validityYears: 10 },
  { country: 'GBR', weight: 20, number: (r) => chars(r, DIGITS, 9), validityYears: 10 },
  { country: 'CAN', weight: 15, number: (r) => chars(r, LETTERS, 2) + chars(r, DIGITS, 6), validityYears: 10 },
  { country: 'AUS', weight: 15, number: (r) => chars(r, LETTERS, 1) + chars(r, DIGITS, 7), validityYears: 10 },
  { country: 'IRL', weight: 10, number: (r) => chars(r, LETTERS, 2) + chars(r, DIGITS, 7), validityYears: 10 },
  { country: 'NZL', weight: 10, number: (r) => chars(r, LETTERS, 2) + chars(r, DIGITS, 6), validityYears: 10 },
];

const NATIONAL_ID_ISSUERS: readonly Issuer[] = [
  { country: 'DEU', weight: 25, number: (r) => chars(r, 'CFGHJKLMNPRTVWXYZ', 1) + chars(r, 'CFGHJKLMNPRTVWXYZ0123456789', 8), validityYears: 10 },
  { country: 'FRA', weight: 20, number: (r) => chars(r, LETTERS + DIGITS, 9), validityYears: 10 },
  { country: 'ESP', weight: 20, number: (r) => chars(r, LETTERS, 3) + chars(r, DIGITS, 6), validityYears: 10 },
  { country: 'ITA', weight: 15, number: (r) => `CA${chars(r, DIGITS, 5)}${chars(r, LETTERS, 2)}`, validityYears: 10 },
  { country: 'NLD', weight: 20, number: (r) => chars(r, LETTERS, 2) + chars(r, LETTERS + DIGITS, 6) + chars(r, DIGITS, 1), validityYears: 10 },
];

/** US states used for driver's licences, with their number formats. */
const US_STATES: readonly { code: string; name: string; number: (rng: Rng) => string }[] = [
  { code: 'CA', name: 'CALIFORNIA', number: (r) => chars(r, LETTERS, 1) + chars(r, DIGITS, 7) },
  { code: 'NY', name: 'NEW YORK', number: (r) => `${chars(r, DIGITS, 3)} ${chars(r, DIGITS, 3)} ${chars(r, DIGITS, 3)}` },
  { code: 'TX', name: 'TEXAS', number: (r) => chars(r, DIGITS, 8) },
  {
    code: 'FL',
    name: 'FLORIDA',
    number: (r) => `${chars(r, LETTERS, 1)}${chars(r, DIGITS, 3)}-${chars(r, DIGITS, 3)}-${chars(r, DIGITS, 2)}-${chars(r, DIGITS, 3)}-${chars(r, DIGITS, 1)}`,
  },
  { code: 'IL', name: 'ILLINOIS', number: (r) => `${chars(r, LETTERS, 1)}${chars(r, DIGITS, 3)}-${chars(r, DIGITS, 4)}-${chars(r, DIGITS, 4)}` },
  { code: 'WA', name: 'WASHINGTON', number: (r) => `WDL${chars(r, LETTERS + DIGITS, 9)}` },
  { code: 'PA', name: 'PENNSYLVANIA', number: (r) => chars(r, DIGITS, 8) },
];

function weightedPick<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let roll = rng.float(0, total);
  for (const item of items) {
    roll -= item.weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1] as T;
}

/** Hints from the portrait: the sex and age the face analysis estimated. */
export interface PersonHints {
  sex?: 'M' | 'F';
  age?: number;
}

export function syntheticPerson(seed: string, hints: PersonHints = {}, referenceDate = DOCUMENT_REFERENCE_DATE): SyntheticPerson {
  const rng = rngFrom('document-person', seed);
  const faker: Faker = fakerFrom('en', 'document-person', seed);
  const sex = hints.sex ?? (rng.chance(0.5) ? 'F' : 'M');
  const fakerSex = sex === 'F' ? 'female' : 'male';
  const age = Math.min(85, Math.max(18, hints.age !== undefined ? hints.age + rng.int(-2, 2) : rng.int(19, 72)));
  const dateOfBirth = addDays(addYears(referenceDate, -age), -rng.int(1, 364));
  const person: SyntheticPerson = {
    firstName: faker.person.firstName(fakerSex),
    lastName: faker.person.lastName(),
    sex,
    dateOfBirth,
  };
  if (rng.chance(0.4)) person.middleName = faker.person.middleName(fakerSex);
  return person;
}

function gbDrivingLicenceNumber(person: SyntheticPerson, rng: Rng): string {
  // DVLA layout: 5 letters of surname, decade digit, month (+5 in the tens for women), day, year digit,
  // 2 initials, an arbitrary digit and 2 check letters.
  const surname = (person.lastName.toUpperCase().replace(/[^A-Z]/g, '') + '99999').slice(0, 5);
  const [year, month, day] = [person.dateOfBirth.slice(0, 4), Number(person.dateOfBirth.slice(5, 7)), person.dateOfBirth.slice(8, 10)];
  const monthField = String(month + (person.sex === 'F' ? 50 : 0)).padStart(2, '0');
  const initials = ((person.firstName[0] ?? 'X') + (person.middleName?.[0] ?? '9')).toUpperCase();
  return `${surname}${year[2]}${monthField}${day}${year[3]}${initials}${chars(rng, DIGITS, 1)}${chars(rng, LETTERS, 2)}`;
}

function usAddress(faker: Faker, state: { code: string }): SyntheticAddress {
  const street = faker.location.streetAddress().toUpperCase();
  const city = faker.location.city().toUpperCase();
  const postalCode = faker.location.zipCode({ state: state.code });
  return { street, city, region: state.code, postalCode, line: `${street}, ${city}, ${state.code} ${postalCode}` };
}

function gbAddress(faker: Faker): SyntheticAddress {
  const street = faker.location.streetAddress().toUpperCase();
  const city = faker.location.city().toUpperCase();
  const postalCode = faker.location.zipCode().toUpperCase();
  return { street, city, postalCode, line: `${street}, ${city}, ${postalCode}` };
}

/** The document of `type` held by the person of `seed`. */
export function syntheticDocument(seed: string, type: DocumentType, hints: PersonHints = {}, referenceDate = DOCUMENT_REFERENCE_DATE): SyntheticDocument {
  const person = syntheticPerson(seed, hints, referenceDate);
  const rng = rngFrom('document', type, seed);
  const surname = person.lastName;
  const givenNames = [person.firstName, person.middleName].filter(Boolean).join(' ');

  if (type === 'drivers_license') {
    const british = rng.chance(0.15);
    const validity = british ? 10 : 8;
    const issueDate = addDays(referenceDate, -rng.int(30, (validity - 1) * 365));
    const expirationDate = addDays(addYears(issueDate, validity), -1);
    if (british) {
      const faker = fakerFrom('en_GB', 'document-address', seed);
      return {
        type,
        person,
        issuingCountry: 'GBR',
        nationality: 'GBR',
        documentNumber: gbDrivingLicenceNumber(person, rng),
        issueDate,
        expirationDate,
        placeOfBirth: 'UNITED KINGDOM',
        address: gbAddress(faker),
        licenceClass: 'AM/A/B/BE/F/K/Q',
      };
    }
    const state = US_STATES[rng.int(0, US_STATES.length - 1)] as (typeof US_STATES)[number];
    const faker = fakerFrom('en_US', 'document-address', seed, state.code);
    return {
      type,
      person,
      issuingCountry: 'USA',
      nationality: 'USA',
      documentNumber: state.number(rng),
      issueDate,
      expirationDate,
      address: usAddress(faker, state),
      state: { code: state.code, name: state.name },
      licenceClass: rng.pick(['C', 'D', 'C', 'D', 'M']),
    };
  }

  const issuer = weightedPick(rng, type === 'passport' ? PASSPORT_ISSUERS : NATIONAL_ID_ISSUERS);
  const documentNumber = issuer.number(rng);
  const issueDate = addDays(referenceDate, -rng.int(30, (issuer.validityYears - 1) * 365));
  const expirationDate = addDays(addYears(issueDate, issuer.validityYears), -1);
  const faker = fakerFrom(issuer.country === 'USA' ? 'en_US' : 'en_GB', 'document-birthplace', seed);
  const placeOfBirth = issuer.country === 'USA' ? `${faker.location.state().toUpperCase()}, U.S.A.` : faker.location.city().toUpperCase();
  const personalNumber = rng.chance(0.5) ? chars(rng, DIGITS, rng.int(8, 11)) : undefined;
  const mrzPerson = {
    surname,
    givenNames,
    nationality: issuer.country,
    issuingState: issuer.country,
    documentNumber,
    dateOfBirth: person.dateOfBirth,
    sex: person.sex,
    expirationDate,
    ...(personalNumber ? { optionalData: personalNumber } : {}),
  };
  const mrz = type === 'passport' ? buildTd3(mrzPerson) : buildTd1(mrzPerson);
  return {
    type,
    person,
    issuingCountry: issuer.country,
    nationality: issuer.country,
    documentNumber,
    issueDate,
    expirationDate,
    placeOfBirth,
    mrz,
    ...(personalNumber ? { personalNumber } : {}),
  };
}
