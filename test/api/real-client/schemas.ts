/**
 * The response schemas the service's real TypeScript client validates, written from
 * published facts about that client ONLY (§2, §3a, §4, §6.2-6.10). Nothing here is imported from
 * src/: like the independent MRZ check, the point is a second reading of the contract that can disagree
 * with the sandbox's own schemas.
 *
 * Semantics copied from the client (zod v4, facts §2):
 * - plain (strip) objects everywhere, never `.strict()`: unknown keys are dropped, not refused;
 * - "opt" keys are `.optional()` only, so JSON `null` throws (the #1 trap);
 * - "nullable" keys are `.nullable()` without `.optional()`, so the key must be present;
 * - "opt+nullable" keys are `.nullable().optional()`;
 * - `z.uuid()` (RFC version/variant nibbles) where the client checks UUIDs, `z.iso.datetime()` (must end
 *   in Z) only where the facts say "ISO datetime with Z";
 * - the adverse-media `exposuresByCategory` record is keyed by an enum, so all nine keys must be there.
 */
import { z } from 'zod';

// ─── Shared pieces ──────────────────────────────────────────────────────────────────────────────────

const str = z.string();
const int = z.number().int();
const unit = z.number().min(0).max(1);
const percent = z.number().min(0).max(100);
const anyObject = z.record(z.string(), z.unknown());

/** `links` items of session and credit-check creation: rel and href required, description optional. */
const LinkSchema = z.object({ rel: str, href: str, description: str.optional() });

// ─── §6.2 Sessions ──────────────────────────────────────────────────────────────────────────────────

export const UPLOAD_TYPES = [
  'id_front',
  'id_back',
  'secondary_id_front',
  'secondary_id_back',
  'tertiary_id_front',
  'tertiary_id_back',
  'selfie_front',
] as const;

export const SessionRecordSchema = z.object({
  id: str,
  organization_id: str,
  user_id: str,
  sender_user_id: str,
  created_at: str,
  updated_at: str,
  status: z.string().min(1),
  type: z.string().min(1),
  session_progress: z.string().min(1),
  external_id: str.optional(),
  permalink_id: str.optional(),
  submitted_at: str.optional(),
  deep_sign_id: str.optional(),
  face_liveness_session_id: str.optional(),
  workflow_id: str.optional(),
  bank_statement_request_id: str.optional(),
  redirect_url: str.optional(),
  expires_at: str.optional(),
  location: z
    .union([str, z.looseObject({ country: str.optional() })])
    .nullable()
    .optional(),
  auto_decision: z.object({ state: z.enum(['pending', 'completed', 'skipped']) }).optional(),
  decision_source: z.enum(['AUTO_APPROVE', 'DECLINED']).optional(),
  workflow_steps: z.array(str).optional(),
  meta_data: anyObject.optional(),
  analysis_data: anyObject.optional(),
  uploads: z.record(z.string(), z.boolean()).optional(),
});

export const SessionCreateResponseSchema = z.object({
  id: str,
  session_url: str,
  externalId: str.optional(),
  expires_at: str.optional(),
  links: z.array(LinkSchema),
});

export const SessionRetrieveResponseSchema = z.object({
  session_record: SessionRecordSchema,
  resource_links: z.record(z.string(), z.string()),
  user: anyObject.optional(),
  sender_user: anyObject.optional(),
});

export const SessionListResponseSchema = z.object({
  sessions: z.array(SessionRecordSchema),
  next_token: str.nullable(),
});

export const SessionUpdateStatusResponseSchema = z.object({ session_record: SessionRecordSchema });

export const SessionUploadUrlsResponseSchema = z.object({
  signed_urls: z.array(z.object({ file_key: str, slot: str, upload_type: z.enum(UPLOAD_TYPES).optional(), upload_url: str })),
});

// ─── §3a Generic presign ────────────────────────────────────────────────────────────────────────────

export const PresignResponseSchema = z.object({ uploads: z.array(z.object({ uploadUrl: str, fileKey: str })) });

// ─── §6.3 Document, face, identity ──────────────────────────────────────────────────────────────────

const documentFields = {
  documentType: str,
  fullName: str,
  firstName: str,
  lastName: str,
  dateOfBirth: str,
  gender: str,
  nationality: str,
  documentNumber: str,
  expirationDate: str,
  issuingCountry: str,
  address: str.optional(),
};

export const DocumentScanResponseSchema = z.object({
  ...documentFields,
  mrzData: str.optional(),
  rawFields: z.record(z.string(), z.string()),
  confidence: unit,
});

