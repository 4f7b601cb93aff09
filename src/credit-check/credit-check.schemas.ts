/**
 * Zod schemas of the credit-check area: the create body of POST /v1/credit-check/hard and /soft (snake_case
 * with camelCase aliases, normalized to one camelCase object by src/platform/validation/aliased-body.ts), its
 * response, and the credit report that a finished credit-check session carries in `analysis_data.credit_report`.
 *
 * LIMITATIONS:
 * - The report shape is the sandbox's own bureau-style layout (the spec shows no report): snake_case like the
 *   rest of analysis_data, whole-dollar amounts as bureaus report them, dates as YYYY-MM-DD.
 * - Unknown body keys are ignored (stripped), as the real service's permissive parsers do.
 */
import { z } from '@hono/zod-openapi';
import { PROVINCES } from '../financial/api.ts';
import { aliasedBody } from '../platform/validation/aliased-body.ts';
import { E164_PATTERN, e164Phone, email, flag, httpsUrl, identifier, mustBe, personName } from '../platform/validation/request-fields.ts';
import { UAT_TYPE_VALUES } from './uat-types.ts';

// ---------------------------------------------------------------- create body

export const CreditCheckKindSchema = z.enum(['hard', 'soft']);
export type CreditCheckKind = z.infer<typeof CreditCheckKindSchema>;

export const CreditCheckSessionTypeSchema = z.enum(['credit-check-hard', 'credit-check-soft']);
export type CreditCheckSessionType = z.infer<typeof CreditCheckSessionTypeSchema>;

/**
 * The create body, validated and normalized to camelCase (spec: Endpoints). When both spellings are sent the
 * camelCase value wins and the snake_case one is ignored; a missing name is reported at the snake_case key.
 */
export const CreditCheckBodySchema = aliasedBody(
  {
    firstName: { snake: 'first_name', schema: (key) => personName(key, "the applicant's first name"), required: true },
    lastName: { snake: 'last_name', schema: (key) => personName(key, "the applicant's last name"), required: true },
    email: { schema: email, required: true },
    phone: { schema: e164Phone, required: true },
    externalId: { snake: 'external_id', schema: (key) => identifier(key, 'your own reference for the applicant') },
    sendEmailInvite: { snake: 'send_email_invite', schema: flag, default: true },
    sendPhoneInvite: { snake: 'send_phone_invite', schema: flag, default: true },
    redirectUrl: { snake: 'redirect_url', schema: httpsUrl },
    uat: { schema: (key) => flag(key).openapi({ description: 'test mode: the report follows uat_type' }), default: false },
    // Any string: an unrecognized UAT type is resolved later (uat-types.ts), never a 400.
    uatType: {
      snake: 'uat_type',
      schema: (key) =>
        z
          .string({ error: mustBe(key, `a string naming a UAT type, one of ${UAT_TYPE_VALUES.join(', ')}`) })
          .openapi({ description: `one of ${UAT_TYPE_VALUES.join(', ')}` }),
    },
  },
  { name: 'CreditCheckBody' },
);

/** The normalized body (output of CreditCheckBodySchema); optional keys are absent, never undefined-valued. */
export type CreditCheckBody = z.infer<typeof CreditCheckBodySchema>;

// ---------------------------------------------------------------- create response

export const CreditCheckLinkSchema = z.object({
  rel: z.enum(['admin_console', 'session_details']),
  href: z.string(),
  description: z.string(),
});

export const CreditCheckCreateResponseSchema = z
  .object({
    id: z.string(),
    session_url: z.string(),
    type: CreditCheckSessionTypeSchema,
    externalId: z.string().optional(),
    links: z.array(CreditCheckLinkSchema),
  })
  .openapi('CreditCheckCreateResponse');
export type CreditCheckCreateResponse = z.infer<typeof CreditCheckCreateResponseSchema>;

// ---------------------------------------------------------------- the credit report

/** A phone number in the report (generated, not caller input): E.164. */
export const E164PhoneSchema = z.string().regex(E164_PATTERN).openapi({ example: '+14165550123' });

