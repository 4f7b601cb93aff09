/**
 * Title check: the county property record of a US address (owner, parcel, last transfer and last
 * market sale). Synchronous; the result is one of four variants discriminated by `status` (facts
 * §6.4): found, multiple_properties, unsupported_region (a result, not an error) and not_found.
 *
 * Derivation (deterministic from the normalized address):
 * - magic addresses (magic-values.ts) force each variant; the magic found address lists the
 *   applicant (firstName, lastName) as first owner;
 * - addresses outside the US -> unsupported_region; addresses that cannot be located (no US state and
 *   ZIP code) -> not_found;
 * - other US addresses: with a unit 85% found, 15% not_found; without one 75% found, 10%
 *   multiple_properties, 15% not_found. Found records are synthetic but internally consistent (acres
 *   and square feet agree, price per square foot = price / building area, recording after sale).
 *
 * LIMITATIONS:
 * - Owners of non-magic addresses are synthetic people, so an applicant is never the owner there.
 * - No geocoding; the street, city, state and ZIP are echoed from the address as parsed.
 */
import type { Faker } from '@faker-js/faker';
import type { Explained } from '../platform/explained.ts';
import { fakerFrom, rngFrom, type Rng } from '../platform/random/random.ts';
import { asciiExplanation } from './explain.ts';
import { TITLE_CHECK_MAGIC_ADDRESSES } from './magic-values.ts';
import { classifyAddress, type UsAddress } from './title-check.address.ts';
import type { TitleCheckFound, TitleCheckResponse } from './title-check.schemas.ts';
import { round } from '../platform/numbers.ts';

export const TITLE_MESSAGES = {
  notFound: 'No matching property found.',
  unsupportedRegion: 'Title search is currently available for US addresses only.',
  multipleProperties: 'Multiple properties found at this address. Specify a unit to narrow the search.',
} as const;

export interface TitleCheckInput {
  firstName: string;
  lastName: string;
  address: string;
}