export const FaceDetectResponseSchema = z.object({
  faceDetected: z.boolean(),
  confidence: unit,
  boundingBox: z.object({ top: z.number(), left: z.number(), width: z.number(), height: z.number() }).optional(),
  landmarks: z.array(z.object({ type: str, x: z.number(), y: z.number() })).optional(),
});

export const FaceCompareResponseSchema = z.object({
  isMatch: z.boolean(),
  confidence: percent,
  threshold: z.number(),
  sourceFaceDetected: z.boolean(),
  targetFaceDetected: z.boolean(),
});

export const FaceEstimateAgeResponseSchema = z.object({
  faceDetected: z.boolean(),
  estimatedAge: int.optional(),
  ageRange: z.object({ low: int, high: int }).optional(),
  gender: z.enum(['male', 'female']).optional(),
  genderConfidence: unit.optional(),
});

export const IdentityVerifyResponseSchema = z.object({
  verified: z.boolean(),
  overallConfidence: percent,
  document: z.object({ ...documentFields, faceImage: str.optional(), confidence: percent }),
  faceDetection: z.object({ faceDetected: z.boolean(), confidence: percent }),
  faceMatch: z.object({ isMatch: z.boolean(), confidence: percent, threshold: percent }),
});

export const LivenessSessionResponseSchema = z.object({
  liveness_session_id: str,
  region: str,
  credentials: z.object({ access_key_id: str, secret_access_key: str, session_token: str, expiration: z.iso.datetime() }),
  expires_at: z.iso.datetime(),
});

export const LivenessResultResponseSchema = z.object({
  status: z.enum(['SUCCEEDED', 'IN_PROGRESS', 'FAILED']),
  confidence: percent.optional(),
  passed: z.boolean(),
});

// ─── §6.4 Screening ─────────────────────────────────────────────────────────────────────────────────

const MatchSchema = z.object({ name: str, country: str.nullable(), dateOfBirth: str.nullable(), confidence: unit, datasets: z.array(str) });

export const PepSanctionsResponseSchema = z.object({
  totalMatches: int,
  peps: z.array(MatchSchema),
  sanctions: z.array(MatchSchema),
  both: z.array(MatchSchema),
  searchedSources: z.array(str),
});

const JOB_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;

export const AdverseMediaQueuedResponseSchema = z.object({ jobId: z.uuid(), status: z.enum(JOB_STATUSES), message: str });

export const EXPOSURE_CATEGORIES = [
  'financial_crime',
  'terrorism',
  'regulatory',
  'political',
  'organized_crime',
  'violent_crime',
  'criminal_legal',
  'reputational',
  'court_records',
] as const;

export const AdverseMediaResultSchema = z.object({
  totalHits: int,
  riskLevel: z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']),
  riskScore: int.min(0).max(100),
  summary: str,
  findings: z.array(
    z.object({
      findingId: str,
      severity: z.enum(['MEDIUM', 'HIGH', 'CRITICAL']),
      category: str,
      title: str,
      detail: str,
      sourceUrl: str.nullable(),
      sourceName: str.nullable(),
      articleDate: str.nullable(),
      confidence: unit,
      confirmedBy: z.array(str),
    }),
  ),
  exposuresByCategory: z.record(
    z.enum(EXPOSURE_CATEGORIES),
    z.object({
      hits: int,
      articles: z.array(
        z.object({ timestamp: str.nullable(), headline: str, sourceLink: str.nullable(), source: z.enum(['news', 'court-records', 'watchlist-database']) }),
      ),
    }),
  ),
});

/** A required-but-nullable object whose every listed key is required-but-nullable. */
function nullableRecordOf(strings: readonly string[], numbers: readonly string[] = [], ints: readonly string[] = []) {
  const shape: Record<string, z.ZodType> = {};
  for (const key of strings) shape[key] = str.nullable();
  for (const key of numbers) shape[key] = z.number().nullable();
  for (const key of ints) shape[key] = int.nullable();
  return z.object(shape).nullable();
}

export const TitleCheckResponseSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('found'),
    subjectProperty: nullableRecordOf(
      [
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
      ],
      ['LotSizeAcres', 'LotSizeSqFt', 'Bathrooms', 'BuildingAreaSqFt', 'Stories'],
      ['YearBuilt', 'Bedrooms'],
    ),
    ownerInformation: nullableRecordOf([
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
    ]),
    locationInformation: nullableRecordOf([
      'County',
      'CensusTract',
      'CensusBlock',
      'Municipality',
      'SchoolDistrict',
      'FloodZone',
      'FloodPanelNumber',
      'Neighborhood',
    ]),
    ownerTransferInformation: nullableRecordOf(
      ['TransferDocumentNumber', 'TransferRecordingDate', 'TransferSaleDate', 'TransferDeedType'],
      ['TransferSalePrice'],
    ),
    lastMarketSaleInformation: nullableRecordOf(
      ['SaleDate', 'SaleDocumentNumber', 'SaleDeedType', 'RecordingDate', 'Buyer', 'Seller'],
      ['SalePrice', 'PricePerSqFt'],
    ),
  }),
  z.object({
    status: z.literal('multiple_properties'),
    message: str,
    availableUnits: z.array(str),
    properties: z.array(z.object({ owner: str, apartmentOrUnit: str })),
  }),
  z.object({ status: z.literal('unsupported_region'), message: str }),
  z.object({ status: z.literal('not_found'), message: str }),
]);