export const UatTypeSchema = z.enum(UAT_TYPE_VALUES);
export type UatType = z.infer<typeof UatTypeSchema>;

const IsoDateSchema = z.iso.date();
const DollarsSchema = z.number().int().min(0);
const ProvinceSchema = z.enum(PROVINCES);
export const ScoreBandSchema = z.enum(['POOR', 'FAIR', 'GOOD', 'VERY_GOOD', 'EXCELLENT']);
export type ScoreBand = z.infer<typeof ScoreBandSchema>;

export const CreditSubjectSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: IsoDateSchema,
  /** Only the last three digits: the applicant types the SIN on the hosted page; the sandbox never stores one. */
  sin_masked: z.string().regex(/^\*\*\*-\*\*\*-\d{3}$/),
  file_since: IsoDateSchema,
  deceased: z.boolean(),
  deceased_date: IsoDateSchema.optional(),
});

export const CreditAddressSchema = z.object({
  status: z.enum(['CURRENT', 'PREVIOUS']),
  civic_address: z.string(),
  city: z.string(),
  province: ProvinceSchema,
  postal_code: z.string().regex(/^[A-Z]\d[A-Z] \d[A-Z]\d$/),
  country: z.literal('CA'),
  since: IsoDateSchema,
  reported_date: IsoDateSchema,
});

export const CreditEmploymentSchema = z.object({
  status: z.enum(['CURRENT', 'PREVIOUS']),
  employer: z.string(),
  occupation: z.string(),
  city: z.string(),
  province: ProvinceSchema,
  since: IsoDateSchema,
  until: IsoDateSchema.optional(),
  verified_date: IsoDateSchema.optional(),
});

export const TrusteeSchema = z.object({ name: z.string(), city: z.string(), phone: E164PhoneSchema });

export const BankruptcySchema = z.object({
  type: z.enum(['VOLUNTARY_ASSIGNMENT', 'CONSUMER_PROPOSAL', 'RECEIVING_ORDER']),
  status: z.enum(['FILED', 'UNDISCHARGED', 'DISCHARGED', 'ACTIVE']),
  filed_date: IsoDateSchema,
  discharged_date: IsoDateSchema.optional(),
  automatic_discharge_eligible_date: IsoDateSchema.optional(),
  liabilities: DollarsSchema,
  assets: DollarsSchema,
  trustee: TrusteeSchema,
  court: z.string(),
  estate_number: z.string(),
  petitioning_creditor: z.string().optional(),
  proposal: z
    .object({
      amount: DollarsSchema,
      monthly_payment: DollarsSchema,
      term_months: z.number().int().positive(),
      payments_made: z.number().int().min(0),
    })
    .optional(),
  narrative: z.string(),
});

export const CollectionSchema = z.object({
  agency: z.string(),
  agency_phone: E164PhoneSchema,
  original_creditor: z.string(),
  category: z.enum(['TELECOM', 'UTILITY', 'MEDICAL', 'RETAIL', 'BANK_CARD', 'GYM', 'RENTAL']),
  account_number_masked: z.string(),
  assigned_date: IsoDateSchema,
  original_amount: DollarsSchema,
  balance: DollarsSchema,
  status: z.enum(['UNPAID', 'PARTIALLY_PAID', 'PAID']),
  last_payment_date: IsoDateSchema.optional(),
  paid_date: IsoDateSchema.optional(),
});

export const LegalItemSchema = z.object({
  type: z.enum(['JUDGEMENT', 'FORECLOSURE', 'GARNISHMENT']),
  status: z.enum(['UNSATISFIED', 'SATISFIED', 'ACTIVE', 'COMPLETED']),
  court: z.string(),
  case_number: z.string(),
  plaintiff: z.string(),
  defendant: z.string(),
  amount: DollarsSchema,
  filed_date: IsoDateSchema,
  satisfied_date: IsoDateSchema.optional(),
  garnishee: z.string().optional(),
  property_address: z.string().optional(),
  narrative: z.string(),
});

