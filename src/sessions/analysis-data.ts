/**
 * Synthetic `analysis_data` of a hosted session, filled as a real run would fill it: the ID documents'
 * extracted text (the applicant's own name and date of birth), face detection on each ID, the selfie
 * comparison, liveness, PEP/sanctions and adverse-media screening, document risk, the chosen document
 * types, the custom form's answers, a title search of the applicant's property ('Title check result',
 * status found) and, when a phone is on file, the phone checks.
 *
 * Every value is drawn from seed parts, and the values agree with the outcome:
 * - `pass`: face match at or above the threshold (MATCH), id_matches_selfie true, live selfie, low
 *   document risk, unexpired documents from a valid state.
 * - `low_face_match`: face match below the threshold (NO_MATCH), id_matches_selfie false, high document
 *   risk — the analysis behind an AI auto-decline with reason LOW_FACE_MATCH.
 *
 * LIMITATIONS:
 * - The sub-objects' full field reference is not shown in the spec; extracted-text types follow the
 *   usual ID-analysis vocabulary (FIRST_NAME, DATE_OF_BIRTH, EXPIRATION_DATE, …), dates are YYYY-MM-DD,
 *   confidences are 0-100.
 * - Screening is always clean here (no PEP, sanctions or adverse-media hits): the screening endpoints'
 *   magic values are where hits are simulated.
 */
import { fakerFrom, rngFrom, type Rng } from '../platform/random/random.ts';
import { applicantPlaceFor, FACE_MATCH_THRESHOLD, type ApplicantPlace } from './meta-data.ts';
import { ADVERSE_MEDIA_CATEGORIES, type AnalysisData, type ExtractedText, type IdAnalysisData, type TitleCheckFound } from './sessions.schemas.ts';
import { round } from '../platform/numbers.ts';
import { ageAt } from '../workflows/api.ts';

export type AnalysisOutcome = 'pass' | 'low_face_match';

/** The liveness score below which a selfie is not considered live (FACE_LIVENESS default, 70). */
export const LIVENESS_THRESHOLD = 70;
/** The minimum age of the default ID_VERIFICATION configuration. */
export const MINIMUM_AGE = 18;

/** What the analysis knows about the applicant. */
export interface AnalysisPerson {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD; drawn from the seed (age 21-72) when not given. */
  dateOfBirth?: string;
  phone?: string;
}

