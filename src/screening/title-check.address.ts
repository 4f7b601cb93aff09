/**
 * Reading a one-line address for the title check: is it in the US, and if so which street, unit,
 * city, state and ZIP code. Title search only covers the US (facts §9: 'Title search is currently
 * available for US addresses only').
 *
 * Rules, in order:
 * 1. A last part naming another country ('United Kingdom', 'Canada', 'France', 'UK') makes it non-US.
 * 2. A US state (two-letter code or full name) followed by a 5-digit ZIP code (ZIP+4 allowed) makes
 *    the address US: '12 Oak St, Springfield, IL 62701'.
 * 3. A UK or Canadian postcode makes it non-US.
 * 4. Otherwise the region is unknown (no state and ZIP code to locate it).
 *
 * LIMITATIONS:
 * - No geocoding: a US address without a state and ZIP is never located; territories (PR, GU, ...)
 *   are not treated as US.
 */
import { countries } from './countries.ts';

export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

const STATE_BY_NAME = new Map(Object.entries(US_STATES).map(([code, name]) => [name.toLowerCase(), code]));
const US_COUNTRY_NAMES = new Set(['us', 'usa', 'u.s.', 'u.s.a.', 'united states', 'united states of america', 'america']);
const UK_NAMES = new Set(['uk', 'u.k.', 'england', 'scotland', 'wales', 'northern ireland', 'great britain', 'britain']);
const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/i;
const CA_POSTCODE = /\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/i;
const UNIT = /(?:\b(?:apt|apartment|unit|suite|ste|flat)\.?\s*|#\s*)([A-Za-z0-9-]+)/i;

export interface UsAddress {
  /** The street line without the unit, e.g. '12 Oak St'. */
  street: string;
  unit: string | null;
  city: string | null;
  /** Two-letter code. */
  state: string;
  zip: string;
}

export type AddressRegion = { region: 'US'; address: UsAddress } | { region: 'non-US'; reason: string } | { region: 'unknown'; reason: string };

function findStateAndZip(text: string): { index: number; length: number; state: string; zip: string } | undefined {
  const stateNames = Object.values(US_STATES)
    .map((name) => name.replace(/ /g, '\\s+'))
    .join('|');
  const pattern = new RegExp(`\\b([A-Za-z]{2}|${stateNames})\\.?,?\\s+(\\d{5})(?:-\\d{4})?\\b`, 'gi');
  let found: { index: number; length: number; state: string; zip: string } | undefined;
  for (const match of text.matchAll(pattern)) {
    const raw = (match[1] ?? '').replace(/\s+/g, ' ');
    const code = raw.length === 2 ? raw.toUpperCase() : STATE_BY_NAME.get(raw.toLowerCase());
    if (code !== undefined && US_STATES[code] !== undefined) found = { index: match.index, length: match[0].length, state: code, zip: match[2] ?? '' };
  }
  return found;
}

export function classifyAddress(text: string): AddressRegion {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const parts = oneLine
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const last = (parts[parts.length - 1] ?? '').replace(/\.$/, '');
  const lastLower = last.toLowerCase();
  // An explicit foreign country wins over anything that looks like a state and ZIP ('DE 10115').
  // ('Georgia' is a state before it is a country.)
  const code = UK_NAMES.has(lastLower) ? 'GB' : STATE_BY_NAME.has(lastLower) ? undefined : countries.getAlpha2Code(last, 'en');
  if (code !== undefined && code !== 'US') return { region: 'non-US', reason: `country ${last}` };
  const stateZip = findStateAndZip(oneLine);
  if (stateZip) return { region: 'US', address: parseUsAddress(oneLine, stateZip) };
  if (UK_POSTCODE.test(oneLine) || CA_POSTCODE.test(oneLine)) return { region: 'non-US', reason: 'a UK or Canadian postcode' };
  if (US_COUNTRY_NAMES.has(lastLower)) return { region: 'unknown', reason: 'a US address without a state and ZIP code' };
  return { region: 'unknown', reason: 'no US state and ZIP code' };
}

function parseUsAddress(oneLine: string, stateZip: { index: number; length: number; state: string; zip: string }): UsAddress {
  const before = oneLine.slice(0, stateZip.index).replace(/[,\s]+$/, '');
  const parts = before
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  let streetParts = parts.slice(0, Math.max(1, parts.length - 1));
  let city: string | null = parts.length > 1 ? (parts[parts.length - 1] ?? null) : null;
  // A separate 'Apt 4B' part belongs to the street, not the city.
  if (city !== null && /^(?:apt|apartment|unit|suite|ste|flat|#)\b/i.test(city)) {
    streetParts = parts;
    city = null;
  }
  const streetLine = streetParts.join(' ');
  const unitMatch = UNIT.exec(streetLine);
  const street = (unitMatch ? streetLine.replace(unitMatch[0], '') : streetLine)
    .replace(/\s+/g, ' ')
    .replace(/[\s,]+$/, '')
    .trim();
  return { street, unit: unitMatch?.[1]?.toUpperCase() ?? null, city, state: stateZip.state, zip: stateZip.zip };
}
