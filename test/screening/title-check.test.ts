import { describe, expect, it } from 'vitest';
import { checkTitle, normalizeAddress, TITLE_MESSAGES } from '../../src/screening/title-check.service.ts';
import { classifyAddress } from '../../src/screening/title-check.address.ts';
import { TitleCheckResponseSchema, type TitleCheckResponse } from '../../src/screening/title-check.schemas.ts';

const applicant = { firstName: 'Jane', lastName: 'Doe' };

function parsed(response: TitleCheckResponse): TitleCheckResponse {
  expect(TitleCheckResponseSchema.parse(response)).toEqual(response);
  return response;
}

describe('classifyAddress', () => {
  it.each([
    ['12 Oak St, Apt 4B, Austin, TX 78701', { street: '12 Oak St', unit: '4B', city: 'Austin', state: 'TX', zip: '78701' }],
    ['350 Fifth Avenue, New York, New York 10118-0110, USA', { street: '350 Fifth Avenue', unit: null, city: 'New York', state: 'NY', zip: '10118' }],
    ['742 Evergreen Terrace #2, Springfield OR 97477', { street: '742 Evergreen Terrace', unit: '2', city: 'Springfield', state: 'OR', zip: '97477' }],
  ])('reads the US address %s', (address, expected) => {
    expect(classifyAddress(address)).toEqual({ region: 'US', address: expected });
  });

  it.each([
    ['221B Baker Street, London NW1 6XE, United Kingdom'],
    ['10 Rue de Rivoli, 75001 Paris, France'],
    ['100 King St W, Toronto, ON M5X 1A9, Canada'],
    ['Hauptstr. 5, DE 10115 Berlin, Germany'],
    ['1 High Street, Oxford OX1 4AA'],
  ])('places %s outside the US', (address) => {
    expect(classifyAddress(address).region).toBe('non-US');
  });

  it('cannot locate an address without a state and ZIP code, even in a state named like a country', () => {
    expect(classifyAddress('55 Peachtree St, Atlanta, Georgia').region).toBe('unknown');
    expect(classifyAddress('somewhere over the rainbow').region).toBe('unknown');
  });
});

describe('checkTitle', () => {
  it('finds a full record whose every PascalCase member is present', () => {
    const response = parsed(checkTitle({ ...applicant, address: '12 Oak St, Apt 4B, Austin, TX 78701' }).value);
    expect(response.status).toBe('found');
    if (response.status !== 'found') return;
    expect(Object.keys(response.subjectProperty ?? {})).toHaveLength(19);
    expect(Object.keys(response.ownerInformation ?? {})).toHaveLength(10);
    expect(Object.keys(response.locationInformation ?? {})).toHaveLength(8);
    expect(Object.keys(response.ownerTransferInformation ?? {})).toHaveLength(5);
    expect(response.subjectProperty).toMatchObject({
      PropertyFullStreetAddress: '12 OAK ST UNIT 4B',
      PropertyCity: 'AUSTIN',
      PropertyState: 'TX',
      PropertyZipCode: '78701',
      PropertyType: 'CONDOMINIUM',
      LotSizeSqFt: null,
    });
  });

  it('keeps found records internally consistent', () => {
    let found = 0;
    for (let i = 1; i <= 200; i++) {
      const response = parsed(checkTitle({ ...applicant, address: `${i} Main St, Springfield, IL 62701` }).value);
      if (response.status !== 'found') continue;
      found++;
      const property = response.subjectProperty;
      if (property?.LotSizeSqFt != null) expect(property.LotSizeAcres).toBeCloseTo(property.LotSizeSqFt / 43_560, 4);
      const sale = response.lastMarketSaleInformation;
      if (sale !== null && sale.SalePrice !== null && property?.BuildingAreaSqFt != null) {
        expect(sale.PricePerSqFt).toBeCloseTo(sale.SalePrice / property.BuildingAreaSqFt, 2);
        expect(sale.RecordingDate! >= sale.SaleDate!).toBe(true);
      }
      const transfer = response.ownerTransferInformation;
      expect(transfer!.TransferRecordingDate! >= transfer!.TransferSaleDate!).toBe(true);
    }
    expect(found).toBeGreaterThan(120);
  });

  it('gives the same answer for the same address however it is typed', () => {
    const a = checkTitle({ ...applicant, address: '17 Main St, Springfield, IL 62701' });
    const b = checkTitle({ ...applicant, address: '17  MAIN ST  Springfield IL 62701' });
    expect(normalizeAddress('17 Main St, Springfield, IL 62701')).toBe(normalizeAddress('17  MAIN ST  Springfield IL 62701'));
    expect(b.value).toEqual(a.value);
  });

  it('answers unsupported_region as a result for addresses outside the US', () => {
    expect(checkTitle({ ...applicant, address: '10 Rue de Rivoli, 75001 Paris, France' })).toEqual({
      value: { status: 'unsupported_region', message: TITLE_MESSAGES.unsupportedRegion },
      explanations: ['address outside the US (country France) -> unsupported_region'],
    });
  });

  it('answers not_found for an address it cannot locate', () => {
    expect(checkTitle({ ...applicant, address: 'somewhere over the rainbow' }).value).toEqual({
      status: 'not_found',
      message: 'No matching property found.',
    });
  });

  it('lists units and owners for a multi-unit building without a unit', () => {
    const multiples = Array.from({ length: 60 }, (_, i) => checkTitle({ ...applicant, address: `${i + 1} Elm St, Dayton, OH 45402` }).value).filter(
      (r) => r.status === 'multiple_properties',
    );
    expect(multiples.length).toBeGreaterThan(0);
    for (const response of multiples) {
      parsed(response);
      if (response.status !== 'multiple_properties') continue;
      expect(response.properties.map((p) => p.apartmentOrUnit)).toEqual(response.availableUnits);
    }
  });
});
