/**
 * Builds the credit report of a credit-check session: a Canadian-bureau-style consumer file (score on the
 * 300-900 scale, file-since date, addresses, employment, bankruptcies, collections, legal items, trades with
 * R1..R9 ratings and payment patterns, inquiries, alerts, banking) whose content follows the uat_type persona
 * (see uat-types.ts). A hard check returns the whole file plus AI insights derived from it; a soft check
 * returns the score only.
 *
 * Everything is derived from `seedParts` (normally the session id) and the uat_type, and dated relative to
 * `nowIso`, so the same session always gets the same report.
 *
 * LIMITATIONS:
 * - One persona per report: a real file can mix features of several uat_types; here each type shows its own.
 * - Amounts are whole dollars, as bureaus report them; interest accrual is not modelled.
 * - Score reason codes and AI insights are rule-based summaries of the file, not a scoring model.
 */
import { rngFrom, type Rng } from '../platform/random/random.ts';
import type {
  AiInsights,
  BankingRecord,
  Bankruptcy,
  Collection,
  CreditAddress,
  CreditAlert,
  CreditCheckKind,
  CreditEmployment,
  CreditReport,
  HardCreditReport,
  Inquiry,
  LegalItem,
  ScoreBand,
  SoftCreditReport,
  Trade,
} from './credit-check.schemas.ts';
import {
  AUTO_LENDERS,
  BANK_NAMES,
  CARD_ISSUERS,
  COLLECTION_AGENCIES,
  COLLECTION_ORIGINAL_CREDITORS,
  OCCUPATIONS,
  RETAIL_CREDITORS,
  STUDENT_LOAN_CENTRE,
  TRUSTEES,
  VEHICLES,
  maskedAccount,
  memberNumber,
  smallClaimsCourt,
  superiorCourt,
} from './credit-report-parts.ts';
import {
  CITIES,
  EMPLOYERS,
  TELCOS,
  type City,
  civicAddress,
  daysAfter,
  daysBefore,
  fictionalPhone,
  isoDate,
  monthsAfter,
  monthsBefore,
  monthsBetween,
  postalCode,
} from '../financial/api.ts';
import { SEVERITY_SCORE_BANDS, uatTypeEntry, type UatTypeValue } from './uat-types.ts';
import { E164_PATTERN } from '../platform/validation/request-fields.ts';

export const SCORE_MODEL = 'Sandbox Risk Score CA 2.0';
export const INSIGHTS_MODEL = 'sandbox-credit-insights-1';
export const BUREAU_NAME = 'Canadian consumer credit bureau (sandbox test environment)';

/** The applicant as the credit-check request named them. */
export interface CreditPerson {
  firstName: string;
  lastName: string;
  email?: string;
  phone?: string;
}

/** Equifax-Canada-style bands of the 300-900 scale. */
export const SCORE_BANDS: readonly { band: ScoreBand; min: number; max: number }[] = [
  { band: 'POOR', min: 300, max: 559 },
  { band: 'FAIR', min: 560, max: 659 },
  { band: 'GOOD', min: 660, max: 724 },
  { band: 'VERY_GOOD', min: 725, max: 759 },
  { band: 'EXCELLENT', min: 760, max: 900 },
];

export function scoreBand(score: number): ScoreBand {
  return (SCORE_BANDS.find((band) => score >= band.min && score <= band.max) ?? SCORE_BANDS[0]!).band;
}

/** The persona's score: the same for a hard and a soft check of one session. */
export function creditScoreFor(uatType: UatTypeValue, seedParts: readonly (string | number)[]): number {
  const [min, max] = uatTypeEntry(uatType).scoreRange;
  return rngFrom(...seedParts, 'credit-score', uatType).int(min, max);
}

export function buildCreditReport(
  kind: 'hard',
  uatType: UatTypeValue,
  person: CreditPerson,
  seedParts: readonly (string | number)[],
  nowIso: string,
): HardCreditReport;
export function buildCreditReport(
  kind: 'soft',
  uatType: UatTypeValue,
  person: CreditPerson,
  seedParts: readonly (string | number)[],
  nowIso: string,
): SoftCreditReport;
export function buildCreditReport(
  kind: CreditCheckKind,
  uatType: UatTypeValue,
  person: CreditPerson,
  seedParts: readonly (string | number)[],
  nowIso: string,
): CreditReport;
export function buildCreditReport(
  kind: CreditCheckKind,
  uatType: UatTypeValue,
  person: CreditPerson,
  seedParts: readonly (string | number)[],
  nowIso: string,
): CreditReport {
  const score = creditScoreFor(uatType, seedParts);
  const referenceNumber = `SBX-${String(rngFrom(...seedParts, 'credit-reference').int(0, 9_999_999_999)).padStart(10, '0')}`;
  if (kind === 'soft') {
    return {
      report_type: 'soft',
      uat_type: uatType,
      reference_number: referenceNumber,
      score,
      score_band: scoreBand(score),
      model: SCORE_MODEL,
      generated_at: nowIso,
    };
  }
  const nowMs = Date.parse(nowIso);
  if (Number.isNaN(nowMs)) throw new Error(`buildCreditReport: nowIso "${nowIso}" is not an ISO 8601 instant`);
  const file = buildFile(uatType, person, seedParts, nowMs);
  const summary = summarize(file, nowMs);
  const insights = deriveInsights(file, summary, score, uatType, nowMs);
  return {
    report_type: 'hard',
    uat_type: uatType,
    bureau: BUREAU_NAME,
    reference_number: referenceNumber,
    generated_at: nowIso,
    subject: file.subject,
    score: {
      value: score,
      band: scoreBand(score),
      model: SCORE_MODEL,
      range: { min: 300, max: 900 },
      reason_codes: reasonCodes(insights),
    },
    summary,
    addresses: file.addresses,
    employment: file.employment,
    bankruptcies: file.bankruptcies,
    collections: file.collections,
    legal_items: file.legal_items,
    trades: file.trades,
    inquiries: file.inquiries,
    alerts: file.alerts,
    banking: file.banking,
    ai_insights: insights,
  };
}

// ====================================================================== the file, per persona

interface CreditFile {
  subject: HardCreditReport['subject'];
  addresses: CreditAddress[];
  employment: CreditEmployment[];
  bankruptcies: Bankruptcy[];
  collections: Collection[];
  legal_items: LegalItem[];
  trades: Trade[];
  inquiries: Inquiry[];
  alerts: CreditAlert[];
  banking: BankingRecord[];
}

/** What every persona builder works with. */
interface Ctx {
  rng: Rng;
  nowMs: number;
  person: CreditPerson;
  home: City;
  /** Months between the file's opening and now: no trade or inquiry is older. */
  fileMonths: number;
  /** Months since the subject turned 18: no address or job is older. */
  adultMonths: number;
  fileSinceMs: number;
  defendant: string;
}

interface PersonaShape {
  ageRange: readonly [number, number];
  /** How long ago the file was opened, in months (clamped to adult life). */
  fileMonthsRange: readonly [number, number];
}

const DEFAULT_SHAPE: PersonaShape = { ageRange: [27, 62], fileMonthsRange: [84, 240] };
const SHAPES: Partial<Record<UatTypeValue, PersonaShape>> = {
  SHELL_FILE: { ageRange: [19, 23], fileMonthsRange: [2, 5] },
  TELCO: { ageRange: [19, 25], fileMonthsRange: [14, 36] },
  STUDENT_LOAN: { ageRange: [23, 30], fileMonthsRange: [48, 96] },
  SECURE_LOAN: { ageRange: [21, 35], fileMonthsRange: [12, 30] },
  DEATH_NOTICE: { ageRange: [66, 88], fileMonthsRange: [240, 420] },
  MORTGAGE: { ageRange: [32, 60], fileMonthsRange: [120, 300] },
  EMPLOYMENT: { ageRange: [35, 60], fileMonthsRange: [96, 240] },
};

