import { describe, expect, it } from 'vitest';
import { reportSignature as signature } from './report-signature.ts';
import { CreditReportSchema, HardCreditReportSchema, SoftCreditReportSchema, type HardCreditReport } from '../../src/credit-check/credit-check.schemas.ts';
import { buildCreditReport, creditScoreFor, paymentPattern, scoreBand } from '../../src/credit-check/credit-report.ts';
import { UAT_TYPE_TABLE, UAT_TYPE_VALUES, uatTypeEntry, type UatTypeValue } from '../../src/credit-check/uat-types.ts';

const NOW = '2026-03-15T12:00:00.000Z';
const TODAY = NOW.slice(0, 10);
const PERSON = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', phone: '+14165550123' };
const SEEDS = ['session-a', 'session-b', 'session-c', 'session-d'];

function hard(uatType: UatTypeValue, seed = 'session-a'): HardCreditReport {
  return buildCreditReport('hard', uatType, PERSON, ['credit-report', seed], NOW);
}

const digit = (rating: string) => Number(rating[1]);
/** Same day `months` earlier (negative: later), clamped to the month's last day. */
const monthsBefore = (iso: string, months: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.toISOString().slice(0, 10);
};

/** What each persona must contain: the feature that defines it. */
const DEFINING_FEATURE: Record<UatTypeValue, (r: HardCreditReport) => void> = {
  SHELL_FILE: (r) => {
    expect(r.trades).toEqual([]);
    expect(r.employment).toEqual([]);
    expect(r.addresses).toHaveLength(1);
    expect(r.inquiries).toHaveLength(1);
    expect(r.subject.file_since >= monthsBefore(TODAY, 6)).toBe(true);
    expect(r.inquiries[0]?.date).toBe(r.subject.file_since);
  },
  MULTIPLE_ADDRESS: (r) => {
    expect(r.addresses.length).toBeGreaterThanOrEqual(5);
    expect(new Set(r.addresses.map((a) => a.province)).size).toBe(r.addresses.length);
    expect(r.addresses.filter((a) => a.status === 'CURRENT')).toHaveLength(1);
    expect(r.addresses.at(-1)!.since >= monthsBefore(TODAY, 84)).toBe(true);
  },
  STANDARD_HIT: (r) => {
    expect(r.trades.map((t) => t.rating).sort()).toEqual(['C1', 'R1', 'R1']);
    expect(r.summary.derogatory_count).toBe(0);
    expect(r.ai_insights.recommendation).toBe('APPROVE');
  },
  BANKRUPTCY_DISCHARGED: (r) => {
    const [b] = r.bankruptcies;
    expect(b).toMatchObject({ type: 'VOLUNTARY_ASSIGNMENT', status: 'DISCHARGED' });
    expect(b!.discharged_date! > b!.filed_date).toBe(true);
    expect(r.trades.filter((t) => t.status === 'INCLUDED_IN_BANKRUPTCY').every((t) => digit(t.rating) === 9)).toBe(true);
    const rebuild = r.trades.find((t) => t.collateral?.startsWith('Security deposit'));
    expect(rebuild?.rating).toBe('R1');
    expect(rebuild!.opened_date > b!.discharged_date!).toBe(true);
  },
  BANKRUPTCY_UNDISCHARGED: (r) => {
    const [b] = r.bankruptcies;
    expect(b).toMatchObject({ type: 'VOLUNTARY_ASSIGNMENT', status: 'UNDISCHARGED' });
    expect(b).not.toHaveProperty('discharged_date');
    expect(b!.filed_date <= monthsBefore(TODAY, 24)).toBe(true);
    expect(r.trades.every((t) => t.status === 'INCLUDED_IN_BANKRUPTCY' && digit(t.rating) === 9)).toBe(true);
  },
  BANKRUPTCY_VOLUNTARY: (r) => {
    const [b] = r.bankruptcies;
    expect(b).toMatchObject({ type: 'VOLUNTARY_ASSIGNMENT', status: 'FILED' });
    expect(b!.filed_date >= monthsBefore(TODAY, 6)).toBe(true);
    expect(b!.automatic_discharge_eligible_date).toBe(monthsBefore(b!.filed_date, -9));
  },
  BANKRUPTCY_PROPOSAL: (r) => {
    const [b] = r.bankruptcies;
    expect(b).toMatchObject({ type: 'CONSUMER_PROPOSAL', status: 'ACTIVE' });
    expect(b!.proposal!.amount).toBeLessThan(b!.liabilities);
    expect(b!.proposal!.monthly_payment).toBe(Math.round(b!.proposal!.amount / b!.proposal!.term_months));
    expect(r.trades.every((t) => t.status === 'INCLUDED_IN_PROPOSAL' && digit(t.rating) === 7)).toBe(true);
  },
  BANKRUPTCY_RECEIVING_ORDER: (r) => {
    const [b] = r.bankruptcies;
    expect(b).toMatchObject({ type: 'RECEIVING_ORDER', status: 'UNDISCHARGED' });
    expect(r.trades.map((t) => t.creditor)).toContain(b!.petitioning_creditor);
  },
  COLLECTION_UNPAID: (r) => {
    expect(r.collections).toHaveLength(1);
    const [c] = r.collections;
    expect(c).toMatchObject({ status: 'UNPAID', category: 'UTILITY' });
    expect(c!.balance).toBe(c!.original_amount);
    expect(c).not.toHaveProperty('paid_date');
  },
  COLLECTION_UNPAID_2: (r) => {
    const [c] = r.collections;
    expect(r.collections).toHaveLength(1);
    expect(c).toMatchObject({ status: 'UNPAID', category: 'BANK_CARD' });
    const chargedOff = r.trades.find((t) => t.status === 'TRANSFERRED_TO_COLLECTION');
    expect(chargedOff?.rating).toBe('R9');
    expect(chargedOff?.creditor).toBe(c!.original_creditor);
    expect(chargedOff?.high_credit).toBe(c!.original_amount);
  },
  COLLECTION_PAID: (r) => {
    const [c] = r.collections;
    expect(r.collections).toHaveLength(1);
    expect(c).toMatchObject({ status: 'PAID', balance: 0 });
    expect(c!.paid_date! > c!.assigned_date).toBe(true);
    expect(c!.paid_date! <= TODAY).toBe(true);
  },
  COLLECTION_MULTIPLE: (r) => {
    expect(r.collections.length).toBeGreaterThanOrEqual(3);
    expect(r.collections.length).toBeLessThanOrEqual(5);
    expect(new Set(r.collections.map((c) => c.agency)).size).toBe(r.collections.length);
    expect(r.collections.filter((c) => c.status !== 'PAID').length).toBeGreaterThanOrEqual(2);
  },
  JUDGEMENT: (r) => {
    const [l] = r.legal_items;
    expect(l).toMatchObject({ type: 'JUDGEMENT', status: 'UNSATISFIED', defendant: 'DOE, JANE' });
    expect(l).not.toHaveProperty('satisfied_date');
    expect(l!.case_number).toMatch(/^(CV-\d{2}-\d{8}|SC-\d{2}-\d{5})$/);
  },
  JUDGEMENT_SATISFIED: (r) => {
    const [l] = r.legal_items;
    expect(l).toMatchObject({ type: 'JUDGEMENT', status: 'SATISFIED' });
    expect(l!.satisfied_date! > l!.filed_date).toBe(true);
  },
  FORECLOSURE: (r) => {
    const [l] = r.legal_items;
    const mortgage = r.trades.find((t) => t.purpose === 'MORTGAGE');
    expect(l).toMatchObject({ type: 'FORECLOSURE', status: 'ACTIVE' });
    expect(mortgage).toMatchObject({ rating: 'M9', status: 'FORECLOSURE' });
    expect(l!.plaintiff).toBe(mortgage!.creditor);
    expect(l!.property_address).toContain(r.addresses[0]!.civic_address);
  },
  GARNISHMENT: (r) => {
    const [l] = r.legal_items;
    expect(l).toMatchObject({ type: 'GARNISHMENT', status: 'ACTIVE' });
    expect(l!.garnishee).toBe(r.employment[0]!.employer);
  },
  SECURE_LOAN: (r) => {
    const loan = r.trades.find((t) => t.purpose === 'SECURED_LOAN');
    expect(loan).toMatchObject({ rating: 'I1', type: 'INSTALLMENT' });
    expect(loan!.collateral).toContain('GIC');
  },
  MORTGAGE: (r) => {
    const mortgage = r.trades.find((t) => t.purpose === 'MORTGAGE');
    expect(mortgage).toMatchObject({ rating: 'M1', status: 'OPEN' });
    expect(mortgage!.high_credit).toBeGreaterThanOrEqual(280000);
    expect(mortgage!.balance).toBeLessThan(mortgage!.high_credit);
  },
  STUDENT_LOAN: (r) => {
    const loan = r.trades.find((t) => t.purpose === 'STUDENT_LOAN');
    expect(loan).toMatchObject({ rating: 'I1', creditor: 'National Student Loans Service Centre' });
  },
  AUTO_LOAN: (r) => {
    const loan = r.trades.find((t) => t.purpose === 'AUTO_LOAN');
    expect(loan).toMatchObject({ rating: 'I1', status: 'OPEN' });
    expect(loan!.collateral).toMatch(/^\d{4} \w/);
  },
  TRADE_R5: (r) => {
    const late = r.trades.find((t) => t.rating === 'R5');
    expect(late!.past_due).toBeGreaterThan(0);
    expect(late!.payment_pattern.startsWith('5432')).toBe(true);
    expect(late!.payment_history.late_90_plus).toBe(2);
  },
  TRADE_VARIOUS: (r) => {
    expect(r.trades.length).toBeGreaterThanOrEqual(6);
    const ratings = new Set(r.trades.map((t) => t.rating));
    for (const rating of ['R1', 'R2', 'R3', 'I2', 'O1', 'C1']) expect(ratings).toContain(rating);
  },
  TRADE_REPOSSESSION: (r) => {
    const repo = r.trades.find((t) => t.rating === 'I8');
    expect(repo).toMatchObject({ status: 'REPOSSESSION', purpose: 'AUTO_LOAN' });
    expect(repo!.balance).toBeGreaterThan(0);
    expect(repo!.past_due).toBe(repo!.balance);
  },
  FRAUD_ALERT: (r) => {
    expect(r.alerts).toEqual([expect.objectContaining({ type: 'FRAUD_ALERT', contact_phone: '+14165550123' })]);
    expect(r.alerts[0]!.message).toContain('+14165550123');
    expect(r.ai_insights.recommendation).toBe('REVIEW');
  },
  FOREIGN_INQUIRY: (r) => {
    expect(r.inquiries.filter((i) => i.foreign_bureau?.country === 'US')).toHaveLength(1);
    expect(r.alerts.map((a) => a.type)).toEqual(['FOREIGN_INQUIRY']);
  },
  MANY_INQUIRIES: (r) => {
    const lastYear = r.inquiries.filter((i) => i.date >= monthsBefore(TODAY, 12));
    expect(lastYear.length).toBeGreaterThanOrEqual(9);
    expect(r.summary.inquiries_last_12_months).toBe(lastYear.length);
    expect(r.ai_insights.risk_factors.map((f) => f.code)).toContain('CREDIT_SEEKING');
  },
  EMPLOYMENT: (r) => {
    expect(r.employment.length).toBeGreaterThanOrEqual(3);
    expect(r.employment[0]).toMatchObject({ status: 'CURRENT' });
    expect(r.employment[0]!.verified_date).toBeDefined();
    for (const job of r.employment.slice(1)) expect(job.until! > job.since).toBe(true);
  },
  BANKING: (r) => {
    expect(r.banking.map((b) => b.account_type)).toEqual(expect.arrayContaining(['CHEQUING', 'SAVINGS']));
    expect(r.banking.filter((b) => b.status === 'OPEN').every((b) => b.nsf_count === 0)).toBe(true);
  },
  TELCO: (r) => {
    expect(r.trades.length).toBeGreaterThanOrEqual(2);
    expect(r.trades.every((t) => t.purpose === 'TELECOM' && t.rating === 'O1')).toBe(true);
  },
  DEATH_NOTICE: (r) => {
    expect(r.subject.deceased).toBe(true);
    expect(r.subject.deceased_date! <= TODAY).toBe(true);
    expect(r.alerts.map((a) => a.type)).toEqual(['DECEASED']);
    expect(r.score.value).toBe(300);
    expect(r.ai_insights.recommendation).toBe('DECLINE');
  },
};

