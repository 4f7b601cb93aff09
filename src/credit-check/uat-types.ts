/**
 * The credit bureau's test personas (spec: POST /v1/credit-check/hard, "Test mode"): the 30 uat_type values,
 * grouped as the spec lists them, each with what its report contains and the score range it lands in. The
 * report generator, the docs/reference.md table and GET /__sandbox/catalog all read this one table.
 *
 * LIMITATIONS:
 * - The real bureau's personas are fixed people; here the persona's content is fixed by the uat_type and the
 *   names, dates and amounts are derived from the session id, so two sessions with one uat_type differ in
 *   detail but never in kind.
 * - uat_type is matched exactly (case-sensitive), as an unrecognized value is on the real service: anything
 *   else gets a persona chosen from the session id, which the explanation says.
 */
import { hashParts } from '../platform/random/random.ts';

export type UatGroup = 'Clean' | 'Bankruptcy' | 'Collections' | 'Legal' | 'Loans and trades' | 'Alerts' | 'Other';

/** How bad the file is for a lender; scores of a worse severity are always lower (ranges never overlap upward). */
export type UatSeverity = 'none' | 'low' | 'medium' | 'high' | 'critical';

export interface UatTypeEntry {
  /** The uat_type value as sent. */
  input: string;
  group: UatGroup;
  /** What the report contains, one line. */
  outcome: string;
  description: string;
  severity: UatSeverity;
  /** Inclusive score range of the persona, on the 300-900 scale. */
  scoreRange: readonly [number, number];
}

/** Score bands per severity: disjoint, worse severity strictly lower. */
export const SEVERITY_SCORE_BANDS: Record<UatSeverity, readonly [number, number]> = {
  none: [700, 830],
  low: [640, 699],
  medium: [560, 639],
  high: [460, 559],
  critical: [300, 459],
};