function buildFile(uatType: UatTypeValue, person: CreditPerson, seedParts: readonly (string | number)[], nowMs: number): CreditFile {
  const rng = rngFrom(...seedParts, 'credit-file', uatType);
  const shape = SHAPES[uatType] ?? DEFAULT_SHAPE;
  const age = rng.int(shape.ageRange[0], shape.ageRange[1]);
  const birthMs = daysBefore(monthsBefore(nowMs, age * 12), rng.int(0, 360));
  const adultMonths = Math.max(1, (age - 18) * 12);
  const fileMonths = Math.min(rng.int(shape.fileMonthsRange[0], shape.fileMonthsRange[1]), adultMonths);
  const fileSinceMs = daysBefore(monthsBefore(nowMs, fileMonths), rng.int(0, 27));
  const ctx: Ctx = {
    rng,
    nowMs,
    person,
    home: rng.pick(CITIES),
    fileMonths,
    adultMonths,
    fileSinceMs,
    defendant: `${person.lastName.toUpperCase()}, ${person.firstName.toUpperCase()}`,
  };
  const file: CreditFile = {
    subject: {
      first_name: person.firstName,
      last_name: person.lastName,
      date_of_birth: isoDate(birthMs),
      sin_masked: `***-***-${String(rng.int(0, 999)).padStart(3, '0')}`,
      file_since: isoDate(fileSinceMs),
      deceased: false,
    },
    addresses: addressHistory(ctx, 2),
    employment: employmentHistory(ctx, 1, false),
    bankruptcies: [],
    collections: [],
    legal_items: [],
    trades: [],
    inquiries: inquiries(ctx, rng.int(1, 2), 20),
    alerts: [],
    banking: [],
  };
  PERSONAS[uatType](ctx, file);
  file.trades.sort((a, b) => newestDateFirst(a.opened_date, b.opened_date));
  file.inquiries.sort((a, b) => newestDateFirst(a.date, b.date));
  return file;
}

/**
 * Orders `YYYY-MM-DD` dates newest first by their characters, as `localeCompare` ordered them: a process's
 * first `localeCompare` sets up ICU's collator (some 7 ms), which a credit check's first report paid.
 */