export const CarrierAgeGateResponseSchema = z.object({
  outcome: z.enum(['PASS', 'FAIL', 'NO_DATA']),
  ageVerified: z.enum(['VERIFIED', 'NOT_VERIFIED', 'NO_DATA']),
  requiredAge: int,
  statusMessage: str,
  checkedAt: str,
  carrierThreshold: int.optional(),
  correlationId: str.optional(),
  sessionId: str.optional(),
});

const score = int.min(-1).max(100);

export const PhoneOwnershipResponseSchema = z.object({
  outcome: z.enum(['MATCH', 'NO_MATCH', 'NO_DATA']),
  strictness: z.enum(['relaxed', 'medium', 'strict']),
  threshold: int,
  statusMessage: str,
  checkedAt: str,
  nameScore: score.optional(),
  firstNameScore: score.optional(),
  lastNameScore: score.optional(),
  dobScore: score.optional(),
  addressScore: score.optional(),
  correlationId: str.optional(),
  sessionId: str.optional(),
});

export const PhoneTrustResponseSchema = z.object({
  tripped: z.boolean(),
  tripReasons: z.array(z.enum(['SIM_SWAP_HIGH_RISK', 'SIM_SWAP_MEDIUM_RISK', 'CALL_FORWARDING_ACTIVE'])),
  simSwappedRisk: z.enum(['NO_DATA', 'LOW_RISK', 'MEDIUM_RISK', 'HIGH_RISK']),
  forwardingRisk: z.enum(['NO_DATA', 'NO_RISK', 'HIGH_RISK']),
  sensitivity: z.enum(['low', 'medium', 'high']),
  statusMessage: str,
  checkedAt: str,
  simChangedDate: str.optional(),
  correlationId: str.optional(),
  sessionId: str.optional(),
});

// ─── §4 / §6.5 Async jobs ───────────────────────────────────────────────────────────────────────────

const snapshot = { jobId: str, createdAt: z.number(), updatedAt: str };

/** GET /v1/async-jobs/{jobId}; `result` is any JSON here, the adverse-media handle parses it further. */
export const AsyncJobResponseSchema = z.discriminatedUnion('status', [
  z.object({ ...snapshot, status: z.literal('pending') }),
  z.object({ ...snapshot, status: z.literal('processing') }),
  z.object({ ...snapshot, status: z.literal('ready'), result: z.unknown() }),
  z.object({ ...snapshot, status: z.literal('failed'), error: str }),
]);

/** The adverse-media handle's view of a job: a ready job's result must be an AdverseMediaResult. */
export const AdverseMediaJobResponseSchema = z.discriminatedUnion('status', [
  z.object({ ...snapshot, status: z.literal('pending') }),
  z.object({ ...snapshot, status: z.literal('processing') }),
  z.object({ ...snapshot, status: z.literal('ready'), result: AdverseMediaResultSchema }),
  z.object({ ...snapshot, status: z.literal('failed'), error: str }),
]);

// ─── §6.10 Financial and credit checks ──────────────────────────────────────────────────────────────

export const FinancialRecordSchema = z.object({
  id: str,
  organizationId: str,
  userId: str,
  senderUserId: str,
  createdAt: str,
  updatedAt: str,
  status: str,
  type: str,
  externalId: str.optional(),
  Config: anyObject.optional(),
  statement: anyObject.optional(),
});

export const FinancialCreateResponseSchema = z.object({
  bankStatementId: str,
  bankStatementUrl: str,
  links: z.array(z.unknown()),
  externalId: str.optional(),
});

export const FinancialListResponseSchema = z.object({ bankStatements: z.array(FinancialRecordSchema), nextToken: str.nullable() });

export const CreditCheckCreateResponseSchema = z.object({
  id: str,
  session_url: str,
  type: z.enum(['credit-check-hard', 'credit-check-soft']),
  links: z.array(LinkSchema),
  externalId: str.optional(),
});

// ─── §6.7 Auth ──────────────────────────────────────────────────────────────────────────────────────

export const AuthVerifyResponseSchema = z.object({ valid: z.literal(true), organization: z.object({ id: str, name: str, status: str }) });