export interface AnalysisOptions {
  /** When the analysis ran (the submission instant); document dates are relative to it. */
  atIso: string;
  /** How many ID documents were captured: 1 (primary), 2 (+ secondary) or 3 (+ tertiary). */
  documents?: 1 | 2 | 3;
  /** Pin values the scenario documents (e.g. test_rejected's 42.3). */
  overrides?: {
    faceMatchConfidence?: number;
    expiryDatePass?: boolean;
    validStatePass?: boolean;
    facelivenessScore?: number;
  };
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;

/** The applicant's date of birth: given, or drawn from the seed so that they are 21-72 at `atIso`. */
export function dateOfBirthFor(person: AnalysisPerson, seedParts: readonly (string | number)[], atIso: string): string {
  if (person.dateOfBirth !== undefined) return person.dateOfBirth;
  const rng = rngFrom('date-of-birth', ...seedParts);
  const at = new Date(atIso);
  const year = at.getUTCFullYear() - rng.int(22, 72);
  const dayOfYear = rng.int(0, 364);
  return isoDate(Date.UTC(year, 0, 1) + dayOfYear * DAY);
}

export { ageAt };

type DocumentKind = 'driver-license-us' | 'passport-us' | 'national-id-us';

const PRIMARY_TYPES: readonly DocumentKind[] = ['driver-license-us', 'driver-license-us', 'passport-us', 'national-id-us'];

/** Documents in capture order: the primary, then others of a different kind. */
function documentKinds(rng: Rng, count: number): DocumentKind[] {
  const primary = rng.pick(PRIMARY_TYPES);
  const others = (['driver-license-us', 'passport-us', 'national-id-us'] as const).filter((kind) => kind !== primary);
  return [primary, ...rng.sample(others, 2)].slice(0, count);
}

interface DocumentFacts {
  kind: DocumentKind;
  person: Required<Pick<AnalysisPerson, 'firstName' | 'lastName' | 'dateOfBirth'>>;
  place: ApplicantPlace;
  atMs: number;
  expiryPass: boolean;
  validStatePass: boolean;
  ageAt: number;
  quality: 'good' | 'poor';
}

/** A territory that is neither a US state nor a Canadian province: an ID from there fails valid_state. */
const INVALID_STATE = { code: 'GU', name: 'GUAM', city: 'HAGATNA', zip: '96910' } as const;

/** The applicant's home address, shared by the ID documents and the title search. */
export interface HomeAddress {
  street: string;
  zip: string;
}

function idAnalysis(facts: DocumentFacts, rng: Rng, home: HomeAddress): IdAnalysisData {
  const confidence = (): number => round(facts.quality === 'good' ? rng.float(93, 99.9) : rng.float(71, 92), 2);
  const expiry = facts.expiryPass ? facts.atMs + rng.int(200, 6 * 365) * DAY : facts.atMs - rng.int(30, 700) * DAY;
  const issued = Math.min(expiry, facts.atMs) - rng.int(3, 8) * 365 * DAY;
  const state = facts.validStatePass
    ? { code: facts.place.stateCode, name: facts.place.subdivision.toUpperCase(), city: facts.place.city.toUpperCase(), zip: home.zip }
    : INVALID_STATE;
  const text = (type: string, value: string): ExtractedText => ({ type, value, confidence: confidence() });
  const common = [
    text('FIRST_NAME', facts.person.firstName.toUpperCase()),
    text('LAST_NAME', facts.person.lastName.toUpperCase()),
    text('DATE_OF_BIRTH', facts.person.dateOfBirth),
  ];
  let fields: ExtractedText[];
  if (facts.kind === 'passport-us') {
    fields = [
      ...common,
      text('DOCUMENT_NUMBER', String(rng.int(500_000_000, 599_999_999))),
      text('EXPIRATION_DATE', isoDate(expiry)),
      text('DATE_OF_ISSUE', isoDate(issued)),
      text('PLACE_OF_BIRTH', `${state.name}, U.S.A.`),
      text('ID_TYPE', 'PASSPORT'),
    ];
  } else {
    const letter = String.fromCharCode(65 + rng.int(0, 25));
    fields = [
      ...common,
      text('DOCUMENT_NUMBER', `${letter}${String(rng.int(1_000_000, 9_999_999))}`),
      text('EXPIRATION_DATE', isoDate(expiry)),
      text('DATE_OF_ISSUE', isoDate(issued)),
      text('ADDRESS', home.street.toUpperCase()),
      text('CITY_IN_ADDRESS', state.city),
      text('STATE_IN_ADDRESS', state.code),
      text('ZIP_CODE_IN_ADDRESS', state.zip),
      text('STATE_NAME', state.name),
      text('ID_TYPE', facts.kind === 'driver-license-us' ? 'DRIVER LICENSE FRONT' : 'STATE IDENTIFICATION CARD'),
    ];
  }
  const width = round(rng.float(0.18, 0.26), 2);
  return {
    detect_face_data: {
      face_detected: true,
      confidence: round(facts.quality === 'good' ? rng.float(98, 99.99) : rng.float(90, 97.5), 2),
      bounding_box: { top: round(rng.float(0.2, 0.35), 2), left: round(rng.float(0.05, 0.12), 2), width, height: round(width * rng.float(1.25, 1.4), 2) },
    },
    id_extracted_text: fields,
    expiry_date_pass: facts.expiryPass,
    valid_state_pass: facts.validStatePass,
    age_restriction_pass: facts.ageAt >= MINIMUM_AGE,
  };
}

/**
 * The analysis of a finished session, consistent with `outcome`. `seedParts` fix every drawn value
 * (use the session id), so the same session always gets the same analysis.
 */
export function buildAnalysisData(
  outcome: AnalysisOutcome,
  person: AnalysisPerson,
  seedParts: readonly (string | number)[],
  options: AnalysisOptions,
): AnalysisData {
  const rng = rngFrom('analysis-data', outcome, ...seedParts);
  const faker = fakerFrom('en_US', 'analysis-data', ...seedParts);
  const atMs = Date.parse(options.atIso);
  const place = applicantPlaceFor(seedParts);
  const dateOfBirth = dateOfBirthFor(person, seedParts, options.atIso);
  const age = ageAt(dateOfBirth, options.atIso);
  const passes = outcome === 'pass';
  const overrides = options.overrides ?? {};
  const home: HomeAddress = { street: faker.location.streetAddress(), zip: `${place.zipPrefix}${String(rng.int(10, 99))}` };

  const faceMatch = overrides.faceMatchConfidence ?? round(passes ? rng.float(86, 99.4) : rng.float(18, 64), 1);
  const liveness = overrides.facelivenessScore ?? round(passes ? rng.float(84, 99.2) : rng.float(72, 94), 1);
  const kinds = documentKinds(rng, options.documents ?? 1);
  const docs = kinds.map((kind, index) =>
    idAnalysis(
      {
        kind,
        person: { firstName: person.firstName, lastName: person.lastName, dateOfBirth },
        place,
        atMs,
        // Only the primary document carries the scenario's document failures.
        expiryPass: index === 0 ? (overrides.expiryDatePass ?? true) : true,
        validStatePass: index === 0 ? (overrides.validStatePass ?? true) : true,
        ageAt: age,
        quality: passes ? 'good' : 'poor',
      },
      rng,
      home,
    ),
  );

  const analysis: AnalysisData = { id_analysis_data: docs[0] as IdAnalysisData };
  if (docs[1] !== undefined) analysis.secondary_id_analysis_data = docs[1];
  if (docs[2] !== undefined) analysis.tertiary_id_analysis_data = docs[2];
  analysis.compare_faces_data = {
    face_match_confidence: faceMatch,
    face_match_result: faceMatch >= FACE_MATCH_THRESHOLD ? 'MATCH' : 'NO_MATCH',
  };
  analysis.id_matches_selfie = faceMatch >= FACE_MATCH_THRESHOLD;
  analysis.faceliveness_score = liveness;
  analysis.pep_sanctions_data = { peps: [], sanctions: [], both: [] };
  type Exposures = NonNullable<AnalysisData['adverse_media_data']>['news_exposures'];
  const exposures = {} as Exposures;
  for (const category of ADVERSE_MEDIA_CATEGORIES) exposures[category] = { hits: 0, articles: [] };
  analysis.adverse_media_data = { total_hits: 0, news_exposures: exposures };
  const failedChecks = docs.filter((doc) => !doc.expiry_date_pass || !doc.valid_state_pass).length;
  analysis.document_risk_data = {
    documents_analyzed: docs.length,
    overall_risk_score: passes && failedChecks === 0 ? rng.int(3, 22) : Math.min(100, rng.int(58, 86) + failedChecks * 6),
  };
  const types: NonNullable<AnalysisData['selected_document_types']> = { primary: kinds[0] as string };
  if (kinds[1] !== undefined) types.secondary = kinds[1];
  if (kinds[2] !== undefined) types.tertiary = kinds[2];
  analysis.selected_document_types = types;
  analysis.custom_form_data = [
    { question: 'What is your current occupation?', answer: faker.person.jobTitle(), type: 'text' },
    {
      question: 'What is the main source of the funds you will use?',
      answer: rng.pick(['Employment income', 'Savings', 'Business income', 'Investments', 'Pension']),
      type: 'select',
    },
    { question: 'Date you moved to your current address', answer: isoDate(atMs - rng.int(200, 3000) * DAY), type: 'date' },
    { question: 'I confirm the information I provided is accurate', answer: 'true', type: 'checkbox' },
  ];
  analysis.title_search_data = buildTitleSearchFound(person, place, home, seedParts, options.atIso);
  if (person.phone !== undefined) {
    const checkedAt = new Date(atMs - rng.int(5, 60) * 1000).toISOString();
    const firstNameScore = rng.int(92, 100);
    const lastNameScore = rng.int(94, 100);
    analysis.phone_checks = {
      ownership: {
        outcome: 'MATCH',
        strictness: 'medium',
        threshold: 80,
        statusMessage: 'Response from one supplier',
        checkedAt,
        nameScore: Math.round((firstNameScore + lastNameScore) / 2),
        firstNameScore,
        lastNameScore,
      },
      trust: {
        tripped: false,
        tripReasons: [],
        simSwappedRisk: 'LOW_RISK',
        forwardingRisk: 'NO_RISK',
        sensitivity: 'medium',
        statusMessage: 'Response from one supplier',
        checkedAt,
      },
    };
  }
  return analysis;
}

/**
 * A title search that found the applicant's home: they are owner 1 (county records spell names
 * LAST / FIRST M), the mailing address is the property, the last transfer is the last market sale, and
 * the price per square foot is the sale price over the building area.
 */
export function buildTitleSearchFound(
  person: Pick<AnalysisPerson, 'firstName' | 'lastName'>,
  place: ApplicantPlace,
  home: HomeAddress,
  seedParts: readonly (string | number)[],
  atIso: string,
): TitleCheckFound {
  const rng = rngFrom('title-search', ...seedParts);
  const faker = fakerFrom('en_US', 'title-search', ...seedParts);
  const { street, zip } = home;
  const county = place.county;
  const apn = `${rng.int(100, 999)}${rng.int(100, 999)}${rng.int(10, 99)}${rng.int(100, 999)}`;
  const acres = round(rng.float(0.08, 0.6), 2);
  const area = rng.int(900, 3600);
  const saleMs = Date.parse(atIso) - rng.int(400, 5000) * DAY;
  const saleDate = isoDate(saleMs);
  const recordingDate = isoDate(saleMs + rng.int(3, 21) * DAY);
  const price = rng.int(180, 1400) * 1000;
  const documentNumber = `${saleDate.slice(0, 4)}${String(rng.int(100000, 999999))}`;
  const middle = String.fromCharCode(65 + rng.int(0, 25));
  const coOwner = rng.chance(0.5) ? faker.person.firstName() : null;
  const seller = `${faker.person.lastName().toUpperCase()}, ${faker.person.firstName().toUpperCase()}`;
  const owner = `${person.lastName.toUpperCase()}, ${person.firstName.toUpperCase()}`;
  const propertyType = rng.pick(['Single Family Residence', 'Condominium', 'Townhouse'] as const);
  return {
    status: 'found',
    subjectProperty: {
      APNFormatted: `${apn.slice(0, 3)}-${apn.slice(3, 6)}-${apn.slice(6, 8)}-${apn.slice(8)}`,
      APNUnformatted: apn,
      PropertyFullStreetAddress: street.toUpperCase(),
      PropertyCity: place.city.toUpperCase(),
      PropertyState: place.stateCode,
      PropertyZipCode: zip,
      PropertyCounty: county.toUpperCase(),
      LegalDescription: `LOT ${rng.int(1, 60)} BLK ${rng.int(1, 30)} ${faker.location.street().toUpperCase()} SUBDIVISION`,
      PropertyType: propertyType,
      LandUseCode: propertyType === 'Condominium' ? '1004' : '1001',
      LandUseDescription: propertyType === 'Condominium' ? 'CONDOMINIUM' : 'SINGLE FAMILY RESIDENTIAL',
      Zoning: rng.pick(['R-1', 'R-2', 'RS-7', 'R-3']),
      LotSizeAcres: acres,
      LotSizeSqFt: Math.round(acres * 43560),
      BuildingAreaSqFt: area,
      Stories: rng.pick([1, 1.5, 2, 3]),
      Bathrooms: rng.pick([1, 1.5, 2, 2.5, 3]),
      YearBuilt: rng.int(1925, 2019),
      Bedrooms: rng.int(1, 5),
    },
    ownerInformation: {
      Owner1LastName: person.lastName.toUpperCase(),
      Owner1FirstNameMiddleInitial: `${person.firstName.toUpperCase()} ${middle}`,
      Owner2LastName: coOwner === null ? null : person.lastName.toUpperCase(),
      Owner2FirstNameMiddleInitial: coOwner === null ? null : coOwner.toUpperCase(),
      MailingFullStreetAddress: street.toUpperCase(),
      MailingCity: place.city.toUpperCase(),
      MailingState: place.stateCode,
      MailingZipCode: zip,
      VestingOwnershipRights: coOwner === null ? 'SOLE OWNER' : 'JOINT TENANTS',
      OwnerOccupied: 'Y',
    },
    locationInformation: {
      County: county.toUpperCase(),
      CensusTract: `${rng.int(1, 9999)}.${String(rng.int(0, 99)).padStart(2, '0')}`,
      CensusBlock: String(rng.int(1000, 4999)),
      Municipality: place.city.toUpperCase(),
      SchoolDistrict: `${place.city.toUpperCase()} UNIFIED SCHOOL DISTRICT`,
      FloodZone: rng.pick(['X', 'X', 'AE', 'A']),
      FloodPanelNumber: `${rng.int(10000, 99999)}C${String(rng.int(100, 999)).padStart(4, '0')}`,
      Neighborhood: rng.chance(0.8) ? faker.location.street().toUpperCase() : null,
    },
    ownerTransferInformation: {
      TransferDocumentNumber: documentNumber,
      TransferRecordingDate: recordingDate,
      TransferSaleDate: saleDate,
      TransferDeedType: 'GRANT DEED',
      TransferSalePrice: price,
    },
    lastMarketSaleInformation: {
      SaleDate: saleDate,
      SaleDocumentNumber: documentNumber,
      SaleDeedType: 'GRANT DEED',
      RecordingDate: recordingDate,
      Buyer: owner,
      Seller: seller,
      SalePrice: price,
      PricePerSqFt: round(price / area, 2),
    },
  };
}