function newestDateFirst(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

type Persona = (ctx: Ctx, file: CreditFile) => void;

const PERSONAS: Record<UatTypeValue, Persona> = {
  // ---------------------------------------------------------------- Clean
  SHELL_FILE: (ctx, file) => {
    file.addresses = addressHistory(ctx, 1);
    file.employment = [];
    file.trades = [];
    // The one inquiry that opened the file.
    file.inquiries = [inquiryAt(ctx, ctx.fileSinceMs, 'Credit card application')];
  },
  MULTIPLE_ADDRESS: (ctx, file) => {
    file.addresses = movingHistory(ctx, ctx.rng.int(5, 6));
    file.trades = standardTrades(ctx, 2);
  },
  STANDARD_HIT: (ctx, file) => {
    file.trades = standardTrades(ctx, 3);
    file.inquiries = inquiries(ctx, 2, 20);
  },

  // ---------------------------------------------------------------- Bankruptcy
  BANKRUPTCY_DISCHARGED: (ctx, file) => {
    const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(44, 56));
    const dischargedMs = monthsAfter(filedMs, ctx.rng.int(9, 21));
    const included = tradesIncludedIn(ctx, filedMs, 2, 'INCLUDED_IN_BANKRUPTCY', 9);
    file.trades = [...included, securedCard(ctx, monthsBetween(dischargedMs, ctx.nowMs) - 2)];
    file.bankruptcies = [
      bankruptcy(ctx, included, {
        type: 'VOLUNTARY_ASSIGNMENT',
        status: 'DISCHARGED',
        filedMs,
        dischargedMs,
        narrative: 'Voluntary assignment in bankruptcy; absolute discharge granted.',
      }),
    ];
  },
  BANKRUPTCY_UNDISCHARGED: (ctx, file) => {
    const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(24, 36));
    fileBankruptcy(ctx, file, filedMs, 3, () => ({
      type: 'VOLUNTARY_ASSIGNMENT',
      status: 'UNDISCHARGED',
      filedMs,
      narrative: 'Voluntary assignment in bankruptcy; discharge opposed by a creditor, bankrupt remains undischarged.',
    }));
  },
  BANKRUPTCY_VOLUNTARY: (ctx, file) => {
    const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(2, 5));
    fileBankruptcy(ctx, file, filedMs, ctx.rng.int(2, 3), () => ({
      type: 'VOLUNTARY_ASSIGNMENT',
      status: 'FILED',
      filedMs,
      automaticDischargeMs: monthsAfter(filedMs, 9),
      narrative: 'Voluntary assignment in bankruptcy filed with a licensed insolvency trustee; first bankruptcy.',
    }));
  },
  BANKRUPTCY_PROPOSAL: (ctx, file) => {
    const monthsAgo = ctx.rng.int(10, 30);
    const filedMs = monthsBefore(ctx.nowMs, monthsAgo);
    const included = tradesIncludedIn(ctx, filedMs, 3, 'INCLUDED_IN_PROPOSAL', 7);
    file.trades = included;
    const proposalBase = bankruptcy(ctx, included, {
      type: 'CONSUMER_PROPOSAL',
      status: 'ACTIVE',
      filedMs,
      narrative: 'Consumer proposal accepted by creditors; payments in progress through the trustee.',
    });
    const amount = roundTo(proposalBase.liabilities * ctx.rng.float(0.3, 0.5), 100);
    const termMonths = 60;
    file.bankruptcies = [
      {
        ...proposalBase,
        proposal: {
          amount,
          monthly_payment: Math.round(amount / termMonths),
          term_months: termMonths,
          payments_made: monthsAgo - 1,
        },
      },
    ];
  },
  BANKRUPTCY_RECEIVING_ORDER: (ctx, file) => {
    const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(8, 20));
    fileBankruptcy(ctx, file, filedMs, 3, (included) => ({
      type: 'RECEIVING_ORDER',
      status: 'UNDISCHARGED',
      filedMs,
      petitioningCreditor: included[0]?.creditor ?? ctx.rng.pick(BANK_NAMES),
      narrative: 'Bankruptcy order made on a creditor petition (receiving order); bankrupt undischarged.',
    }));
  },

  // ---------------------------------------------------------------- Collections
  COLLECTION_UNPAID: (ctx, file) => {
    file.trades = standardTrades(ctx, 2);
    file.collections = [collection(ctx, 'UTILITY', ctx.rng.int(150, 900), 'UNPAID', ctx.rng.int(4, 18))];
  },
  COLLECTION_UNPAID_2: (ctx, file) => {
    const assignedMonthsAgo = ctx.rng.int(10, 30);
    const amount = ctx.rng.int(3000, 9000);
    const chargedOff = card(ctx, {
      digit: 9,
      status: 'TRANSFERRED_TO_COLLECTION',
      limitRange: [amount, amount],
      utilization: [0, 0],
      openedMonthsAgo: [assignedMonthsAgo + 24, assignedMonthsAgo + 72],
      reportedMonthsAgo: assignedMonthsAgo,
      highCredit: amount,
      remarks: ['Charged off; transferred to a collection agency'],
    });
    const placed = collection(ctx, 'BANK_CARD', amount, 'UNPAID', assignedMonthsAgo);
    placed.original_creditor = chargedOff.creditor;
    file.collections = [placed];
    file.trades = [chargedOff, ...standardTrades(ctx, 1)];
  },
  COLLECTION_PAID: (ctx, file) => {
    file.trades = standardTrades(ctx, 2);
    file.collections = [collection(ctx, 'TELECOM', ctx.rng.int(200, 1200), 'PAID', ctx.rng.int(18, 40))];
  },
  COLLECTION_MULTIPLE: (ctx, file) => {
    const count = ctx.rng.int(3, 5);
    const categories = ctx.rng.sample(['TELECOM', 'MEDICAL', 'RETAIL', 'GYM', 'RENTAL', 'UTILITY'] as const, count);
    const statuses = ['UNPAID', 'UNPAID', 'PARTIALLY_PAID', 'UNPAID', 'PAID'] as const;
    const agencies = ctx.rng.sample(COLLECTION_AGENCIES, count);
    file.collections = categories.map((category, index) => {
      const item = collection(ctx, category, ctx.rng.int(120, 2500), statuses[index] ?? 'UNPAID', ctx.rng.int(3, 48));
      item.agency = agencies[index] ?? item.agency;
      return item;
    });
    file.trades = [card(ctx, { digit: 3, utilization: [0.85, 0.98] })];
  },

  // ---------------------------------------------------------------- Legal
  JUDGEMENT: (ctx, file) => {
    file.trades = [card(ctx, { digit: 2, utilization: [0.6, 0.9] }), ...standardTrades(ctx, 1)];
    file.legal_items = [judgement(ctx, false)];
  },
  JUDGEMENT_SATISFIED: (ctx, file) => {
    file.trades = standardTrades(ctx, 2);
    file.legal_items = [judgement(ctx, true)];
  },
  FORECLOSURE: (ctx, file) => {
    const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(3, 14));
    const mortgageTrade = mortgage(ctx, { digit: 9, status: 'FORECLOSURE', reportedMs: filedMs });
    const current = file.addresses[0];
    file.trades = [mortgageTrade, card(ctx, { digit: 3, utilization: [0.8, 1] })];
    const action: LegalItem = {
      type: 'FORECLOSURE',
      status: 'ACTIVE',
      court: superiorCourt(ctx.home.province),
      case_number: courtFile(ctx, filedMs, 'CV'),
      plaintiff: mortgageTrade.creditor,
      defendant: ctx.defendant,
      amount: mortgageTrade.balance,
      filed_date: isoDate(filedMs),
      narrative: 'Mortgage in default; lender proceeding under power of sale.',
    };
    if (current) action.property_address = `${current.civic_address}, ${current.city}, ${current.province} ${current.postal_code}`;
    file.legal_items = [action];
  },
  GARNISHMENT: (ctx, file) => {
    const employer = file.employment[0]?.employer ?? ctx.rng.pick(EMPLOYERS);
    const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(2, 12));
    const plaintiff = ctx.rng.pick(CARD_ISSUERS);
    file.trades = [card(ctx, { digit: 9, status: 'CHARGED_OFF', creditor: plaintiff, utilization: [1, 1] }), ...standardTrades(ctx, 1)];
    file.legal_items = [
      {
        type: 'GARNISHMENT',
        status: 'ACTIVE',
        court: smallClaimsCourt(ctx.home.province),
        case_number: courtFile(ctx, filedMs, 'SC'),
        plaintiff,
        defendant: ctx.defendant,
        amount: ctx.rng.int(2500, 15000),
        filed_date: isoDate(filedMs),
        garnishee: employer,
        narrative: `Notice of garnishment of wages served on the employer ${employer} following judgement.`,
      },
    ];
  },

  // ---------------------------------------------------------------- Loans and trades
  SECURE_LOAN: (ctx, file) => {
    const high = roundTo(ctx.rng.int(1000, 5000), 100);
    const term = ctx.rng.pick([12, 24, 36]);
    const elapsed = Math.min(ctx.rng.int(3, 11), ctx.fileMonths);
    file.trades = [
      trade(ctx, {
        creditor: ctx.rng.pick(BANK_NAMES),
        type: 'INSTALLMENT',
        purpose: 'SECURED_LOAN',
        digit: 1,
        status: 'OPEN',
        openedMonthsAgo: elapsed,
        highCredit: high,
        balance: Math.round(high * (1 - elapsed / term)),
        monthlyPayment: Math.round((high / term) * 1.04),
        collateral: `GIC deposit of $${high} held by the lender`,
        remarks: ['Secured by deposit'],
      }),
    ];
  },
  MORTGAGE: (ctx, file) => {
    file.trades = [mortgage(ctx, { digit: 1, status: 'OPEN' }), ...standardTrades(ctx, 2)];
  },
  STUDENT_LOAN: (ctx, file) => {
    const high = roundTo(ctx.rng.int(12000, 48000), 100);
    const elapsed = Math.min(ctx.rng.int(12, 40), ctx.fileMonths);
    const term = 114;
    file.trades = [
      trade(ctx, {
        creditor: STUDENT_LOAN_CENTRE,
        type: 'INSTALLMENT',
        purpose: 'STUDENT_LOAN',
        digit: 1,
        status: 'OPEN',
        openedMonthsAgo: elapsed,
        highCredit: high,
        balance: Math.round(high * (1 - elapsed / term)),
        monthlyPayment: Math.round((high / term) * 1.15),
        remarks: ['Government student loan in repayment'],
      }),
      card(ctx, { limitRange: [500, 1500], utilization: [0.05, 0.25], creditor: ctx.rng.pick(BANK_NAMES) }),
    ];
  },
  AUTO_LOAN: (ctx, file) => {
    file.trades = [autoLoan(ctx, 1, 'OPEN'), ...standardTrades(ctx, 2)];
  },
  TRADE_R5: (ctx, file) => {
    file.trades = [card(ctx, { digit: 5, utilization: [0.97, 1], remarks: ['Account 120 days or more past due'] }), ...standardTrades(ctx, 1)];
  },
  TRADE_VARIOUS: (ctx, file) => {
    const trades = [
      card(ctx, { digit: 1 }),
      card(ctx, { digit: 2, utilization: [0.55, 0.8] }),
      card(ctx, { digit: 3, creditor: ctx.rng.pick(RETAIL_CREDITORS), purpose: 'RETAIL_CARD', limitRange: [1000, 3000], utilization: [0.7, 0.95] }),
      autoLoan(ctx, 2, 'OPEN'),
      telco(ctx, 'Mobile phone'),
      lineOfCredit(ctx, 1),
    ];
    if (ctx.rng.chance(0.6)) trades.push(card(ctx, { digit: 1, status: 'CLOSED', utilization: [0, 0], remarks: ['Closed at consumer request'] }));
    if (ctx.rng.chance(0.5)) trades.push(telco(ctx, 'Home internet'));
    file.trades = trades;
  },
  TRADE_REPOSSESSION: (ctx, file) => {
    file.trades = [autoLoan(ctx, 8, 'REPOSSESSION'), card(ctx, { digit: 2, utilization: [0.7, 0.9] })];
  },

  // ---------------------------------------------------------------- Alerts
  FRAUD_ALERT: (ctx, file) => {
    file.trades = standardTrades(ctx, 3);
    const addedMs = monthsBefore(ctx.nowMs, ctx.rng.int(1, 20));
    const contactPhone = ctx.person.phone && E164_PATTERN.test(ctx.person.phone) ? ctx.person.phone : fictionalPhone(ctx.rng, ctx.home);
    file.alerts = [
      {
        type: 'FRAUD_ALERT',
        added_date: isoDate(addedMs),
        expires_date: isoDate(monthsAfter(addedMs, 72)),
        contact_phone: contactPhone,
        message: `Consumer reports possible identity theft. Before extending credit, verify identity by calling ${contactPhone}.`,
      },
    ];
  },
  FOREIGN_INQUIRY: (ctx, file) => {
    file.trades = standardTrades(ctx, 2);
    const atMs = daysBefore(ctx.nowMs, ctx.rng.int(10, 200));
    const foreign: Inquiry = {
      ...inquiryAt(ctx, atMs, 'Credit card application'),
      member_name: 'Lakeview Bank USA',
      member_phone: `+1716555${String(ctx.rng.int(100, 199)).padStart(4, '0')}`,
      foreign_bureau: { country: 'US', bureau: 'US consumer reporting agency', city: 'Buffalo, NY' },
    };
    file.inquiries = [...file.inquiries, foreign];
    file.alerts = [
      {
        type: 'FOREIGN_INQUIRY',
        added_date: isoDate(atMs),
        message: 'File accessed through a foreign credit bureau (US). Confirm the applicant requested cross-border credit.',
      },
    ];
  },
  MANY_INQUIRIES: (ctx, file) => {
    file.trades = [...standardTrades(ctx, 2), card(ctx, { digit: 1, openedMonthsAgo: [1, 3], utilization: [0.3, 0.6] })];
    file.inquiries = inquiries(ctx, ctx.rng.int(9, 14), 11);
  },

  // ---------------------------------------------------------------- Other
  EMPLOYMENT: (ctx, file) => {
    file.trades = standardTrades(ctx, 2);
    file.employment = employmentHistory(ctx, ctx.rng.int(3, 4), true);
  },
  BANKING: (ctx, file) => {
    file.trades = standardTrades(ctx, 2);
    file.banking = bankingRecords(ctx);
  },
  TELCO: (ctx, file) => {
    file.trades = [telco(ctx, 'Mobile phone'), telco(ctx, 'Home internet')];
    if (ctx.rng.chance(0.5)) file.trades.push(telco(ctx, 'Television'));
    file.employment = employmentHistory(ctx, 1, false);
  },
  DEATH_NOTICE: (ctx, file) => {
    const deceasedMs = monthsBefore(ctx.nowMs, ctx.rng.int(1, 8));
    file.subject.deceased = true;
    file.subject.deceased_date = isoDate(deceasedMs);
    file.employment = [];
    file.trades = standardTrades(ctx, 2).map((t) => ({ ...t, remarks: [...t.remarks, 'Consumer deceased'] }));
    file.alerts = [
      {
        type: 'DECEASED',
        added_date: isoDate(daysAfter(deceasedMs, ctx.rng.int(7, 25))),
        message: `Death notice received; consumer reported deceased on ${isoDate(deceasedMs)}. Do not extend credit.`,
      },
    ];
  },
};

