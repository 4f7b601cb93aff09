/**
 * A fictional Canada that bank statements and credit reports share: provinces, cities, street addresses,
 * postal codes and phone numbers, employers and telcos (all fictional), and calendar arithmetic in UTC.
 *
 * LIMITATIONS:
 * - Postal codes have a plausible forward sortation letter for their province, not a real delivery area.
 * - Phone numbers use the 555-01xx range reserved for fiction.
 */
import type { Rng } from '../platform/random/random.ts';

export const PROVINCES = ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'] as const;
export type Province = (typeof PROVINCES)[number];

// ---------------------------------------------------------------- places

export interface City {
  city: string;
  province: Province;
  /** First letters of the postal codes of the area. */
  fsaLetters: string;
  areaCode: string;
}

export const CITIES: readonly City[] = [
  { city: 'Toronto', province: 'ON', fsaLetters: 'M', areaCode: '416' },
  { city: 'Ottawa', province: 'ON', fsaLetters: 'K', areaCode: '613' },
  { city: 'Mississauga', province: 'ON', fsaLetters: 'L', areaCode: '905' },
  { city: 'London', province: 'ON', fsaLetters: 'N', areaCode: '519' },
  { city: 'Sudbury', province: 'ON', fsaLetters: 'P', areaCode: '705' },
  { city: 'Montreal', province: 'QC', fsaLetters: 'H', areaCode: '514' },
  { city: 'Quebec City', province: 'QC', fsaLetters: 'G', areaCode: '418' },
  { city: 'Gatineau', province: 'QC', fsaLetters: 'J', areaCode: '819' },
  { city: 'Vancouver', province: 'BC', fsaLetters: 'V', areaCode: '604' },
  { city: 'Victoria', province: 'BC', fsaLetters: 'V', areaCode: '250' },
  { city: 'Calgary', province: 'AB', fsaLetters: 'T', areaCode: '403' },
  { city: 'Edmonton', province: 'AB', fsaLetters: 'T', areaCode: '780' },
  { city: 'Winnipeg', province: 'MB', fsaLetters: 'R', areaCode: '204' },
  { city: 'Regina', province: 'SK', fsaLetters: 'S', areaCode: '306' },
  { city: 'Halifax', province: 'NS', fsaLetters: 'B', areaCode: '902' },
  { city: 'Moncton', province: 'NB', fsaLetters: 'E', areaCode: '506' },
  { city: "St. John's", province: 'NL', fsaLetters: 'A', areaCode: '709' },
  { city: 'Charlottetown', province: 'PE', fsaLetters: 'C', areaCode: '902' },
];

const STREET_NAMES = [
  'Maple',
  'King',
  'Queen',
  'Wellington',
  'Church',
  'Elm',
  'Bay',
  'Victoria',
  'Cedar',
  'Birch',
  'Lakeshore',
  'Main',
  'Park',
  'Spruce',
  'Pine',
  'Willow',
  'Richmond',
  'Albert',
  'Dundas',
  'Sherbrooke',
  'Portage',
  'Jasper',
];
const STREET_KINDS = ['Street', 'Avenue', 'Road', 'Crescent', 'Drive', 'Boulevard', 'Lane', 'Court', 'Way'];
/** Letters Canada Post uses in positions 3 and 5 of a postal code. */
const POSTAL_LETTERS = 'ABCEGHJKLMNPRSTVWXYZ';

export function civicAddress(rng: Rng): string {
  const street = `${rng.int(1, 9999)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_KINDS)}`;
  return rng.chance(0.3) ? `${rng.int(101, 2408)}-${street}` : street;
}

export function postalCode(rng: Rng, city: City): string {
  const letter = () => POSTAL_LETTERS[rng.int(0, POSTAL_LETTERS.length - 1)] as string;
  return `${rng.pick([...city.fsaLetters])}${rng.int(0, 9)}${letter()} ${rng.int(0, 9)}${letter()}${rng.int(0, 9)}`;
}

/** A fictional North American number in the 555-01xx range, in E.164. */
export function fictionalPhone(rng: Rng, city: City): string {
  return `+1${city.areaCode}55501${String(rng.int(0, 99)).padStart(2, '0')}`;
}

// ---------------------------------------------------------------- employers and telcos (fictional)

export const TELCOS = ['Northstar Mobile', 'Lakeshore Telecom', 'Aurora Cable and Internet'];
export const EMPLOYERS = [
  'Northwind Logistics Inc.',
  'Granite Peak Engineering',
  'Bluewater Health Services',
  'Tamarack Software Ltd.',
  'Riverstone Foods Co.',
  'Coastal Pacific Retail',
  'Aspen Grove School Board',
  'Maple Leaf Freight Lines',
];

// ---------------------------------------------------------------- calendar (UTC)

const DAY_MS = 86_400_000;

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The same day-of-month `months` earlier (clamped to the month's last day), at 00:00 UTC. */
export function monthsBefore(ms: number, months: number): number {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay));
}

export function monthsAfter(ms: number, months: number): number {
  return monthsBefore(ms, -months);
}

export function daysBefore(ms: number, days: number): number {
  return ms - days * DAY_MS;
}

export function daysAfter(ms: number, days: number): number {
  return ms + days * DAY_MS;
}

/** Whole months from `fromMs` to `toMs` (floor, never negative). */
export function monthsBetween(fromMs: number, toMs: number): number {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  let months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  if (to.getUTCDate() < from.getUTCDate()) months -= 1;
  return Math.max(0, months);
}