export const UAT_TYPE_TABLE = [
  // ---- Clean
  {
    input: 'SHELL_FILE',
    group: 'Clean',
    outcome: 'thin file: one address, one inquiry, no trades',
    description: 'A file opened a few months ago by a single inquiry; no credit history to score on.',
    severity: 'medium',
    scoreRange: [600, 630],
  },
  {
    input: 'MULTIPLE_ADDRESS',
    group: 'Clean',
    outcome: 'clean file with 5-6 addresses in several provinces',
    description: 'Paid-as-agreed trades and a long address history across provinces within six years.',
    severity: 'none',
    scoreRange: [705, 750],
  },
  {
    input: 'STANDARD_HIT',
    group: 'Clean',
    outcome: 'clean file: cards and a line of credit, all R1',
    description: 'A typical prime file: every trade paid as agreed, low utilization, two inquiries.',
    severity: 'none',
    scoreRange: [745, 800],
  },
  // ---- Bankruptcy
  {
    input: 'BANKRUPTCY_DISCHARGED',
    group: 'Bankruptcy',
    outcome: 'voluntary assignment, discharged 3-4 years ago; rebuilding with a secured card',
    description: 'An old bankruptcy with a discharge date; old trades rated R9 included in bankruptcy.',
    severity: 'medium',
    scoreRange: [565, 610],
  },
  {
    input: 'BANKRUPTCY_UNDISCHARGED',
    group: 'Bankruptcy',
    outcome: 'voluntary assignment filed 2-3 years ago, still undischarged',
    description: 'A bankruptcy with no discharge (discharge opposed); every trade R9 included in bankruptcy.',
    severity: 'critical',
    scoreRange: [330, 380],
  },
  {
    input: 'BANKRUPTCY_VOLUNTARY',
    group: 'Bankruptcy',
    outcome: 'voluntary assignment filed 2-5 months ago (status FILED)',
    description: 'A fresh voluntary assignment with its automatic-discharge eligibility date still ahead.',
    severity: 'critical',
    scoreRange: [390, 430],
  },
  {
    input: 'BANKRUPTCY_PROPOSAL',
    group: 'Bankruptcy',
    outcome: 'consumer proposal, active, payments in progress',
    description: 'A consumer proposal with amount, monthly payment, term and payments made; trades R7.',
    severity: 'high',
    scoreRange: [470, 520],
  },
  {
    input: 'BANKRUPTCY_RECEIVING_ORDER',
    group: 'Bankruptcy',
    outcome: 'bankruptcy by receiving order (creditor petition), undischarged',
    description: 'An involuntary bankruptcy on a creditor petition; names the petitioning creditor.',
    severity: 'critical',
    scoreRange: [300, 325],
  },
  // ---- Collections
  {
    input: 'COLLECTION_UNPAID',
    group: 'Collections',
    outcome: 'one small unpaid collection (utility)',
    description: 'A single unpaid collection, balance equal to the amount assigned; trades otherwise R1.',
    severity: 'high',
    scoreRange: [525, 559],
  },
  {
    input: 'COLLECTION_UNPAID_2',
    group: 'Collections',
    outcome: 'larger unpaid bank-card collection, with its charged-off R9 trade',
    description: 'A charged-off credit card transferred to a collection agency; the whole balance still owing.',
    severity: 'high',
    scoreRange: [485, 520],
  },
  {
    input: 'COLLECTION_PAID',
    group: 'Collections',
    outcome: 'one collection paid in full, with its paid date',
    description: 'A telecom collection settled in full; balance 0 and a paid date.',
    severity: 'low',
    scoreRange: [645, 680],
  },
  {
    input: 'COLLECTION_MULTIPLE',
    group: 'Collections',
    outcome: '3-5 collections from different agencies, mostly unpaid',
    description: 'Several collections (telecom, medical, retail, gym...) with mixed statuses.',
    severity: 'critical',
    scoreRange: [420, 455],
  },
  // ---- Legal
  {
    input: 'JUDGEMENT',
    group: 'Legal',
    outcome: 'unsatisfied civil judgement',
    description: 'A small-claims or superior-court judgement with plaintiff, amount and status UNSATISFIED.',
    severity: 'high',
    scoreRange: [490, 540],
  },
  {
    input: 'JUDGEMENT_SATISFIED',
    group: 'Legal',
    outcome: 'civil judgement satisfied, with its satisfied date',
    description: 'A judgement paid off: status SATISFIED and a satisfied date after the filing.',
    severity: 'medium',
    scoreRange: [605, 639],
  },
  {
    input: 'FORECLOSURE',
    group: 'Legal',
    outcome: 'foreclosure (power of sale) and a mortgage rated M9',
    description: 'A lender foreclosure action (power of sale) on the property, with the mortgage trade charged off.',
    severity: 'critical',
    scoreRange: [380, 415],
  },
  {
    input: 'GARNISHMENT',
    group: 'Legal',
    outcome: 'active wage garnishment naming the employer as garnishee',
    description: 'A garnishment order against wages; the garnishee is the current employer on file.',
    severity: 'high',
    scoreRange: [460, 484],
  },
  // ---- Loans and trades
  {
    input: 'SECURE_LOAN',
    group: 'Loans and trades',
    outcome: 'secured loan backed by a GIC, rated I1',
    description: 'A credit-builder installment loan with collateral, paid as agreed.',
    severity: 'low',
    scoreRange: [650, 675],
  },
  {
    input: 'MORTGAGE',
    group: 'Loans and trades',
    outcome: 'residential mortgage rated M1',
    description: 'A large mortgage paid as agreed for years, plus cards.',
    severity: 'none',
    scoreRange: [770, 830],
  },
  {
    input: 'STUDENT_LOAN',
    group: 'Loans and trades',
    outcome: 'government student loan in repayment, rated I1',
    description: 'A student loan from the national loans centre, in repayment, plus one starter card.',
    severity: 'low',
    scoreRange: [676, 699],
  },
  {
    input: 'AUTO_LOAN',
    group: 'Loans and trades',
    outcome: 'auto loan rated I1 with the vehicle as collateral',
    description: 'A five-to-seven-year auto loan paid as agreed, plus cards.',
    severity: 'none',
    scoreRange: [715, 760],
  },
  {
    input: 'TRADE_R5',
    group: 'Loans and trades',
    outcome: 'a credit card rated R5 (120+ days past due)',
    description: 'A revolving trade in serious delinquency with a past-due amount and late history 30/60/90.',
    severity: 'high',
    scoreRange: [500, 524],
  },
  {
    input: 'TRADE_VARIOUS',
    group: 'Loans and trades',
    outcome: '6-8 trades of every kind with ratings R1, R2, R3, I2, O1, C1',
    description: 'A busy file mixing portfolio types and some recent lates.',
    severity: 'medium',
    scoreRange: [580, 604],
  },
  {
    input: 'TRADE_REPOSSESSION',
    group: 'Loans and trades',
    outcome: 'auto loan rated I8: vehicle repossessed',
    description: 'An auto loan ending in repossession, with the deficiency balance left owing.',
    severity: 'critical',
    scoreRange: [430, 459],
  },
  // ---- Alerts
  {
    input: 'FRAUD_ALERT',
    group: 'Alerts',
    outcome: 'fraud alert asking lenders to call the consumer first',
    description: 'A consumer-placed fraud alert with a contact phone; the file is otherwise clean.',
    severity: 'none',
    scoreRange: [700, 744],
  },
  {
    input: 'FOREIGN_INQUIRY',
    group: 'Alerts',
    outcome: 'inquiry from a foreign (US) bureau, flagged by an alert',
    description: 'A cross-border inquiry received through a US bureau, plus a FOREIGN_INQUIRY alert.',
    severity: 'low',
    scoreRange: [660, 690],
  },
  {
    input: 'MANY_INQUIRIES',
    group: 'Alerts',
    outcome: '9-14 hard inquiries in the last 12 months',
    description: 'Credit seeking: many lenders pulled the file within the year.',
    severity: 'medium',
    scoreRange: [560, 579],
  },
  // ---- Other
  {
    input: 'EMPLOYMENT',
    group: 'Other',
    outcome: 'clean file with 3-4 employers, the current one verified',
    description: 'An employment history with dates and a verification date on the current employer.',
    severity: 'none',
    scoreRange: [720, 770],
  },
  {
    input: 'BANKING',
    group: 'Other',
    outcome: 'clean file with chequing and savings accounts reported',
    description: 'Banking information: institution, account type, opening date and NSF count per account.',
    severity: 'none',
    scoreRange: [710, 755],
  },
  {
    input: 'TELCO',
    group: 'Other',
    outcome: 'telecom trades (mobile, internet, TV) rated O1',
    description: 'Open telecom accounts paid monthly; no bank credit yet.',
    severity: 'low',
    scoreRange: [645, 670],
  },
  {
    input: 'DEATH_NOTICE',
    group: 'Other',
    outcome: 'deceased indicator with date of death; score floor',
    description: 'A death notice on file: subject.deceased true, a DECEASED alert, score 300.',
    severity: 'critical',
    scoreRange: [300, 300],
  },
] as const satisfies readonly UatTypeEntry[];