// ====================================================================== sections

/** The current address (moved in 18-60 months ago) and earlier ones, each 2-6 years before the next. */
function addressHistory(ctx: Ctx, count: number): CreditAddress[] {
  const out: CreditAddress[] = [];
  let sinceMs = daysBefore(monthsBefore(ctx.nowMs, Math.min(ctx.rng.int(18, 60), ctx.adultMonths)), ctx.rng.int(0, 27));
  for (let i = 0; i < count; i++) {
    out.push(address(ctx, i === 0 ? ctx.home : ctx.rng.pick(CITIES), i === 0 ? 'CURRENT' : 'PREVIOUS', sinceMs));
    sinceMs = monthsBefore(sinceMs, ctx.rng.int(24, 72));
  }
  return out;
}

/** 5-6 addresses in different provinces, moving every 8-14 months. */
function movingHistory(ctx: Ctx, count: number): CreditAddress[] {
  const byProvince = new Map<string, City>();
  for (const city of ctx.rng.sample(CITIES, CITIES.length)) if (!byProvince.has(city.province)) byProvince.set(city.province, city);
  const cities = [ctx.home, ...[...byProvince.values()].filter((c) => c.province !== ctx.home.province)].slice(0, count);
  let sinceMs = monthsBefore(ctx.nowMs, ctx.rng.int(4, 10));
  return cities.map((city, index) => {
    const item = address(ctx, city, index === 0 ? 'CURRENT' : 'PREVIOUS', sinceMs);
    sinceMs = monthsBefore(sinceMs, ctx.rng.int(8, 14));
    return item;
  });
}

function address(ctx: Ctx, city: City, status: CreditAddress['status'], sinceMs: number): CreditAddress {
  // The bureau learns an address at the earliest when the file exists.
  const reportedMs = Math.min(Math.max(monthsAfter(sinceMs, ctx.rng.int(1, 3)), ctx.fileSinceMs), ctx.nowMs);
  return {
    status,
    civic_address: civicAddress(ctx.rng),
    city: city.city,
    province: city.province,
    postal_code: postalCode(ctx.rng, city),
    country: 'CA',
    since: isoDate(sinceMs),
    reported_date: isoDate(reportedMs),
  };
}

function employmentHistory(ctx: Ctx, count: number, verifyCurrent: boolean): CreditEmployment[] {
  const employers = ctx.rng.sample(EMPLOYERS, count);
  const out: CreditEmployment[] = [];
  let untilMs: number | undefined;
  let sinceMs = monthsBefore(ctx.nowMs, Math.min(ctx.rng.int(12, 48), ctx.adultMonths));
  for (let i = 0; i < count; i++) {
    const job: CreditEmployment = {
      status: i === 0 ? 'CURRENT' : 'PREVIOUS',
      employer: employers[i] ?? ctx.rng.pick(EMPLOYERS),
      occupation: ctx.rng.pick(OCCUPATIONS),
      city: ctx.home.city,
      province: ctx.home.province,
      since: isoDate(sinceMs),
    };
    if (untilMs !== undefined) job.until = isoDate(untilMs);
    if (i === 0 && verifyCurrent) job.verified_date = isoDate(daysBefore(ctx.nowMs, ctx.rng.int(5, 80)));
    out.push(job);
    untilMs = daysBefore(sinceMs, ctx.rng.int(1, 40));
    sinceMs = monthsBefore(untilMs, ctx.rng.int(14, 36));
  }
  return out;
}

const INQUIRY_PURPOSES = [
  'Credit card application',
  'Line of credit application',
  'Auto financing',
  'Personal loan',
  'Mortgage pre-approval',
  'Telecom account',
];

function inquiryAt(ctx: Ctx, atMs: number, purpose: string): Inquiry {
  const member =
    purpose === 'Telecom account'
      ? ctx.rng.pick(TELCOS)
      : purpose === 'Auto financing'
        ? ctx.rng.pick(AUTO_LENDERS)
        : ctx.rng.pick([...BANK_NAMES, ...CARD_ISSUERS]);
  return { date: isoDate(atMs), member_name: member, member_phone: fictionalPhone(ctx.rng, ctx.rng.pick(CITIES)), purpose };
}

/** `count` inquiries spread over the last `withinMonths` months (never before the file opened). */
function inquiries(ctx: Ctx, count: number, withinMonths: number): Inquiry[] {
  const earliest = Math.max(monthsBefore(ctx.nowMs, withinMonths), ctx.fileSinceMs);
  const spanDays = Math.max(1, Math.floor((ctx.nowMs - earliest) / 86_400_000));
  return Array.from({ length: count }, () => inquiryAt(ctx, daysBefore(ctx.nowMs, ctx.rng.int(1, spanDays)), ctx.rng.pick(INQUIRY_PURPOSES)));
}

function bankingRecords(ctx: Ctx): BankingRecord[] {
  const bank = ctx.rng.pick(BANK_NAMES);
  const reported = isoDate(daysBefore(ctx.nowMs, ctx.rng.int(5, 40)));
  const monthsAgo = (min: number, max: number) => isoDate(monthsBefore(ctx.nowMs, Math.min(ctx.rng.int(min, max), ctx.fileMonths)));
  const record = (
    institution: string,
    accountType: BankingRecord['account_type'],
    opened: string,
    status: BankingRecord['status'],
    nsfCount: number,
    reportedDate: string,
  ): BankingRecord => ({
    institution,
    account_type: accountType,
    account_number_masked: maskedAccount(ctx.rng, 7),
    opened_date: opened,
    status,
    nsf_count: nsfCount,
    reported_date: reportedDate,
  });
  const records = [record(bank, 'CHEQUING', monthsAgo(36, 180), 'OPEN', 0, reported), record(bank, 'SAVINGS', monthsAgo(24, 120), 'OPEN', 0, reported)];
  if (ctx.rng.chance(0.5)) {
    // An old account elsewhere, closed after a returned payment.
    const other = ctx.rng.pick(BANK_NAMES.filter((name) => name !== bank));
    records.push(record(other, 'CHEQUING', monthsAgo(60, 200), 'CLOSED', 1, monthsAgo(12, 36)));
  }
  return records;
}