/** Case, punctuation and spacing do not matter when comparing addresses. */
export function normalizeAddress(address: string): string {
  return address
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function checkTitle(input: TitleCheckInput): Explained<TitleCheckResponse> {
  const key = normalizeAddress(input.address);
  const magic = TITLE_CHECK_MAGIC_ADDRESSES.find((row) => normalizeAddress(row.address) === key);
  const region = classifyAddress(input.address);
  const rng = rngFrom('title-check', key);
  const done = (response: TitleCheckResponse, why: string): Explained<TitleCheckResponse> => ({
    value: response,
    explanations: [asciiExplanation(`${why} -> ${response.status}`)],
  });

  if (magic) {
    const why = `magic value: address '${magic.address}'`;
    switch (magic.status) {
      case 'unsupported_region':
        return done({ status: 'unsupported_region', message: TITLE_MESSAGES.unsupportedRegion }, why);
      case 'not_found':
        return done({ status: 'not_found', message: TITLE_MESSAGES.notFound }, why);
      case 'multiple_properties':
        return done(multipleProperties(key, ['1A', '1B', '2A', '2B']), why);
      case 'found': {
        const address = region.region === 'US' ? region.address : { street: input.address, unit: null, city: null, state: 'IL', zip: '62701' };
        return done(foundRecord(key, address, rng, { firstName: input.firstName, lastName: input.lastName }), `${why} (owner = applicant)`);
      }
    }
  }
  if (region.region === 'non-US')
    return done({ status: 'unsupported_region', message: TITLE_MESSAGES.unsupportedRegion }, `address outside the US (${region.reason})`);
  if (region.region === 'unknown') return done({ status: 'not_found', message: TITLE_MESSAGES.notFound }, `address not located: ${region.reason}`);

  const draw = rng.next();
  const hasUnit = region.address.unit !== null;
  if (hasUnit ? draw < 0.85 : draw < 0.75) return done(foundRecord(key, region.address, rng, undefined), 'derived from the address');
  if (!hasUnit && draw < 0.85) {
    const units = rng.sample(['1A', '1B', '2A', '2B', '3A', '3B', '4A', '4B'], rng.int(2, 6)).sort();
    return done(multipleProperties(key, units), 'derived from the address (multi-unit building, no unit given)');
  }
  return done({ status: 'not_found', message: TITLE_MESSAGES.notFound }, 'derived from the address (no record)');
}

function upper(name: string): string {
  return name.toUpperCase();
}

function multipleProperties(key: string, units: readonly string[]): TitleCheckResponse {
  const faker = fakerFrom('en_US', 'title-check-units', key);
  return {
    status: 'multiple_properties',
    message: TITLE_MESSAGES.multipleProperties,
    availableUnits: [...units],
    properties: units.map((unit) => ({ owner: upper(`${faker.person.firstName()} ${faker.person.lastName()}`), apartmentOrUnit: unit })),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dateIn(rng: Rng, fromYear: number, toYear: number): string {
  return `${rng.int(fromYear, toYear)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
}

function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

function ownerName(faker: Faker): { first: string; last: string } {
  return { first: `${faker.person.firstName()} ${faker.string.alpha({ length: 1, casing: 'upper' })}`, last: faker.person.lastName() };
}

function foundRecord(key: string, address: UsAddress, rng: Rng, applicant: { firstName: string; lastName: string } | undefined): TitleCheckFound {
  const faker = fakerFrom('en_US', 'title-check-record', key);
  const city = address.city ?? faker.location.city();
  const county = `${faker.location.county()}`.replace(/ County$/, '');
  const condo = address.unit !== null;
  const kind = condo
    ? { type: 'CONDOMINIUM', code: '1004', description: 'Condominium', zoning: 'R-4' }
    : rng.pick([
        { type: 'SINGLE FAMILY RESIDENCE', code: '1001', description: 'Single Family Residential', zoning: 'R-1' },
        { type: 'SINGLE FAMILY RESIDENCE', code: '1001', description: 'Single Family Residential', zoning: 'R-1' },
        { type: 'TOWNHOUSE', code: '1003', description: 'Townhouse', zoning: 'R-2' },
        { type: 'DUPLEX', code: '1101', description: 'Duplex', zoning: 'R-2' },
      ]);
  const apnParts = [pad(rng.int(1, 999), 3), pad(rng.int(1, 999), 3), pad(rng.int(1, 99), 2), pad(rng.int(1, 999), 3)];
  const lotSqFt = condo ? null : rng.int(3000, 22000);
  const buildingSqFt = condo ? rng.int(650, 1800) : rng.int(900, 4200);
  const yearBuilt = rng.int(1925, 2021);
  const streetLine = upper(address.unit !== null ? `${address.street} UNIT ${address.unit}` : address.street);

  const owner1 = applicant ? { first: applicant.firstName.trim(), last: applicant.lastName.trim() } : ownerName(faker);
  const hasOwner2 = rng.chance(0.5);
  const owner2 = hasOwner2 ? { first: `${faker.person.firstName()} ${faker.string.alpha({ length: 1, casing: 'upper' })}`, last: owner1.last } : null;
  const ownerOccupied = rng.chance(0.8);
  const mailing = ownerOccupied
    ? { street: streetLine, city: upper(city), state: address.state, zip: address.zip }
    : {
        street: upper(faker.location.streetAddress()),
        city: upper(faker.location.city()),
        state: faker.location.state({ abbreviated: true }),
        zip: faker.location.zipCode('#####'),
      };

  const saleDate = dateIn(rng, Math.max(yearBuilt, 1995), 2025);
  const salePrice = Math.round((buildingSqFt * rng.int(140, 520)) / 500) * 500;
  const recordingDate = addDays(saleDate, rng.int(1, 21));
  const documentNumber = `${saleDate.slice(0, 4)}-${pad(rng.int(1, 9_999_999), 7)}`;
  const deedType = rng.pick(['GRANT DEED', 'WARRANTY DEED', 'WARRANTY DEED', 'QUITCLAIM DEED']);
  const marketSale = deedType !== 'QUITCLAIM DEED';
  const buyer = upper([`${owner1.first} ${owner1.last}`, owner2 ? `${owner2.first} ${owner2.last}` : null].filter(Boolean).join(' & '));
  const seller = upper(`${faker.person.firstName()} ${faker.person.lastName()}`);
  const earliestYear = Math.max(yearBuilt, 1985);
  const earlierSaleDate = dateIn(rng, earliestYear, Math.max(earliestYear, Number(saleDate.slice(0, 4)) - 1));
  const earlierPrice = Math.round((salePrice * rng.float(0.45, 0.85)) / 500) * 500;

  return {
    status: 'found',
    subjectProperty: {
      APNFormatted: apnParts.join('-'),
      APNUnformatted: apnParts.join(''),
      PropertyFullStreetAddress: streetLine,
      PropertyCity: upper(city),
      PropertyState: address.state,
      PropertyZipCode: address.zip,
      PropertyCounty: upper(county),
      LegalDescription: condo
        ? `UNIT ${address.unit} ${upper(faker.location.street())} CONDOMINIUM`
        : `LOT ${rng.int(1, 60)} BLK ${rng.int(1, 20)} ${upper(faker.location.street())} SUBDIVISION`,
      PropertyType: kind.type,
      LandUseCode: kind.code,
      LandUseDescription: kind.description,
      Zoning: kind.zoning,
      LotSizeAcres: lotSqFt === null ? null : round(lotSqFt / 43_560, 4),
      LotSizeSqFt: lotSqFt,
      BuildingAreaSqFt: buildingSqFt,
      Stories: condo ? 1 : rng.int(1, 3),
      Bathrooms: rng.int(2, 9) / 2,
      YearBuilt: yearBuilt,
      Bedrooms: condo ? rng.int(1, 3) : rng.int(2, 6),
    },
    ownerInformation: {
      Owner1LastName: upper(owner1.last),
      Owner1FirstNameMiddleInitial: upper(owner1.first),
      Owner2LastName: owner2 ? upper(owner2.last) : null,
      Owner2FirstNameMiddleInitial: owner2 ? upper(owner2.first) : null,
      MailingFullStreetAddress: mailing.street,
      MailingCity: mailing.city,
      MailingState: mailing.state,
      MailingZipCode: mailing.zip,
      VestingOwnershipRights: owner2
        ? rng.pick(['JOINT TENANTS', 'COMMUNITY PROPERTY', 'TENANTS IN COMMON'])
        : rng.pick(['SOLE OWNER', 'UNMARRIED PERSON', 'TRUST']),
      OwnerOccupied: ownerOccupied ? 'Y' : 'N',
    },
    locationInformation: {
      County: upper(county),
      CensusTract: `${pad(rng.int(1, 9999), 4)}.${pad(rng.int(0, 99))}`,
      CensusBlock: String(rng.int(1000, 4999)),
      Municipality: upper(city),
      SchoolDistrict: `${upper(city)} UNIFIED SCHOOL DISTRICT`,
      FloodZone: rng.pick(['X', 'X', 'X', 'AE', 'A']),
      FloodPanelNumber: `${pad(rng.int(1, 56))}${pad(rng.int(1, 999), 3)}C${pad(rng.int(1, 999), 4)}${rng.pick(['E', 'F', 'G', 'H'])}`,
      Neighborhood: rng.chance(0.7)
        ? upper(`${faker.location.street().split(' ')[0] ?? 'Central'} ${rng.pick(['Heights', 'Park', 'Village', 'Estates'])}`)
        : null,
    },
    ownerTransferInformation: {
      TransferDocumentNumber: documentNumber,
      TransferRecordingDate: recordingDate,
      TransferSaleDate: saleDate,
      TransferDeedType: deedType,
      TransferSalePrice: marketSale ? salePrice : null,
    },
    lastMarketSaleInformation: marketSale
      ? {
          SaleDate: saleDate,
          SaleDocumentNumber: documentNumber,
          SaleDeedType: deedType,
          RecordingDate: recordingDate,
          Buyer: buyer,
          Seller: seller,
          SalePrice: salePrice,
          PricePerSqFt: round(salePrice / buildingSqFt, 2),
        }
      : rng.chance(0.5)
        ? {
            SaleDate: earlierSaleDate,
            SaleDocumentNumber: `${earlierSaleDate.slice(0, 4)}-${pad(rng.int(1, 9_999_999), 7)}`,
            SaleDeedType: 'GRANT DEED',
            RecordingDate: addDays(earlierSaleDate, rng.int(1, 21)),
            Buyer: upper(`${owner1.first} ${owner1.last}`),
            Seller: seller,
            SalePrice: earlierPrice,
            PricePerSqFt: round(earlierPrice / buildingSqFt, 2),
          }
        : null,
  };
}