describe('hard credit reports for the 30 uat_types', () => {
  it.each(UAT_TYPE_VALUES)('%s parses with the report schema and carries its defining feature', (uatType) => {
    for (const seed of SEEDS) {
      const report = hard(uatType, seed);
      expect(HardCreditReportSchema.parse(report)).toEqual(report);
      expect(report.uat_type).toBe(uatType);
      DEFINING_FEATURE[uatType](report);
    }
  });

  it('gives the 30 types 30 distinct file shapes, for every seed', () => {
    for (const seed of SEEDS) {
      const signatures = new Set(UAT_TYPE_VALUES.map((uatType) => signature(hard(uatType, seed))));
      expect(signatures.size).toBe(30);
    }
  });

  it('keeps each public-record section to the personas it belongs to', () => {
    for (const uatType of UAT_TYPE_VALUES) {
      const report = hard(uatType);
      const group = uatTypeEntry(uatType).group;
      expect(report.bankruptcies.length > 0).toBe(group === 'Bankruptcy');
      expect(report.collections.length > 0).toBe(group === 'Collections');
      expect(report.legal_items.length > 0).toBe(group === 'Legal');
      expect(report.subject.deceased).toBe(uatType === 'DEATH_NOTICE');
      expect(report.alerts.some((a) => a.type === 'FRAUD_ALERT')).toBe(uatType === 'FRAUD_ALERT');
      expect(report.banking.length > 0).toBe(uatType === 'BANKING');
    }
  });

  it('scores every persona inside its table range, so worse files score lower', () => {
    for (const entry of UAT_TYPE_TABLE) {
      for (const seed of SEEDS) {
        const report = hard(entry.input, seed);
        expect(report.score.value).toBeGreaterThanOrEqual(entry.scoreRange[0]);
        expect(report.score.value).toBeLessThanOrEqual(entry.scoreRange[1]);
        expect(report.score.band).toBe(scoreBand(report.score.value));
      }
    }
    expect(hard('BANKRUPTCY_RECEIVING_ORDER').score.value).toBeLessThan(hard('BANKRUPTCY_DISCHARGED').score.value);
    expect(hard('COLLECTION_UNPAID').score.value).toBeLessThan(hard('COLLECTION_PAID').score.value);
    expect(hard('JUDGEMENT').score.value).toBeLessThan(hard('JUDGEMENT_SATISFIED').score.value);
    expect(hard('BANKRUPTCY_DISCHARGED').score.value).toBeLessThan(hard('STANDARD_HIT').score.value);
  });

  it('recommends DECLINE for every critical persona and APPROVE for the clean prime files', () => {
    for (const entry of UAT_TYPE_TABLE.filter((e) => e.severity === 'critical')) {
      expect(hard(entry.input).ai_insights.recommendation).toBe('DECLINE');
      expect(hard(entry.input).ai_insights.risk_level).toBe('CRITICAL');
    }
    for (const uatType of ['STANDARD_HIT', 'MORTGAGE', 'AUTO_LOAN', 'EMPLOYMENT', 'BANKING', 'MULTIPLE_ADDRESS'] as const) {
      expect(hard(uatType).ai_insights).toMatchObject({ recommendation: 'APPROVE', risk_level: 'LOW', risk_factors: [] });
    }
  });

  it('dates nothing in the future except alert expiries and discharge eligibility', () => {
    const FUTURE_ALLOWED = new Set(['expires_date', 'automatic_discharge_eligible_date']);
    const visit = (value: unknown, key: string, found: string[]) => {
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !FUTURE_ALLOWED.has(key) && value > TODAY) found.push(`${key}=${value}`);
      else if (Array.isArray(value)) value.forEach((item) => visit(item, key, found));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k, found);
    };
    for (const uatType of UAT_TYPE_VALUES) {
      for (const seed of SEEDS) {
        const found: string[] = [];
        visit(hard(uatType, seed), '', found);
        expect(found, `${uatType}/${seed}`).toEqual([]);
      }
    }
  });

  it('opens no trade and records no inquiry before the file existed', () => {
    for (const uatType of UAT_TYPE_VALUES) {
      for (const seed of SEEDS) {
        const report = hard(uatType, seed);
        for (const t of report.trades) expect(t.opened_date >= report.subject.file_since, `${uatType} ${t.opened_date}`).toBe(true);
        for (const i of report.inquiries) expect(i.date >= report.subject.file_since).toBe(true);
      }
    }
  });

  it('keeps payment patterns, late counts and the summary consistent with the trades', () => {
    for (const uatType of UAT_TYPE_VALUES) {
      const report = hard(uatType, 'session-c');
      for (const t of report.trades) {
        if (t.payment_pattern.length > 0) expect(t.payment_pattern[0]).toBe(t.rating[1]);
        expect(t.payment_pattern.length).toBe(Math.min(24, t.months_reviewed));
        expect(t.payment_history.late_30).toBe([...t.payment_pattern].filter((c) => c === '2').length);
        expect(t.payment_history.late_60).toBe([...t.payment_pattern].filter((c) => c === '3').length);
        if (t.credit_limit !== undefined && t.status === 'OPEN') expect(t.balance).toBeLessThanOrEqual(t.credit_limit);
      }
      expect(report.summary.trade_count).toBe(report.trades.length);
      expect(report.summary.total_balance).toBe(report.trades.reduce((s, t) => s + t.balance, 0));
      expect(report.summary.past_due_total).toBe(report.trades.reduce((s, t) => s + t.past_due, 0));
      expect(report.summary.collections_count).toBe(report.collections.length);
      expect(report.summary.bankruptcies_count).toBe(report.bankruptcies.length);
    }
  });
});