// ---------------------------------------------------------------- trades

const RATING_LETTER: Record<Trade['type'], string> = {
  REVOLVING: 'R',
  INSTALLMENT: 'I',
  OPEN: 'O',
  MORTGAGE: 'M',
  LINE_OF_CREDIT: 'C',
};

export const RATING_DESCRIPTIONS: Record<number, string> = {
  0: 'Too new to rate; approved but not used',
  1: 'Pays within 30 days of billing; pays as agreed',
  2: 'Pays in more than 30 days but not more than 60 days',
  3: 'Pays in more than 60 days but not more than 90 days',
  4: 'Pays in more than 90 days but not more than 120 days',
  5: 'Account at least 120 days overdue but not yet rated 9',
  7: 'Making regular payments under a consolidation order, proposal or debt management plan',
  8: 'Repossession (voluntary or involuntary return of merchandise)',
  9: 'Bad debt; placed for collection; or included in bankruptcy',
};

interface TradeSpec {
  creditor: string;
  type: Trade['type'];
  purpose: Trade['purpose'];
  digit: number;
  status: Trade['status'];
  openedMonthsAgo: number;
  creditLimit?: number;
  highCredit: number;
  balance: number;
  pastDue?: number;
  monthlyPayment: number;
  /** When the creditor last reported (defaults to within the last month). */
  reportedMs?: number;
  collateral?: string;
  remarks?: string[];
}

function trade(ctx: Ctx, spec: TradeSpec): Trade {
  const openedMonthsAgo = Math.max(1, Math.min(spec.openedMonthsAgo, ctx.fileMonths));
  const openedMs = Math.max(daysBefore(monthsBefore(ctx.nowMs, openedMonthsAgo), ctx.rng.int(0, 20)), ctx.fileSinceMs);
  // A creditor reports a month after opening at the earliest, and never in the future.
  const reportedMs = Math.min(Math.max(spec.reportedMs ?? daysBefore(ctx.nowMs, ctx.rng.int(2, 28)), daysAfter(openedMs, 31)), ctx.nowMs);
  const monthsReviewed = monthsBetween(openedMs, reportedMs);
  const pattern = paymentPattern(spec.digit, monthsReviewed);
  const item: Trade = {
    creditor: spec.creditor,
    member_number: memberNumber(ctx.rng, ctx.home.province),
    account_number_masked: maskedAccount(ctx.rng, spec.type === 'REVOLVING' ? 16 : 10),
    type: spec.type,
    purpose: spec.purpose,
    rating: `${RATING_LETTER[spec.type]}${spec.digit}`,
    rating_description: RATING_DESCRIPTIONS[spec.digit] ?? 'Unrated',
    status: spec.status,
    ...(spec.creditLimit !== undefined ? { credit_limit: spec.creditLimit } : {}),
    high_credit: spec.highCredit,
    balance: spec.balance,
    past_due: spec.pastDue ?? 0,
    monthly_payment: spec.monthlyPayment,
    opened_date: isoDate(openedMs),
    last_reported_date: isoDate(reportedMs),
    last_activity_date: isoDate(daysBefore(reportedMs, ctx.rng.int(0, 25))),
    months_reviewed: monthsReviewed,
    payment_pattern: pattern,
    payment_history: {
      late_30: count(pattern, '2'),
      late_60: count(pattern, '3'),
      late_90_plus: count(pattern, '4') + count(pattern, '5') + count(pattern, '8') + count(pattern, '9'),
    },
    joint: ctx.rng.chance(0.1),
    ...(spec.collateral !== undefined ? { collateral: spec.collateral } : {}),
    remarks: spec.remarks ?? [],
  };
  return item;
}

/**
 * Monthly rating digits, most recent first, consistent with the current rating: a delinquency walks up one
 * step a month (1,2,3,4,5) before it is rated 5, 8 or 9; a proposal (7) follows the lates that led to it.
 */
export function paymentPattern(digit: number, monthsReviewed: number): string {
  const length = Math.min(24, monthsReviewed);
  let recent: string;
  if (digit <= 1) recent = '';
  else if (digit <= 5) recent = Array.from({ length: digit - 1 }, (_, i) => String(digit - i)).join('');
  else if (digit === 7) recent = '7'.repeat(6) + '432';
  else recent = String(digit).repeat(digit === 9 ? 4 : 1) + '5432';
  const base = digit === 0 ? '0' : '1';
  return (recent + base.repeat(24)).slice(0, length);
}

interface CardOptions {
  digit?: number;
  status?: Trade['status'];
  creditor?: string;
  purpose?: Trade['purpose'];
  limitRange?: readonly [number, number];
  utilization?: readonly [number, number];
  openedMonthsAgo?: readonly [number, number];
  reportedMonthsAgo?: number;
  highCredit?: number;
  remarks?: string[];
}

function card(ctx: Ctx, options: CardOptions = {}): Trade {
  const digit = options.digit ?? 1;
  const limit = roundTo(ctx.rng.int(...(options.limitRange ?? [2000, 15000])), 100);
  const [uMin, uMax] = options.utilization ?? [0.05, 0.3];
  const balance = Math.min(limit, Math.round(limit * ctx.rng.float(uMin, uMax)));
  const closed = options.status === 'CLOSED';
  const spec: TradeSpec = {
    creditor: options.creditor ?? ctx.rng.pick([...CARD_ISSUERS, ...BANK_NAMES]),
    type: 'REVOLVING',
    purpose: options.purpose ?? 'CREDIT_CARD',
    digit,
    status: options.status ?? 'OPEN',
    openedMonthsAgo: ctx.rng.int(...(options.openedMonthsAgo ?? [18, 150])),
    creditLimit: limit,
    highCredit: options.highCredit ?? Math.max(balance, Math.round(limit * ctx.rng.float(0.3, 0.95))),
    balance: closed ? 0 : balance,
    pastDue: pastDueFor(digit, balance),
    monthlyPayment: closed || balance === 0 || digit >= 8 ? 0 : Math.max(10, Math.round(balance * 0.03)),
    remarks: options.remarks ?? [],
  };
  if (options.reportedMonthsAgo !== undefined) spec.reportedMs = monthsBefore(ctx.nowMs, options.reportedMonthsAgo);
  else if (closed) spec.reportedMs = monthsBefore(ctx.nowMs, ctx.rng.int(3, 12));
  return trade(ctx, spec);
}

/** What a delinquent account owes now: the missed minimum payments, or everything once written off. */
function pastDueFor(digit: number, balance: number): number {
  if (digit <= 1 || digit === 7) return 0;
  if (digit >= 8) return balance;
  return Math.min(balance, Math.max(25, Math.round(balance * 0.03)) * (digit - 1));
}

function lineOfCredit(ctx: Ctx, digit: number, openedMonthsAgo: readonly [number, number] = [24, 120]): Trade {
  const limit = roundTo(ctx.rng.int(5000, 25000), 500);
  const balance = Math.round(limit * ctx.rng.float(0, 0.35));
  return trade(ctx, {
    creditor: ctx.rng.pick(BANK_NAMES),
    type: 'LINE_OF_CREDIT',
    purpose: 'LINE_OF_CREDIT',
    digit,
    status: 'OPEN',
    openedMonthsAgo: ctx.rng.int(...openedMonthsAgo),
    creditLimit: limit,
    highCredit: Math.max(balance, Math.round(limit * ctx.rng.float(0.2, 0.7))),
    balance,
    pastDue: pastDueFor(digit, balance),
    monthlyPayment: balance === 0 ? 0 : Math.max(25, Math.round(balance * 0.025)),
  });
}