export const TradeTypeSchema = z.enum(['REVOLVING', 'INSTALLMENT', 'OPEN', 'MORTGAGE', 'LINE_OF_CREDIT']);
export const TradePurposeSchema = z.enum([
  'CREDIT_CARD',
  'RETAIL_CARD',
  'LINE_OF_CREDIT',
  'AUTO_LOAN',
  'MORTGAGE',
  'STUDENT_LOAN',
  'SECURED_LOAN',
  'PERSONAL_LOAN',
  'TELECOM',
]);
export const TradeStatusSchema = z.enum([
  'OPEN',
  'CLOSED',
  'PAID_AS_AGREED',
  'CHARGED_OFF',
  'TRANSFERRED_TO_COLLECTION',
  'INCLUDED_IN_BANKRUPTCY',
  'INCLUDED_IN_PROPOSAL',
  'REPOSSESSION',
  'FORECLOSURE',
]);

export const TradeSchema = z.object({
  creditor: z.string(),
  member_number: z.string(),
  account_number_masked: z.string(),
  type: TradeTypeSchema,
  purpose: TradePurposeSchema,
  /** Canadian bureau rating: portfolio letter (R revolving, I installment, O open, M mortgage, C line of credit) + 0-9. */
  rating: z.string().regex(/^[RIOMC][0-9]$/),
  rating_description: z.string(),
  status: TradeStatusSchema,
  credit_limit: DollarsSchema.optional(),
  high_credit: DollarsSchema,
  balance: DollarsSchema,
  past_due: DollarsSchema,
  monthly_payment: DollarsSchema,
  opened_date: IsoDateSchema,
  last_reported_date: IsoDateSchema,
  last_activity_date: IsoDateSchema,
  months_reviewed: z.number().int().min(0),
  /** Monthly rating digits, most recent first (at most 24). */
  payment_pattern: z.string().regex(/^[0-9]{0,24}$/),
  payment_history: z.object({
    late_30: z.number().int().min(0),
    late_60: z.number().int().min(0),
    late_90_plus: z.number().int().min(0),
  }),
  joint: z.boolean(),
  collateral: z.string().optional(),
  remarks: z.array(z.string()),
});

export const InquirySchema = z.object({
  date: IsoDateSchema,
  member_name: z.string(),
  member_phone: E164PhoneSchema,
  purpose: z.string(),
  foreign_bureau: z.object({ country: z.string(), bureau: z.string(), city: z.string() }).optional(),
});

export const CreditAlertSchema = z.object({
  type: z.enum(['FRAUD_ALERT', 'FOREIGN_INQUIRY', 'DECEASED']),
  added_date: IsoDateSchema,
  expires_date: IsoDateSchema.optional(),
  contact_phone: E164PhoneSchema.optional(),
  message: z.string(),
});

export const BankingRecordSchema = z.object({
  institution: z.string(),
  account_type: z.enum(['CHEQUING', 'SAVINGS']),
  account_number_masked: z.string(),
  opened_date: IsoDateSchema,
  status: z.enum(['OPEN', 'CLOSED']),
  nsf_count: z.number().int().min(0),
  reported_date: IsoDateSchema,
});

export const CreditScoreSchema = z.object({
  value: z.number().int().min(300).max(900),
  band: ScoreBandSchema,
  model: z.string(),
  range: z.object({ min: z.literal(300), max: z.literal(900) }),
  reason_codes: z.array(z.object({ code: z.string(), description: z.string() })),
});

export const CreditSummarySchema = z.object({
  trade_count: z.number().int().min(0),
  open_trade_count: z.number().int().min(0),
  total_balance: DollarsSchema,
  total_revolving_limit: DollarsSchema,
  revolving_utilization_pct: z.number().int().min(0).optional(),
  past_due_total: DollarsSchema,
  derogatory_count: z.number().int().min(0),
  collections_count: z.number().int().min(0),
  legal_items_count: z.number().int().min(0),
  bankruptcies_count: z.number().int().min(0),
  inquiries_last_12_months: z.number().int().min(0),
  oldest_trade_date: IsoDateSchema.optional(),
});