export type UatTypeValue = (typeof UAT_TYPE_TABLE)[number]['input'];

/** The 30 values in the spec's order. */
export const UAT_TYPE_VALUES = UAT_TYPE_TABLE.map((entry) => entry.input) as unknown as readonly [UatTypeValue, ...UatTypeValue[]];

export function uatTypeEntry(uatType: UatTypeValue): UatTypeEntry {
  const entry = UAT_TYPE_TABLE.find((candidate) => candidate.input === uatType);
  if (!entry) throw new Error(`unknown uat_type ${uatType}`);
  return entry;
}

export function isUatType(value: string): value is UatTypeValue {
  return UAT_TYPE_TABLE.some((entry) => entry.input === value);
}

export interface UatTypeResolution {
  uatType: UatTypeValue;
  source: 'requested' | 'derived-from-session-id';
  explanation: string;
}

/**
 * The persona a credit check runs with: the requested uat_type when it is one of the 30, otherwise one
 * chosen from a hash of the session id (the spec says "at random"; deterministic so a session always looks
 * the same).
 */
export function resolveUatType(requested: string | undefined, sessionId: string): UatTypeResolution {
  if (requested !== undefined && isUatType(requested)) {
    return {
      uatType: requested,
      source: 'requested',
      explanation: `uat_type ${requested} -> ${uatTypeEntry(requested).outcome}`,
    };
  }
  const index = hashParts('credit-check-uat-type', sessionId).readUInt32LE(0) % UAT_TYPE_TABLE.length;
  const chosen = (UAT_TYPE_TABLE[index] as UatTypeEntry).input as UatTypeValue;
  const why = requested === undefined ? 'no uat_type given' : `uat_type "${asciiOnly(requested)}" not recognized (values are case-sensitive)`;
  return {
    uatType: chosen,
    source: 'derived-from-session-id',
    explanation: `${why}; persona chosen from the session id -> ${chosen}: ${uatTypeEntry(chosen).outcome}`,
  };
}

/** Explanations travel in a header: keep them ASCII and short. */
function asciiOnly(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 64);
}