/** A prime file's revolving trades: cards, then a line of credit. */
function standardTrades(ctx: Ctx, count: number): Trade[] {
  return Array.from({ length: count }, (_, index) => (index === 2 ? lineOfCredit(ctx, 1) : card(ctx)));
}

function securedCard(ctx: Ctx, openedMonthsAgo: number): Trade {
  const limit = roundTo(ctx.rng.int(500, 1500), 100);
  return {
    ...card(ctx, { limitRange: [limit, limit], openedMonthsAgo: [Math.max(1, openedMonthsAgo), Math.max(1, openedMonthsAgo)], utilization: [0.05, 0.3] }),
    collateral: `Security deposit of $${limit}`,
    remarks: ['Secured credit card'],
  };
}

function autoLoan(ctx: Ctx, digit: number, status: Trade['status']): Trade {
  const high = roundTo(ctx.rng.int(18000, 55000), 100);
  const term = ctx.rng.pick([60, 72, 84]);
  const elapsed = Math.min(ctx.rng.int(10, 40), ctx.fileMonths);
  const remaining = Math.round(high * (1 - elapsed / term) * 1.05);
  const repossessed = digit === 8;
  const year = new Date(monthsBefore(ctx.nowMs, elapsed)).getUTCFullYear() - ctx.rng.int(0, 2);
  const vehicle = `${year} ${ctx.rng.pick(VEHICLES)}`;
  const monthly = Math.round((high / term) * 1.1);
  // After a repossession the vehicle's sale leaves a deficiency, all of it past due.
  const balance = repossessed ? Math.round(remaining * ctx.rng.float(0.25, 0.45)) : remaining;
  const spec: TradeSpec = {
    creditor: ctx.rng.pick(AUTO_LENDERS),
    type: 'INSTALLMENT',
    purpose: 'AUTO_LOAN',
    digit,
    status,
    openedMonthsAgo: elapsed,
    highCredit: high,
    balance,
    pastDue: repossessed ? balance : pastDueFor(digit, monthly * 3),
    monthlyPayment: repossessed ? 0 : monthly,
    collateral: vehicle,
    remarks: repossessed ? ['Vehicle repossessed; deficiency balance owing'] : [],
  };
  if (repossessed) spec.reportedMs = monthsBefore(ctx.nowMs, ctx.rng.int(2, 8));
  return trade(ctx, spec);
}

function mortgage(ctx: Ctx, options: { digit: number; status: Trade['status']; reportedMs?: number }): Trade {
  const high = roundTo(ctx.rng.int(280000, 750000), 1000);
  const elapsed = Math.min(ctx.rng.int(24, 120), ctx.fileMonths);
  const balance = Math.round(high * (1 - (elapsed / 300) * 0.8));
  const monthly = Math.round(high * 0.0055);
  const spec: TradeSpec = {
    creditor: ctx.rng.pick(BANK_NAMES),
    type: 'MORTGAGE',
    purpose: 'MORTGAGE',
    digit: options.digit,
    status: options.status,
    openedMonthsAgo: elapsed,
    highCredit: high,
    balance,
    pastDue: options.digit >= 8 ? monthly * ctx.rng.int(5, 9) : pastDueFor(options.digit, monthly),
    monthlyPayment: monthly,
    collateral: 'Residential property, first charge',
    remarks: options.digit >= 8 ? ['Mortgage in default; power of sale proceedings'] : [],
  };
  if (options.reportedMs !== undefined) spec.reportedMs = options.reportedMs;
  return trade(ctx, spec);
}

function telco(ctx: Ctx, service: string): Trade {
  const bill = ctx.rng.int(45, 160);
  return trade(ctx, {
    creditor: ctx.rng.pick(TELCOS),
    type: 'OPEN',
    purpose: 'TELECOM',
    digit: 1,
    status: 'OPEN',
    openedMonthsAgo: ctx.rng.int(6, 36),
    highCredit: bill + ctx.rng.int(0, 80),
    balance: bill,
    monthlyPayment: bill,
    remarks: [service],
  });
}

/** Trades opened before a filing, reported once after it as included in the bankruptcy or proposal. */
function tradesIncludedIn(ctx: Ctx, filedMs: number, n: number, status: 'INCLUDED_IN_BANKRUPTCY' | 'INCLUDED_IN_PROPOSAL', digit: 7 | 9): Trade[] {
  const monthsToFiling = monthsBetween(filedMs, ctx.nowMs);
  const makers = [
    () => card(ctx, { digit, status, utilization: [0.9, 1], openedMonthsAgo: [monthsToFiling + 18, monthsToFiling + 96] }),
    () => lineOfCredit(ctx, digit, [monthsToFiling + 24, monthsToFiling + 120]),
    () =>
      card(ctx, {
        digit,
        status,
        creditor: ctx.rng.pick(RETAIL_CREDITORS),
        purpose: 'RETAIL_CARD',
        limitRange: [1000, 4000],
        utilization: [0.9, 1],
        openedMonthsAgo: [monthsToFiling + 12, monthsToFiling + 60],
      }),
  ];
  return Array.from({ length: n }, (_, index) => {
    const base = (makers[index % makers.length] as () => Trade)();
    const reportedMs = monthsAfter(filedMs, 1) > ctx.nowMs ? daysBefore(ctx.nowMs, 3) : monthsAfter(filedMs, 1);
    const monthsReviewed = monthsBetween(Date.parse(base.opened_date), reportedMs);
    const pattern = paymentPattern(digit, monthsReviewed);
    return {
      ...base,
      status,
      rating: `${base.rating[0]}${digit}`,
      rating_description: RATING_DESCRIPTIONS[digit] as string,
      // Unsecured debts stop being collectible at the filing: bureaus report them at a zero balance.
      balance: 0,
      past_due: 0,
      monthly_payment: 0,
      high_credit: Math.max(base.high_credit, base.credit_limit ?? 0),
      last_reported_date: isoDate(reportedMs),
      last_activity_date: isoDate(daysBefore(filedMs, ctx.rng.int(10, 60))),
      months_reviewed: monthsReviewed,
      payment_pattern: pattern,
      payment_history: {
        late_30: count(pattern, '2'),
        late_60: count(pattern, '3'),
        late_90_plus: count(pattern, '4') + count(pattern, '5') + count(pattern, '8') + count(pattern, '9'),
      },
      remarks: [status === 'INCLUDED_IN_BANKRUPTCY' ? 'Included in bankruptcy' : 'Included in consumer proposal'],
    };
  });
}

// ---------------------------------------------------------------- public records

interface BankruptcySpec {
  type: Bankruptcy['type'];
  status: Bankruptcy['status'];
  filedMs: number;
  dischargedMs?: number;
  automaticDischargeMs?: number;
  petitioningCreditor?: string;
  narrative: string;
}

/** A file whose only derogatory item is one bankruptcy that swallowed `tradeCount` trades. */
function fileBankruptcy(ctx: Ctx, file: CreditFile, filedMs: number, tradeCount: number, spec: (included: readonly Trade[]) => BankruptcySpec): void {
  const included = tradesIncludedIn(ctx, filedMs, tradeCount, 'INCLUDED_IN_BANKRUPTCY', 9);
  file.trades = included;
  file.bankruptcies = [bankruptcy(ctx, included, spec(included))];
}