export const RiskLevelSchema = z.enum(['LOW', 'MODERATE', 'HIGH', 'CRITICAL']);
export const RecommendationSchema = z.enum(['APPROVE', 'REVIEW', 'DECLINE']);

export const AiInsightsSchema = z.object({
  model: z.string(),
  summary: z.string(),
  risk_level: RiskLevelSchema,
  risk_factors: z.array(z.object({ code: z.string(), severity: z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']), description: z.string() })),
  positive_factors: z.array(z.string()),
  recommendation: RecommendationSchema,
  recommendation_reason: z.string(),
});

/** Hard check: the whole bureau file plus AI insights. */
export const HardCreditReportSchema = z
  .object({
    report_type: z.literal('hard'),
    uat_type: UatTypeSchema,
    bureau: z.string(),
    reference_number: z.string(),
    generated_at: z.iso.datetime(),
    subject: CreditSubjectSchema,
    score: CreditScoreSchema,
    summary: CreditSummarySchema,
    addresses: z.array(CreditAddressSchema),
    employment: z.array(CreditEmploymentSchema),
    bankruptcies: z.array(BankruptcySchema),
    collections: z.array(CollectionSchema),
    legal_items: z.array(LegalItemSchema),
    trades: z.array(TradeSchema),
    inquiries: z.array(InquirySchema),
    alerts: z.array(CreditAlertSchema),
    banking: z.array(BankingRecordSchema),
    ai_insights: AiInsightsSchema,
  })
  .openapi('HardCreditReport');
export type HardCreditReport = z.infer<typeof HardCreditReportSchema>;

/** Soft check: the score only. */
export const SoftCreditReportSchema = z
  .object({
    report_type: z.literal('soft'),
    uat_type: UatTypeSchema,
    reference_number: z.string(),
    score: z.number().int().min(300).max(900),
    score_band: ScoreBandSchema,
    model: z.string(),
    generated_at: z.iso.datetime(),
  })
  .openapi('SoftCreditReport');
export type SoftCreditReport = z.infer<typeof SoftCreditReportSchema>;

export const CreditReportSchema = z.discriminatedUnion('report_type', [HardCreditReportSchema, SoftCreditReportSchema]);
export type CreditReport = z.infer<typeof CreditReportSchema>;

export type Trade = z.infer<typeof TradeSchema>;
export type Bankruptcy = z.infer<typeof BankruptcySchema>;
export type Collection = z.infer<typeof CollectionSchema>;
export type LegalItem = z.infer<typeof LegalItemSchema>;
export type Inquiry = z.infer<typeof InquirySchema>;
export type CreditAlert = z.infer<typeof CreditAlertSchema>;
export type BankingRecord = z.infer<typeof BankingRecordSchema>;
export type CreditAddress = z.infer<typeof CreditAddressSchema>;
export type CreditEmployment = z.infer<typeof CreditEmploymentSchema>;
export type CreditSubject = z.infer<typeof CreditSubjectSchema>;
export type AiInsights = z.infer<typeof AiInsightsSchema>;
export type Province = z.infer<typeof ProvinceSchema>;

/**
 * Where a credit-check session keeps its result: `analysis_data.credit_report` (hard: full report, soft: score
 * only) and `analysis_data.credit_check` (how the persona was chosen).
 */
export const CreditCheckAnalysisDataSchema = z.object({
  credit_check: z.object({
    type: CreditCheckSessionTypeSchema,
    uat: z.boolean(),
    uat_type: UatTypeSchema,
    uat_type_requested: z.string().optional(),
    uat_type_source: z.enum(['requested', 'derived-from-session-id']),
  }),
  credit_report: CreditReportSchema,
});
export type CreditCheckAnalysisData = z.infer<typeof CreditCheckAnalysisDataSchema>;
