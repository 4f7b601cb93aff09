import { describe, expect, it } from 'vitest';
import { ageAt, buildAnalysisData, dateOfBirthFor, LIVENESS_THRESHOLD } from '../../src/sessions/analysis-data.ts';
import { applicantPlaceFor, buildApplicantSubmission, buildDeclinedData, buildFailureData, FACE_MATCH_THRESHOLD } from '../../src/sessions/meta-data.ts';
import { type ExtractedText, sessionDataSchemas } from '../../src/sessions/sessions.schemas.ts';
import { forbiddenNullPaths } from './helpers.ts';

const { AnalysisDataSchema, ApplicantSubmissionSchema, FailureDataSchema } = sessionDataSchemas();

const AT = '2026-02-10T15:00:00.000Z';
const person = { firstName: 'Maria', lastName: 'García-López', dateOfBirth: '1988-07-14' };
const field = (fields: ExtractedText[], type: string): string | undefined => fields.find((f) => f.type === type)?.value;

const TITLE_MEMBERS = {
  subjectProperty: [
    'APNFormatted',
    'APNUnformatted',
    'PropertyFullStreetAddress',
    'PropertyCity',
    'PropertyState',
    'PropertyZipCode',
    'PropertyCounty',
    'LegalDescription',
    'PropertyType',
    'LandUseCode',
    'LandUseDescription',
    'Zoning',
    'LotSizeAcres',
    'LotSizeSqFt',
    'BuildingAreaSqFt',
    'Stories',
    'Bathrooms',
    'YearBuilt',
    'Bedrooms',
  ],
  ownerInformation: [
    'Owner1LastName',
    'Owner1FirstNameMiddleInitial',
    'Owner2LastName',
    'Owner2FirstNameMiddleInitial',
    'MailingFullStreetAddress',
    'MailingCity',
    'MailingState',
    'MailingZipCode',
    'VestingOwnershipRights',
    'OwnerOccupied',
  ],
  locationInformation: ['County', 'CensusTract', 'CensusBlock', 'Municipality', 'SchoolDistrict', 'FloodZone', 'FloodPanelNumber', 'Neighborhood'],
  ownerTransferInformation: ['TransferDocumentNumber', 'TransferRecordingDate', 'TransferSaleDate', 'TransferDeedType', 'TransferSalePrice'],
  lastMarketSaleInformation: ['SaleDate', 'SaleDocumentNumber', 'SaleDeedType', 'RecordingDate', 'Buyer', 'Seller', 'SalePrice', 'PricePerSqFt'],
} as const;

