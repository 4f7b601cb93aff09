import type { HardCreditReport } from '../../src/credit-check/credit-check.schemas.ts';

/** The coarse shape of a file, blind to names and amounts: two personas must never share it. */
export function reportSignature(r: HardCreditReport): string {
  return JSON.stringify({
    bankruptcies: r.bankruptcies.map((b) => `${b.type}/${b.status}`),
    collections: r.collections.map((c) => `${c.category}/${c.status}`).sort(),
    legal: r.legal_items.map((l) => `${l.type}/${l.status}`),
    trades: r.trades.map((t) => `${t.purpose}/${t.rating}`).sort(),
    alerts: r.alerts.map((a) => a.type),
    banking: r.banking.length > 0,
    employers: r.employment.length >= 3,
    movers: r.addresses.length >= 5,
    deceased: r.subject.deceased,
    manyInquiries: r.summary.inquiries_last_12_months >= 9,
  });
}