function bankruptcy(ctx: Ctx, included: readonly Trade[], spec: BankruptcySpec): Bankruptcy {
  const trusteeCity = ctx.home;
  const liabilities = included.reduce((sum, t) => sum + t.high_credit, 0) + roundTo(ctx.rng.int(5000, 60000), 100);
  const item: Bankruptcy = {
    type: spec.type,
    status: spec.status,
    filed_date: isoDate(spec.filedMs),
    liabilities,
    assets: roundTo(ctx.rng.int(500, Math.max(600, Math.round(liabilities * 0.15))), 100),
    trustee: { name: ctx.rng.pick(TRUSTEES), city: trusteeCity.city, phone: fictionalPhone(ctx.rng, trusteeCity) },
    court: `${superiorCourt(ctx.home.province)} (in Bankruptcy and Insolvency)`,
    estate_number: `${ctx.rng.int(11, 51)}-${ctx.rng.int(1000000, 3999999)}`,
    narrative: spec.narrative,
  };
  if (spec.dischargedMs !== undefined) item.discharged_date = isoDate(spec.dischargedMs);
  if (spec.automaticDischargeMs !== undefined) item.automatic_discharge_eligible_date = isoDate(spec.automaticDischargeMs);
  if (spec.petitioningCreditor !== undefined) item.petitioning_creditor = spec.petitioningCreditor;
  return item;
}

function collection(ctx: Ctx, category: Collection['category'], amount: number, status: Collection['status'], assignedMonthsAgo: number): Collection {
  const assignedMs = daysBefore(monthsBefore(ctx.nowMs, Math.min(assignedMonthsAgo, ctx.fileMonths)), ctx.rng.int(0, 20));
  const item: Collection = {
    agency: ctx.rng.pick(COLLECTION_AGENCIES),
    agency_phone: fictionalPhone(ctx.rng, ctx.rng.pick(CITIES)),
    original_creditor: ctx.rng.pick(COLLECTION_ORIGINAL_CREDITORS[category]),
    category,
    account_number_masked: maskedAccount(ctx.rng, 10),
    assigned_date: isoDate(assignedMs),
    original_amount: amount,
    balance: amount,
    status,
  };
  const monthsSince = monthsBetween(assignedMs, ctx.nowMs);
  if (status === 'PAID') {
    const paidMs = monthsAfter(assignedMs, ctx.rng.int(1, Math.max(1, Math.min(10, monthsSince - 1))));
    item.balance = 0;
    item.paid_date = isoDate(paidMs);
    item.last_payment_date = item.paid_date;
  } else if (status === 'PARTIALLY_PAID') {
    item.balance = Math.round(amount * ctx.rng.float(0.35, 0.8));
    item.last_payment_date = isoDate(monthsAfter(assignedMs, ctx.rng.int(1, Math.max(1, monthsSince - 1))));
  }
  return item;
}

function judgement(ctx: Ctx, satisfied: boolean): LegalItem {
  const filedMs = monthsBefore(ctx.nowMs, ctx.rng.int(satisfied ? 18 : 6, satisfied ? 48 : 30));
  const amount = ctx.rng.int(1500, 25000);
  const smallClaims = amount <= 35000 && ctx.rng.chance(0.6);
  const item: LegalItem = {
    type: 'JUDGEMENT',
    status: satisfied ? 'SATISFIED' : 'UNSATISFIED',
    court: smallClaims ? smallClaimsCourt(ctx.home.province) : superiorCourt(ctx.home.province),
    case_number: courtFile(ctx, filedMs, smallClaims ? 'SC' : 'CV'),
    plaintiff: ctx.rng.pick([...CARD_ISSUERS, ...COLLECTION_ORIGINAL_CREDITORS.RENTAL, ...BANK_NAMES]),
    defendant: ctx.defendant,
    amount,
    filed_date: isoDate(filedMs),
    narrative: satisfied ? 'Judgement for debt; paid in full and satisfaction filed with the court.' : 'Judgement for debt; unpaid.',
  };
  if (satisfied) item.satisfied_date = isoDate(monthsAfter(filedMs, ctx.rng.int(3, 14)));
  return item;
}

/** Court file numbers in the Ontario style: CV-24-00012345 (civil), SC-24-01234 (small claims). */
function courtFile(ctx: Ctx, filedMs: number, prefix: 'CV' | 'SC'): string {
  const year = String(new Date(filedMs).getUTCFullYear()).slice(2);
  const digits = prefix === 'CV' ? 8 : 5;
  return `${prefix}-${year}-${String(ctx.rng.int(0, 10 ** digits - 1)).padStart(digits, '0')}`;
}

// ====================================================================== summary, reasons, insights

function summarize(file: CreditFile, nowMs: number): HardCreditReport['summary'] {
  const open = file.trades.filter((t) => t.status === 'OPEN');
  const revolving = open.filter((t) => t.type === 'REVOLVING' || t.type === 'LINE_OF_CREDIT');
  const revolvingLimit = revolving.reduce((sum, t) => sum + (t.credit_limit ?? 0), 0);
  const revolvingBalance = revolving.reduce((sum, t) => sum + t.balance, 0);
  const yearAgo = isoDate(monthsBefore(nowMs, 12));
  const oldest = file.trades.map((t) => t.opened_date).sort()[0];
  const summary: HardCreditReport['summary'] = {
    trade_count: file.trades.length,
    open_trade_count: open.length,
    total_balance: file.trades.reduce((sum, t) => sum + t.balance, 0),
    total_revolving_limit: revolvingLimit,
    past_due_total: file.trades.reduce((sum, t) => sum + t.past_due, 0),
    derogatory_count: file.trades.filter((t) => ratingDigit(t) >= 4).length + file.collections.length + file.legal_items.length + file.bankruptcies.length,
    collections_count: file.collections.length,
    legal_items_count: file.legal_items.length,
    bankruptcies_count: file.bankruptcies.length,
    inquiries_last_12_months: file.inquiries.filter((i) => i.date >= yearAgo).length,
  };
  if (revolvingLimit > 0) summary.revolving_utilization_pct = Math.round((revolvingBalance / revolvingLimit) * 100);
  if (oldest !== undefined) summary.oldest_trade_date = oldest;
  return summary;
}

function ratingDigit(t: Trade): number {
  return Number(t.rating[1]);
}

type Factor = AiInsights['risk_factors'][number];
const SEVERITY_ORDER = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