describe('payment patterns', () => {
  it('walk a delinquency up one step a month before the current rating', () => {
    expect(paymentPattern(1, 30)).toBe('1'.repeat(24));
    expect(paymentPattern(5, 10)).toBe('5432111111');
    expect(paymentPattern(8, 8)).toBe('85432111');
    expect(paymentPattern(9, 12)).toBe('999954321111');
    expect(paymentPattern(3, 0)).toBe('');
  });
});

describe('hard versus soft', () => {
  it('gives a soft check the score only, equal to the hard check of the same session', () => {
    const soft = buildCreditReport('soft', 'TRADE_R5', PERSON, ['credit-report', 'session-a'], NOW);
    expect(SoftCreditReportSchema.parse(soft)).toEqual(soft);
    expect(Object.keys(soft).sort()).toEqual(['generated_at', 'model', 'reference_number', 'report_type', 'score', 'score_band', 'uat_type']);
    expect(soft.report_type).toBe('soft');
    expect(soft.score).toBe(hard('TRADE_R5').score.value);
    expect(soft.score).toBe(creditScoreFor('TRADE_R5', ['credit-report', 'session-a']));
    expect(soft.score_band).toBe(scoreBand(soft.score));
    expect(soft.generated_at).toBe(NOW);
    expect(soft.reference_number).toBe(hard('TRADE_R5').reference_number);
  });

  it('gives a hard check the whole file with AI insights', () => {
    const report = hard('JUDGEMENT');
    expect(report.report_type).toBe('hard');
    expect(report.ai_insights.summary).toContain(`Score ${report.score.value}`);
    expect(report.ai_insights.risk_factors.map((f) => f.code)).toContain('UNSATISFIED_JUDGEMENT');
    expect(report.score.reason_codes[0]?.code).toBe(report.ai_insights.risk_factors[0]?.code);
    expect(CreditReportSchema.parse(report).report_type).toBe('hard');
  });

  it('rejects a soft report that carries file sections', () => {
    const soft = buildCreditReport('soft', 'SHELL_FILE', PERSON, ['s'], NOW);
    expect(SoftCreditReportSchema.safeParse({ ...soft, score: 950 }).success).toBe(false);
    expect(HardCreditReportSchema.safeParse(soft).success).toBe(false);
  });
});

describe('determinism', () => {
  it('builds byte-identical reports from the same inputs and different ones for another session', () => {
    const a = JSON.stringify(hard('MORTGAGE', 'session-a'));
    expect(JSON.stringify(hard('MORTGAGE', 'session-a'))).toBe(a);
    expect(JSON.stringify(hard('MORTGAGE', 'session-b'))).not.toBe(a);
  });

  it('dates the report from the given instant', () => {
    const aYearLater = `${Number(NOW.slice(0, 4)) + 1}${NOW.slice(4)}`;
    const later = buildCreditReport('hard', 'STANDARD_HIT', PERSON, ['credit-report', 'session-a'], aYearLater);
    expect(later.generated_at).toBe(aYearLater);
    expect(later.subject.file_since.slice(0, 4)).toBe(String(Number(hard('STANDARD_HIT').subject.file_since.slice(0, 4)) + 1));
  });

  it('refuses an instant that is not ISO 8601', () => {
    expect(() => buildCreditReport('hard', 'TELCO', PERSON, ['s'], 'yesterday')).toThrow(/not an ISO 8601 instant/);
  });
});