describe('analysis data', () => {
  it('passes the face match, liveness and document checks of a passing outcome, for every seed', () => {
    for (let i = 0; i < 40; i++) {
      const analysis = buildAnalysisData('pass', person, [`session-${i}`], { atIso: AT });
      expect(AnalysisDataSchema.parse(analysis)).toEqual(analysis);
      const faces = analysis.compare_faces_data;
      expect(faces?.face_match_confidence).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
      expect(faces?.face_match_result).toBe('MATCH');
      expect(analysis.id_matches_selfie).toBe(true);
      expect(analysis.faceliveness_score).toBeGreaterThanOrEqual(LIVENESS_THRESHOLD);
      expect(analysis.id_analysis_data).toMatchObject({ expiry_date_pass: true, valid_state_pass: true, age_restriction_pass: true });
      expect(analysis.document_risk_data?.overall_risk_score).toBeLessThan(30);
    }
  });

  it('fails the face match of a LOW_FACE_MATCH outcome, for every seed', () => {
    for (let i = 0; i < 40; i++) {
      const analysis = buildAnalysisData('low_face_match', person, [`session-${i}`], { atIso: AT });
      expect(analysis.compare_faces_data?.face_match_confidence).toBeLessThan(FACE_MATCH_THRESHOLD);
      expect(analysis.compare_faces_data?.face_match_result).toBe('NO_MATCH');
      expect(analysis.id_matches_selfie).toBe(false);
      expect(analysis.document_risk_data?.overall_risk_score).toBeGreaterThanOrEqual(50);
    }
  });

  it("reads the applicant's own name and date of birth off every document", () => {
    const analysis = buildAnalysisData('pass', person, ['s1'], { atIso: AT, documents: 3 });
    for (const doc of [analysis.id_analysis_data, analysis.secondary_id_analysis_data, analysis.tertiary_id_analysis_data]) {
      const text = doc?.id_extracted_text ?? [];
      expect(field(text, 'FIRST_NAME')).toBe('MARIA');
      expect(field(text, 'LAST_NAME')).toBe('GARCÍA-LÓPEZ');
      expect(field(text, 'DATE_OF_BIRTH')).toBe('1988-07-14');
      for (const entry of text) expect(entry.confidence).toBeGreaterThan(0);
    }
    const types = analysis.selected_document_types;
    expect(new Set([types?.primary, types?.secondary, types?.tertiary]).size).toBe(3);
    expect(analysis.document_risk_data?.documents_analyzed).toBe(3);
  });

  it('dates documents after the analysis when they pass expiry, before it when they fail', () => {
    const pass = buildAnalysisData('pass', person, ['s2'], { atIso: AT });
    expect(field(pass.id_analysis_data?.id_extracted_text ?? [], 'EXPIRATION_DATE')! > AT.slice(0, 10)).toBe(true);
    const fail = buildAnalysisData('low_face_match', person, ['s2'], { atIso: AT, overrides: { expiryDatePass: false, validStatePass: false } });
    expect(fail.id_analysis_data?.expiry_date_pass).toBe(false);
    expect(fail.id_analysis_data?.valid_state_pass).toBe(false);
    expect(field(fail.id_analysis_data?.id_extracted_text ?? [], 'EXPIRATION_DATE')! < AT.slice(0, 10)).toBe(true);
  });

  it('pins the documented values it is given', () => {
    const analysis = buildAnalysisData('low_face_match', person, ['s3'], { atIso: AT, overrides: { faceMatchConfidence: 42.3 } });
    expect(analysis.compare_faces_data).toEqual({ face_match_confidence: 42.3, face_match_result: 'NO_MATCH' });
  });

  it('fails the age restriction of an applicant under 18', () => {
    const minor = buildAnalysisData('pass', { ...person, dateOfBirth: '2010-03-01' }, ['s4'], { atIso: AT });
    expect(minor.id_analysis_data?.age_restriction_pass).toBe(false);
    expect(ageAt('2008-02-10', AT)).toBe(18);
    expect(ageAt('2008-02-11', AT)).toBe(17);
  });

  it('draws an adult date of birth from the seed when none is known', () => {
    const dob = dateOfBirthFor({ firstName: 'A', lastName: 'B' }, ['s5'], AT);
    expect(dob).toBe(dateOfBirthFor({ firstName: 'A', lastName: 'B' }, ['s5'], AT));
    expect(ageAt(dob, AT)).toBeGreaterThanOrEqual(21);
  });

  it('is the same for the same seed and differs for another', () => {
    const a = buildAnalysisData('pass', person, ['same'], { atIso: AT });
    expect(JSON.stringify(buildAnalysisData('pass', person, ['same'], { atIso: AT }))).toBe(JSON.stringify(a));
    expect(buildAnalysisData('pass', person, ['other'], { atIso: AT })).not.toEqual(a);
  });

  it('has a clean screening with all nine adverse-media categories', () => {
    const analysis = buildAnalysisData('pass', person, ['s6'], { atIso: AT });
    expect(analysis.pep_sanctions_data).toEqual({ peps: [], sanctions: [], both: [] });
    expect(analysis.adverse_media_data?.total_hits).toBe(0);
    expect(Object.keys(analysis.adverse_media_data?.news_exposures ?? {})).toHaveLength(9);
    expect(analysis.custom_form_data?.map((answer) => answer.type)).toEqual(['text', 'select', 'date', 'checkbox']);
  });

  it("finds the applicant's property with every PascalCase member of the 'Title check result'", () => {
    const analysis = buildAnalysisData('pass', person, ['s7'], { atIso: AT });
    const title = analysis.title_search_data;
    expect(title?.status).toBe('found');
    for (const [group, members] of Object.entries(TITLE_MEMBERS)) {
      expect(Object.keys((title as unknown as Record<string, object>)[group] ?? {})).toEqual([...members]);
    }
    expect(title?.ownerInformation?.Owner1LastName).toBe('GARCÍA-LÓPEZ');
    expect(title?.lastMarketSaleInformation?.Buyer).toBe('GARCÍA-LÓPEZ, MARIA');
    const property = title?.subjectProperty;
    const sale = title?.lastMarketSaleInformation;
    expect(sale?.PricePerSqFt).toBeCloseTo((sale?.SalePrice ?? 0) / (property?.BuildingAreaSqFt ?? 1), 2);
    expect(title?.ownerTransferInformation?.TransferSalePrice).toBe(sale?.SalePrice);
    expect(property?.LotSizeSqFt).toBe(Math.round((property?.LotSizeAcres ?? 0) * 43560));
    expect(property?.PropertyState).toBe(applicantPlaceFor(['s7']).stateCode);
  });

  it("prints the title search's property address on every ID that carries an address", () => {
    let checked = 0;
    for (let i = 0; i < 10; i++) {
      const analysis = buildAnalysisData('pass', person, [`addr-${i}`], { atIso: AT, documents: 3 });
      const property = analysis.title_search_data?.subjectProperty;
      for (const doc of [analysis.id_analysis_data, analysis.secondary_id_analysis_data, analysis.tertiary_id_analysis_data]) {
        const text = doc?.id_extracted_text ?? [];
        if (field(text, 'ADDRESS') === undefined) continue; // passports carry no address
        expect(field(text, 'ADDRESS')).toBe(property?.PropertyFullStreetAddress);
        expect(field(text, 'ZIP_CODE_IN_ADDRESS')).toBe(property?.PropertyZipCode);
        expect(field(text, 'STATE_IN_ADDRESS')).toBe(property?.PropertyState);
        checked++;
      }
    }
    expect(checked).toBe(20);
  });

  it('adds phone checks only when a phone is on file', () => {
    expect(buildAnalysisData('pass', person, ['s8'], { atIso: AT }).phone_checks).toBeUndefined();
    const withPhone = buildAnalysisData('pass', { ...person, phone: '+14155550123' }, ['s8'], { atIso: AT });
    expect(withPhone.phone_checks?.ownership?.outcome).toBe('MATCH');
    expect(withPhone.phone_checks?.trust?.tripped).toBe(false);
  });

  it('has no null outside the title search and no undefined anywhere', () => {
    for (const outcome of ['pass', 'low_face_match'] as const) {
      const analysis = buildAnalysisData(outcome, { ...person, phone: '+14155550123' }, ['s9'], { atIso: AT, documents: 3 });
      expect(forbiddenNullPaths(analysis)).toEqual([]);
    }
  });
});

