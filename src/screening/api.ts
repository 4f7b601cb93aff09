/**
 * What other areas use of screening: the checks a workflow step runs (PEP and sanctions, adverse media, title,
 * the session's phone), the result schemas a session's analysis_data carries, the shared request fields, and
 * the port this area declares for what it needs of a session.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { EXPOSURE_CATEGORIES } from './adverse-media.content.ts';
export type { AdverseMediaRequest } from './adverse-media.schemas.ts';
export { toAdverseMediaData } from './adverse-media.service.ts';
export { CarrierAgeGateResponseSchema } from './carrier-age-gate.schemas.ts';
export { normalizeName } from './name-similarity.ts';
export { type PepSanctionsMatch, PepSanctionsMatchSchema } from './pep-sanctions.schemas.ts';
export { screenPepSanctions } from './pep-sanctions.service.ts';
export { defaultWatchlist } from './pep-sanctions.watchlist.ts';
export { PhoneOwnershipResponseSchema } from './phone-ownership.schemas.ts';
export { PhoneTrustResponseSchema } from './phone-trust.schemas.ts';
export { CountrySchema, dateField, EmailSchema, nameField } from './screening.schemas.ts';
export {
  adverseMediaFingerprint,
  adverseMediaJobState,
  checkSessionPhone,
  type PhoneCheckKind,
  type PhoneCheckResponses,
  queueStepAdverseMedia,
} from './screening.service.ts';
export { type TitleCheckFound, TitleCheckFoundSchema, TitleCheckRequestSchema, type TitleCheckResponse } from './title-check.schemas.ts';
export { checkTitle } from './title-check.service.ts';
export type { ScreeningSessions, SessionApplicant } from './session-port.ts';
