import { describe, expect, it } from 'vitest';
import { DocumentScanResponseSchema } from '../../src/document/document.schemas.ts';
import { scanDocument } from '../../src/document/document.service.ts';
import { parseDocumentType } from '../../src/document/document-type.ts';
import { DOCUMENT_REFERENCE_DATE } from '../../src/document/synthetic-identity.ts';
import { ImageInputError } from '../../src/images/image-input-error.ts';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { analyseBytes, blankBytes, documentBytes, faceBytes, inlineDecoder } from '../images/helpers.ts';
import { td1Failures, td3Failures } from './independent-mrz-check.ts';

const decoder = inlineDecoder();
const REQUIRED = [
  'documentType',
  'fullName',
  'firstName',
  'lastName',
  'dateOfBirth',
  'gender',
  'nationality',
  'documentNumber',
  'expirationDate',
  'issuingCountry',
] as const;

function yymmdd(iso: string): string {
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}

function ageOn(dateOfBirth: string, day: string): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ry, rm, rd] = day.split('-').map(Number) as [number, number, number];
  return ry - y - (rm < m || (rm === m && rd < d) ? 1 : 0);
}

describe('documentType', () => {
  it('normalises the spec values, their spellings and absence', () => {
    expect(parseDocumentType(undefined)).toBe('auto');
    expect(parseDocumentType(null)).toBe('auto');
    expect(parseDocumentType('PASSPORT')).toBe('passport');
    expect(parseDocumentType(' Drivers-License ')).toBe('drivers_license');
    expect(parseDocumentType('driving licence')).toBe('drivers_license');
    expect(parseDocumentType('ID card')).toBe('national_id');
    expect(parseDocumentType('auto')).toBe('auto');
  });

  it('refuses anything else with a 400 that lists the values', () => {
    for (const bad of ['visa', '', 42, ['passport']]) {
      let error: unknown;
      try {
        parseDocumentType(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ImageInputError);
      expect((error as ImageInputError).kind).toBe('invalid_document_type');
      expect((error as ImageInputError).status).toBe(400);
      expect((error as ImageInputError).message).toContain('passport, drivers_license, national_id, auto');
    }
  });
});

describe('document scan', () => {
  it('reads a passport with every field, a valid TD3 MRZ that agrees with the fields, and no address', async () => {
    for (let s = 0; s < 5; s++) {
      const image = await analyseBytes(decoder, await documentBytes('passport', `scan-passport-${s}`, `scan-person-${s}`));
      const outcome = scanDocument(image, 'passport');
      const r = outcome.value;
      expect(DocumentScanResponseSchema.parse(r)).toStrictEqual(r);
      for (const key of REQUIRED) expect(r[key], key).not.toBe('');
      expect(r.documentType).toBe('passport');
      expect(r.address).toBeUndefined();
      const lines = (r.mrzData ?? '').split('\n');
      expect(lines.map((l) => l.length)).toEqual([44, 44]);
      expect(td3Failures(lines)).toEqual([]);
      const [line1, line2] = lines as [string, string];
      expect(line1.startsWith(`P<${r.issuingCountry}${r.lastName.replace(/'/g, '').replace(/[^A-Z]/g, '<')}<<`)).toBe(true);
      expect(line2.slice(0, 9).replace(/<+$/, '')).toBe(r.documentNumber);
      expect(line2.slice(13, 19)).toBe(yymmdd(r.dateOfBirth));
      expect(line2[20]).toBe(r.gender);
      expect(line2.slice(21, 27)).toBe(yymmdd(r.expirationDate));
      expect(r.rawFields.MRZ_CODE).toBe(r.mrzData);
      expect(r.rawFields.DOCUMENT_NUMBER).toBe(r.documentNumber);
      expect(r.rawFields.ID_TYPE).toBe('PASSPORT');
      expect(r.rawFields.DATE_OF_BIRTH).toMatch(/^\d{2} [A-Z]{3} \d{4}$/);
      expect(r.fullName.endsWith(r.lastName)).toBe(true);
      expect(r.fullName.startsWith(r.firstName)).toBe(true);
      expect(r.expirationDate > DOCUMENT_REFERENCE_DATE).toBe(true);
      expect(r.dateOfBirth < DOCUMENT_REFERENCE_DATE).toBe(true);
    }
  });

  it('reads a national ID card as TD1 (3 x 30) with every check digit right', async () => {
    for (let s = 0; s < 5; s++) {
      const image = await analyseBytes(decoder, await documentBytes('national_id', `scan-id-${s}`, `scan-id-person-${s}`));
      const r = scanDocument(image, 'national_id').value;
      const lines = (r.mrzData ?? '').split('\n');
      expect(lines.map((l) => l.length)).toEqual([30, 30, 30]);
      expect(td1Failures(lines)).toEqual([]);
      expect(r.rawFields.ID_TYPE).toBe('IDENTITY CARD');
      expect(lines[1]?.slice(0, 6)).toBe(yymmdd(r.dateOfBirth));
    }
  });

  it("reads a driver's licence with an address and licence fields, and no MRZ", async () => {
    const image = await analyseBytes(decoder, await documentBytes('drivers_license', 'scan-dl', 'scan-dl-person'));
    const r = scanDocument(image, 'drivers_license').value;
    expect(r.documentType).toBe('drivers_license');
    expect(r.mrzData).toBeUndefined();
    expect(r.address).toMatch(/\S/);
    expect(r.rawFields.ADDRESS).toBeDefined();
    expect(r.rawFields.CLASS).toBeDefined();
    expect(Object.values(r.rawFields).every((v) => typeof v === 'string' && v.length > 0)).toBe(true);
  });

  it('reports as confidence the average of the per-field confidences', async () => {
    const outcome = scanDocument(await analyseBytes(decoder, await documentBytes('passport', 'scan-confidence', 'p')), 'auto');
    const values = Object.values(outcome.fieldConfidence);
    expect(Object.keys(outcome.fieldConfidence)).toEqual(Object.keys(outcome.value.rawFields));
    expect(outcome.value.confidence).toBe(Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10_000) / 10_000);
    expect(outcome.value.confidence).toBeGreaterThan(0.8);
    expect(outcome.value.confidence).toBeLessThan(1);
  });

  it('resolves auto from the proportions: ID-1 card -> drivers_license, passport page and portraits -> passport', async () => {
    const card = await analyseBytes(decoder, await documentBytes('national_id', 'auto-card', 'p1'));
    const page = await analyseBytes(decoder, await documentBytes('passport', 'auto-page', 'p2'));
    const selfie = await analyseBytes(decoder, await faceBytes('auto-selfie'));
    expect(scanDocument(card, 'auto').value.documentType).toBe('drivers_license');
    expect(scanDocument(page, 'auto').value.documentType).toBe('passport');
    expect(scanDocument(selfie, 'auto').value.documentType).toBe('passport');
    expect(scanDocument(card, 'auto').explanations[0]).toMatch(/^auto -> drivers_license \(width\/height 1\.59 >= 1\.5\)/);
  });

  it('reads the same person from the same picture, and from the same pixels saved losslessly in another format', async () => {
    const card = await drawSyntheticFace('same-person', 160, 200);
    const [png, bmp, tiff] = [await encodeImage(card, 'png'), await encodeImage(card, 'bmp'), await encodeImage(card, 'tiff')];
    const first = scanDocument(await analyseBytes(decoder, png), 'passport').value;
    expect(scanDocument(await analyseBytes(decoder, png), 'passport').value).toStrictEqual(first);
    expect(scanDocument(await analyseBytes(decoder, bmp), 'passport').value).toStrictEqual(first);
    expect(scanDocument(await analyseBytes(decoder, tiff), 'passport').value).toStrictEqual(first);
    const asLicence = scanDocument(await analyseBytes(decoder, png), 'drivers_license').value;
    expect([asLicence.firstName, asLicence.lastName, asLicence.dateOfBirth, asLicence.gender]).toEqual([
      first.firstName,
      first.lastName,
      first.dateOfBirth,
      first.gender,
    ]);
    const other = scanDocument(await analyseBytes(decoder, await faceBytes('someone-else', 'png')), 'passport').value;
    expect(other.documentNumber).not.toBe(first.documentNumber);
  });

  it("agrees with its own portrait: the holder's sex is the face's gender and the age is within 2 years of the estimate", async () => {
    for (let s = 0; s < 6; s++) {
      const image = await analyseBytes(decoder, await documentBytes('passport', `portrait-${s}`, `portrait-person-${s}`));
      const r = scanDocument(image, 'passport').value;
      expect(r.gender).toBe(image.ageGender?.gender === 'female' ? 'F' : 'M');
      expect(Math.abs(ageOn(r.dateOfBirth, DOCUMENT_REFERENCE_DATE) - (image.ageGender?.age ?? 0))).toBeLessThanOrEqual(2);
    }
  });

  it('reads nothing from a blank frame: empty strings, no rawFields, confidence 0', async () => {
    const outcome = scanDocument(await analyseBytes(decoder, await blankBytes()), 'national_id');
    expect(outcome.readable).toBe(false);
    expect(outcome.value).toStrictEqual({
      documentType: 'national_id',
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
    });
    expect(DocumentScanResponseSchema.parse(outcome.value)).toStrictEqual(outcome.value);
  });
});
