import { describe, expect, it } from 'vitest';
import { PepSanctionsResponseSchema } from '../../src/screening/pep-sanctions.schemas.ts';
import { TitleCheckResponseSchema } from '../../src/screening/title-check.schemas.ts';
import { PEP_SANCTIONS_MAGIC_NAMES, TITLE_CHECK_MAGIC_ADDRESSES } from '../../src/screening/magic-values.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { balanceOf } from './http-helpers.ts';

const PEP = '/v1/screening/pep-sanctions';
const TITLE = '/v1/screening/title-check';
const SOURCES = [
  'sandbox-pep-global',
  'sandbox-pep-relatives-associates',
  'sandbox-ofac-like-sdn',
  'sandbox-eu-consolidated',
  'sandbox-un-security-council',
  'sandbox-uk-hmt',
];

describe('POST /v1/screening/pep-sanctions', () => {
  const expectedGroups: Record<string, { group: 'peps' | 'sanctions' | 'both' | null; match?: object }> = {
    'Ottoline Brackenbury': {
      group: 'peps',
      match: { name: 'Ottoline BRACKENBURY', country: 'GB', dateOfBirth: '1961-07-14', confidence: 1, datasets: ['Sandbox Global PEP List'] },
    },
    'Radomir Kestrelov': {
      group: 'sanctions',
      match: {
        name: 'Radomir KESTRELOV',
        country: 'BG',
        dateOfBirth: '1966-09-30',
        confidence: 1,
        datasets: ['Sandbox OFAC-like SDN List', 'Sandbox EU Consolidated Financial Sanctions List', 'Sandbox UK HMT Consolidated List'],
      },
    },
    'Emile Vautrin-Lacoste': {
      group: 'both',
      match: {
        name: 'Émile VAUTRIN-LACOSTE',
        country: 'FR',
        dateOfBirth: '1955-11-23',
        confidence: 1,
        datasets: ['Sandbox Global PEP List', 'Sandbox EU Consolidated Financial Sanctions List', 'Sandbox UN Security Council Consolidated List'],
      },
    },
    'Dorothea Brackenbury': { group: null },
    'Radomir Kestrelova': {
      group: 'sanctions',
      match: { name: 'Radomir KESTRELOV', country: 'BG', dateOfBirth: null, confidence: 0.91, datasets: ['Sandbox UK HMT Consolidated List'] },
    },
    'Jane Doe': { group: null },
  };

  for (const magic of PEP_SANCTIONS_MAGIC_NAMES) {
    it(`answers ${magic.outcome} for magic name ${magic.query.firstName} ${magic.query.lastName} and charges one token`, async () => {
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const answer = await sandbox.call('POST', PEP, { body: { email: 'screen@example.com', ...magic.query } });
      expect(answer.status).toBe(200);
      const body = PepSanctionsResponseSchema.parse(answer.body);
      const expected = expectedGroups[`${magic.query.firstName} ${magic.query.lastName}`];
      if (!expected) throw new Error('no expectation for this magic row');
      const groups = { peps: [] as object[], sanctions: [] as object[], both: [] as object[] };
      if (expected.group && expected.match) groups[expected.group] = [expected.match];
      expect(body).toEqual({ totalMatches: expected.group ? 1 : 0, ...groups, searchedSources: SOURCES });
      expect(answer.headers.get('x-sandbox-explain')).toContain(`magic value: firstName ${magic.query.firstName}, lastName ${magic.query.lastName}`);
      expect(await balanceOf(sandbox)).toBe(before - 1);
    });
  }

  it('accepts a body without email (the real client may omit it)', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', PEP, { body: { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' } });
    expect(answer.status).toBe(200);
    expect(answer.body.totalMatches).toBe(0);
  });

  it('screens for an organization with an empty balance (the spec lists no 402 here), spending nothing', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', PEP, { key: KEYS.broke, body: { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' } });
    expect(answer.status).toBe(200);
    expect(await balanceOf(sandbox, 'org_broke')).toBe(0);
  });

  it('answers 400 naming the field for a missing dateOfBirth and an unreal date, billing nothing', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const missing = await sandbox.call('POST', PEP, { body: { firstName: 'Jane', lastName: 'Doe' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Invalid request: body field dateOfBirth is required: send a date as YYYY-MM-DD, e.g. 1980-04-23.');
    const unreal = await sandbox.call('POST', PEP, { body: { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-13-01' } });
    expect(unreal.status).toBe(400);
    expect(unreal.body.error).toBe('Invalid request: body field dateOfBirth 1990-13-01 is not a real calendar date: check the month and day.');
    const blankName = await sandbox.call('POST', PEP, { body: { firstName: '   ', lastName: 'Doe', dateOfBirth: '1990-01-01' } });
    expect(blankName.status).toBe(400);
    expect(blankName.body.error).toBe('Invalid request: body field firstName must contain a non-space character.');
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('answers 403 to a sandbox key (a POST) and 401 without a key', async () => {
    const sandbox = await testSandbox();
    const body = { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' };
    expect((await sandbox.call('POST', PEP, { key: KEYS.sandbox, body })).status).toBe(403);
    expect((await sandbox.call('POST', PEP, { key: null, body })).status).toBe(401);
  });
});

describe('POST /v1/screening/title-check', () => {
  const applicant = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' };

  for (const magic of TITLE_CHECK_MAGIC_ADDRESSES) {
    it(`answers 200 with status ${magic.status} for magic address '${magic.address}' and charges one token`, async () => {
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const answer = await sandbox.call('POST', TITLE, { body: { ...applicant, address: magic.address } });
      expect(answer.status).toBe(200);
      const body = TitleCheckResponseSchema.parse(answer.body);
      expect(body.status).toBe(magic.status);
      switch (body.status) {
        case 'found':
          expect(body.ownerInformation?.Owner1LastName).toBe('DOE');
          expect(body.ownerInformation?.Owner1FirstNameMiddleInitial).toBe('JANE');
          expect(body.subjectProperty?.PropertyFullStreetAddress).toBe('1 SANDBOX WAY');
          expect(body.subjectProperty?.PropertyState).toBe('IL');
          expect(body.subjectProperty?.PropertyZipCode).toBe('62701');
          break;
        case 'multiple_properties':
          expect(body.availableUnits).toEqual(['1A', '1B', '2A', '2B']);
          expect(body.properties.map((property) => property.apartmentOrUnit)).toEqual(['1A', '1B', '2A', '2B']);
          expect(body.message).toBe('Multiple properties found at this address. Specify a unit to narrow the search.');
          break;
        case 'not_found':
          expect(body).toEqual({ status: 'not_found', message: 'No matching property found.' });
          break;
        case 'unsupported_region':
          expect(body).toEqual({ status: 'unsupported_region', message: 'Title search is currently available for US addresses only.' });
          break;
      }
      expect(answer.headers.get('x-sandbox-explain')).toContain(`magic value: address '${magic.address}'`);
      expect(await balanceOf(sandbox)).toBe(before - 1);
    });
  }

  it('answers 400 naming the field when address or email is missing, billing nothing', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const noAddress = await sandbox.call('POST', TITLE, { body: applicant });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.error).toBe('Invalid request: body field address is required: send the US property address, 1-500 characters.');
    const noEmail = await sandbox.call('POST', TITLE, { body: { firstName: 'Jane', lastName: 'Doe', address: '1 Sandbox Way, Springfield, IL 62701' } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error).toBe('Invalid request: body field email is required: send an e-mail address such as jane.doe@example.com.');
    const longAddress = await sandbox.call('POST', TITLE, { body: { ...applicant, address: 'x'.repeat(501) } });
    expect(longAddress.status).toBe(400);
    expect(longAddress.body.error).toBe('Invalid request: body field address is too long: send at most 500 characters.');
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('answers 402 with an empty balance', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', TITLE, { key: KEYS.broke, body: { ...applicant, address: '404 Nowhere Lane, Springfield, IL 62701' } });
    expect(answer.status).toBe(402);
  });
});