describe('meta_data builders', () => {
  it('records a submission from the same place the analysis uses, viewed before it was submitted', () => {
    const submission = buildApplicantSubmission(['s1'], { createdAtIso: '2000-01-01T00:00:00.000Z', submittedAtIso: AT });
    expect(ApplicantSubmissionSchema.parse(submission)).toEqual(submission);
    const place = applicantPlaceFor(['s1']);
    expect(submission.applicantSubmissionLocation).toBe(`${place.city}, ${place.subdivision}, United States`);
    expect(submission.applicantSubmissionLocationDetails).toMatchObject({
      country: 'United States',
      countryIsoCode: 'US',
      continent: 'North America',
      subdivision: place.subdivision,
      timeZone: place.timeZone,
    });
    expect(Date.parse(submission.applicantViewTime)).toBeLessThan(Date.parse(AT));
    expect(submission.applicantSubmissionIp).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$/);
  });

  it('never puts the view before the session existed: a submission right after creation was viewed at creation', () => {
    const submission = buildApplicantSubmission(['s1'], { createdAtIso: AT, submittedAtIso: AT });
    expect(submission.applicantViewTime).toBe(AT);
  });

  it('builds declinedData for a LOW_FACE_MATCH decline', () => {
    expect(buildDeclinedData({ score: 42.3, declinedAtIso: AT })).toEqual({
      declined: true,
      score: 42.3,
      declinedAt: AT,
      reason: {
        code: 'LOW_FACE_MATCH',
        detail: 'Face match confidence 42.3 is below the required 80: the selfie does not match the photo on the primary ID',
        slot: 'PRIMARY',
        severity: 'CRITICAL',
      },
    });
  });

  it('builds failureData with attempts in order, the last at the given instant', () => {
    const data = buildFailureData(
      { count: 3, lastFailedAtIso: AT, createdAtIso: '2000-01-01T00:00:00.000Z', reasons: ['OCR_NAME_MISSING'], slots: ['PRIMARY', 'SECONDARY'] },
      ['s1'],
    );
    expect(FailureDataSchema.parse(data)).toEqual(data);
    expect(data.failedAttempts).toBe(3);
    expect(data.attempts.map((a) => [a.reason, a.slot])).toEqual([
      ['OCR_NAME_MISSING', 'PRIMARY'],
      ['OCR_NAME_MISSING', 'SECONDARY'],
      ['OCR_NAME_MISSING', 'PRIMARY'],
    ]);
    expect(data.attempts[2]?.failedAt).toBe(AT);
    const times = data.attempts.map((a) => Date.parse(a.failedAt));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(new Set(times).size).toBe(3);
  });
});