function riskFactors(file: CreditFile, summary: HardCreditReport['summary']): Factor[] {
  const factors: Factor[] = [];
  const add = (code: string, severity: Factor['severity'], description: string) => factors.push({ code, severity, description });
  if (file.subject.deceased) add('DECEASED_INDICATOR', 'CRITICAL', `Death notice on file (date of death ${file.subject.deceased_date}).`);
  for (const b of file.bankruptcies) {
    if (b.type === 'CONSUMER_PROPOSAL') {
      const made = `${b.proposal?.payments_made ?? 0} of ${b.proposal?.term_months ?? 60} payments made`;
      add('ACTIVE_CONSUMER_PROPOSAL', 'HIGH', `Consumer proposal filed ${b.filed_date}, ${made}.`);
    } else if (b.status === 'DISCHARGED') {
      add('PRIOR_BANKRUPTCY', 'MEDIUM', `Bankruptcy filed ${b.filed_date}, discharged ${b.discharged_date}.`);
    } else {
      const kind = b.type === 'RECEIVING_ORDER' ? 'Bankruptcy by receiving order' : 'Bankruptcy';
      add('UNDISCHARGED_BANKRUPTCY', 'CRITICAL', `${kind} filed ${b.filed_date}, status ${b.status}; liabilities $${b.liabilities}.`);
    }
  }
  const unpaid = file.collections.filter((c) => c.status !== 'PAID');
  if (unpaid.length > 0) {
    const owing = unpaid.reduce((sum, c) => sum + c.balance, 0);
    add('UNPAID_COLLECTIONS', unpaid.length >= 3 ? 'CRITICAL' : 'HIGH', `${unpaid.length} unpaid collection(s) totalling $${owing}.`);
  }
  for (const c of file.collections.filter((c) => c.status === 'PAID'))
    add('PAID_COLLECTION', 'LOW', `Collection by ${c.agency} paid in full on ${c.paid_date}.`);
  for (const l of file.legal_items) {
    if (l.type === 'FORECLOSURE') add('FORECLOSURE', 'CRITICAL', `Foreclosure by ${l.plaintiff} filed ${l.filed_date}.`);
    else if (l.type === 'GARNISHMENT')
      add('WAGE_GARNISHMENT', 'HIGH', `Wages garnished through ${l.garnishee ?? 'the employer'} since ${l.filed_date} ($${l.amount}).`);
    else if (l.status === 'SATISFIED') add('SATISFIED_JUDGEMENT', 'LOW', `Judgement of $${l.amount} satisfied on ${l.satisfied_date}.`);
    else add('UNSATISFIED_JUDGEMENT', 'HIGH', `Unsatisfied judgement of $${l.amount} in favour of ${l.plaintiff}.`);
  }
  // Trades inside a bankruptcy or proposal are already counted by that item.
  const byDigit = (predicate: (digit: number) => boolean) =>
    file.trades.filter((t) => t.status !== 'INCLUDED_IN_BANKRUPTCY' && t.status !== 'INCLUDED_IN_PROPOSAL' && predicate(ratingDigit(t)));
  for (const t of byDigit((d) => d === 8)) {
    add('REPOSSESSION', 'CRITICAL', `${t.creditor} repossessed the collateral (${t.collateral ?? 'goods'}); $${t.balance} deficiency owing.`);
  }
  for (const t of byDigit((d) => d === 9))
    add('CHARGED_OFF_TRADE', 'HIGH', `${t.creditor} account rated ${t.rating} (${t.status.toLowerCase().replace(/_/g, ' ')}).`);
  for (const t of byDigit((d) => d === 4 || d === 5)) add('SERIOUS_DELINQUENCY', 'HIGH', `${t.creditor} account rated ${t.rating}, $${t.past_due} past due.`);
  const lates = byDigit((d) => d === 2 || d === 3);
  if (lates.length > 0) add('RECENT_LATE_PAYMENTS', 'MEDIUM', `${lates.length} trade(s) currently 30-90 days late (${lates.map((t) => t.rating).join(', ')}).`);
  if ((summary.revolving_utilization_pct ?? 0) > 70) add('HIGH_UTILIZATION', 'MEDIUM', `Revolving utilization ${summary.revolving_utilization_pct}%.`);
  if (summary.inquiries_last_12_months >= 6) add('CREDIT_SEEKING', 'MEDIUM', `${summary.inquiries_last_12_months} inquiries in the last 12 months.`);
  if (summary.trade_count === 0) add('THIN_FILE', 'MEDIUM', `No trades on file; file opened ${file.subject.file_since}.`);
  for (const a of file.alerts) {
    if (a.type === 'FRAUD_ALERT') add('FRAUD_ALERT', 'HIGH', `Fraud alert on file: confirm identity by calling ${a.contact_phone} before granting credit.`);
    if (a.type === 'FOREIGN_INQUIRY') add('FOREIGN_INQUIRY', 'MEDIUM', `File accessed through a foreign bureau on ${a.added_date}.`);
  }
  return factors.sort((a, b) => SEVERITY_ORDER.indexOf(b.severity) - SEVERITY_ORDER.indexOf(a.severity));
}

function positiveFactors(file: CreditFile, summary: HardCreditReport['summary'], nowMs: number): string[] {
  const out: string[] = [];
  const rated = file.trades.filter((t) => t.status === 'OPEN' || t.status === 'CLOSED' || t.status === 'PAID_AS_AGREED');
  if (rated.length > 0 && rated.every((t) => ratingDigit(t) === 1)) out.push(`All ${rated.length} active trade(s) paid as agreed.`);
  if (summary.oldest_trade_date !== undefined) {
    const years = Math.floor(monthsBetween(Date.parse(summary.oldest_trade_date), nowMs) / 12);
    if (years >= 5) out.push(`Credit history of ${years} years.`);
  }
  if (summary.revolving_utilization_pct !== undefined && summary.revolving_utilization_pct < 30)
    out.push(`Low revolving utilization (${summary.revolving_utilization_pct}%).`);
  if (file.trades.some((t) => t.type === 'MORTGAGE' && ratingDigit(t) === 1)) out.push('Mortgage paid as agreed.');
  const verified = file.employment.find((e) => e.verified_date !== undefined);
  if (verified) out.push(`Current employment with ${verified.employer} verified on ${verified.verified_date}.`);
  if (file.banking.some((b) => b.status === 'OPEN' && b.nsf_count === 0)) out.push('Bank accounts open and in good standing.');
  return out;
}

function deriveInsights(file: CreditFile, summary: HardCreditReport['summary'], score: number, uatType: UatTypeValue, nowMs: number): AiInsights {
  const factors = riskFactors(file, summary);
  const positives = positiveFactors(file, summary, nowMs);
  const worst = factors[0]?.severity;
  // Mirrors SEVERITY_SCORE_BANDS: none -> LOW, low/medium -> MODERATE, high -> HIGH, critical -> CRITICAL.
  const scoreLevel: AiInsights['risk_level'] = score >= 700 ? 'LOW' : score >= 560 ? 'MODERATE' : score >= 460 ? 'HIGH' : 'CRITICAL';
  const factorLevel: AiInsights['risk_level'] | undefined =
    worst === 'CRITICAL' ? 'CRITICAL' : worst === 'HIGH' ? 'HIGH' : worst === 'MEDIUM' ? 'MODERATE' : undefined;
  const levels = ['LOW', 'MODERATE', 'HIGH', 'CRITICAL'] as const;
  const riskLevel = levels[Math.max(levels.indexOf(scoreLevel), factorLevel ? levels.indexOf(factorLevel) : 0)] as AiInsights['risk_level'];

  let recommendation: AiInsights['recommendation'];
  let reason: string;
  if (worst === 'CRITICAL') {
    recommendation = 'DECLINE';
    reason = factors[0]?.description ?? 'Critical item on file.';
  } else if (score < 560) {
    recommendation = 'DECLINE';
    reason = `Score ${score} is below 560 (POOR band).`;
  } else if (worst === 'HIGH' || score < 660 || summary.trade_count === 0 || factors.some((f) => f.code === 'FOREIGN_INQUIRY')) {
    recommendation = 'REVIEW';
    const first = factors[0];
    reason = first ? `Manual review: ${first.description}` : `Manual review: score ${score} is in the ${scoreBand(score)} band.`;
  } else {
    recommendation = 'APPROVE';
    reason = `Score ${score} (${scoreBand(score)}) with no adverse items that need review.`;
  }
  const derogatory = summary.derogatory_count === 0 ? 'no derogatory items' : `${summary.derogatory_count} derogatory item(s)`;
  const summaryText =
    `Score ${score} (${scoreBand(score)}) on a file opened ${file.subject.file_since}: ${summary.trade_count} trade(s), ${derogatory}, ` +
    `${summary.inquiries_last_12_months} inquiry(ies) in the last 12 months. ` +
    (factors[0] ? `Main risk: ${factors[0].description} ` : positives[0] ? `Strength: ${positives[0]} ` : '') +
    `Persona ${uatType} (${uatTypeEntry(uatType).group}).`;
  return {
    model: INSIGHTS_MODEL,
    summary: summaryText,
    risk_level: riskLevel,
    risk_factors: factors,
    positive_factors: positives,
    recommendation,
    recommendation_reason: reason,
  };
}

function reasonCodes(insights: AiInsights): HardCreditReport['score']['reason_codes'] {
  const codes = insights.risk_factors.slice(0, 4).map((f) => ({ code: f.code, description: f.description }));
  if (codes.length > 0) return codes;
  return [
    { code: 'REVOLVING_BALANCES', description: 'Balances carried on revolving accounts.' },
    { code: 'LENGTH_OF_HISTORY', description: 'Length of time accounts have been established.' },
  ];
}

// ====================================================================== small helpers

function roundTo(value: number, step: number): number {
  return Math.max(step, Math.round(value / step) * step);
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/** Severity bands are re-exported for the reference table. */
export { SEVERITY_SCORE_BANDS };
