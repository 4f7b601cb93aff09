import { describe, expect, it } from 'vitest';
import { DocumentScanResponseSchema } from '../../src/document/document.schemas.ts';
import { scanDocument } from '../../src/document/document.service.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { analysed, balances, expectImageError, fixture, postMultipart, uploadFiles } from '../images/http-helpers.ts';
import { td1Failures, td3Failures } from './independent-mrz-check.ts';

describe('POST /v1/document/scan', () => {
  it('reads the passport fixture (uploaded like the real client does) with a TD3 MRZ whose check digits are right', async () => {
    const sandbox = await testSandbox();
    const [fileKey] = await uploadFiles(sandbox, [{ bytes: fixture('passport.jpg'), contentType: 'image/jpeg' }]);
    const response = await sandbox.call('POST', '/v1/document/scan', { body: { image: fileKey, documentType: 'passport' } });
    expect(response.status, response.text).toBe(200);
    const body = DocumentScanResponseSchema.parse(response.body);
    expect(body).toStrictEqual(scanDocument(await analysed(fixture('passport.jpg')), 'passport').value);
    expect(body.documentType).toBe('passport');
    const lines = (body.mrzData ?? '').split('\n');
    expect(lines.map((line) => line.length)).toEqual([44, 44]);
    expect(td3Failures(lines)).toEqual([]);
    expect(lines[0]?.startsWith(`P<${body.issuingCountry}`)).toBe(true);
    expect(lines[1]?.startsWith(body.documentNumber.padEnd(9, '<'))).toBe(true);
    expect(body.rawFields.MRZ_CODE).toBe(body.mrzData);
    expect(body.fullName).toBe([body.firstName, body.rawFields.MIDDLE_NAME, body.lastName].filter(Boolean).join(' '));
    expect(body.confidence).toBeGreaterThan(0.9);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(response.headers.get('x-sandbox-explain')).toMatch(/^image: storage key .*; requested passport; synthetic identity seeded by pixel hash/);

    // The same picture is the same person, however it is sent.
    const multipart = await postMultipart(sandbox, '/v1/document/scan', { image: fixture('passport.jpg'), documentType: 'Passport' });
    expect(multipart.body).toStrictEqual(body);
  });

  it('reads a national ID with a TD1 MRZ when asked, resolves auto from the proportions, and answers a blank frame as unreadable', async () => {
    const sandbox = await testSandbox();
    const id = await sandbox.call('POST', '/v1/document/scan', { body: { image: fixture('national-id.jpg').toString('base64'), documentType: 'id_card' } });
    expect(id.status).toBe(200);
    expect(id.body.documentType).toBe('national_id');
    const lines = String(id.body.mrzData).split('\n');
    expect(lines.map((line) => line.length)).toEqual([30, 30, 30]);
    expect(td1Failures(lines)).toEqual([]);

    const licence = await postMultipart(sandbox, '/v1/document/scan', { image: fixture('drivers-license.jpg') });
    expect(licence.body.documentType).toBe('drivers_license');
    expect(licence.body.mrzData).toBeUndefined();
    expect(licence.headers.get('x-sandbox-explain')).toContain('auto -> drivers_license');

    const blank = await sandbox.call('POST', '/v1/document/scan', { body: { image: fixture('blank.png').toString('base64url'), documentType: 'auto' } });
    expect(blank.status).toBe(200);
    expect(DocumentScanResponseSchema.parse(blank.body)).toStrictEqual({
      documentType: 'passport',
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
  });

  it('refuses a bad documentType with 400 before decoding or billing, in JSON and multipart', async () => {
    const sandbox = await testSandbox();
    const before = await balances(sandbox);
    const hint = 'Send documentType as one of passport, drivers_license, national_id, auto, or leave it out for auto.';
    const json = await sandbox.call('POST', '/v1/document/scan', { body: { image: 'not even an image', documentType: 'visa' } });
    expectImageError(json, 400, 'documentType "visa" is not supported; use one of passport, drivers_license, national_id, auto');
    expect(json.body.hints).toEqual([hint]);
    expectImageError(
      await postMultipart(sandbox, '/v1/document/scan', { image: fixture('passport.jpg'), documentType: 'residence_permit' }),
      400,
      /^documentType "residence_permit" is not supported/,
    );
    expectImageError(
      await sandbox.call('POST', '/v1/document/scan', { body: { image: fixture('passport.jpg').toString('base64'), documentType: 7 } }),
      400,
      /body field "documentType" has the wrong type/,
    );
    // documentType is checked even for a broke organization: a 400 says what to fix first.
    expect((await sandbox.call('POST', '/v1/document/scan', { key: KEYS.broke, body: { image: 'x', documentType: 'visa' } })).status).toBe(400);
    expect((await sandbox.call('POST', '/v1/document/scan', { key: KEYS.broke, body: { image: 'x', documentType: 'passport' } })).status).toBe(402);
    expect(await balances(sandbox)).toStrictEqual(before);
  });
});
