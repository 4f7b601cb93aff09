/**
 * Builds the `statement` of a completed bank-statement request: the bank data provider's account-detail
 * payload for the bank the applicant linked, with 3, 6 or 9 months of transactions.
 *
 * The ledger is computed in integer cents so it adds up exactly: transactions are in date order (oldest
 * first), each Balance = previous Balance + Credit - Debit, and the account's Balance.Current is the last
 * transaction's Balance. A chequing account never goes below minus its OverdraftLimit (a purchase that
 * would is declined, so it never appears). Transfers to savings appear on both accounts, same day, same
 * amount.
 *
 * LIMITATIONS:
 * - Transactions are listed oldest first (the provider's own payload lists newest first); the arithmetic
 *   reads naturally this way and the spec does not fix the order.
 * - Transit and institution numbers are never generated at all (the spec strips them).
 * - Spending patterns are generic (payroll, rent, utilities, groceries...), not tied to the credit persona.
 */
import { fakerFrom, rngFrom, uuidFrom, type Rng } from '../platform/random/random.ts';
import { CITIES, EMPLOYERS, TELCOS, civicAddress, isoDate, monthsBefore, postalCode } from './fictional-canada.ts';
import type { BankStatement, FinancialPeriod, StatementAccount, StatementHolder, StatementTransaction } from './financial.schemas.ts';
import { SANDBOX_BANKS, type SandboxAccountKind, type SandboxBank } from './sandbox-banks.ts';

const DAY_MS = 86_400_000;

/** Who the accounts belong to; without an address one is synthesized. */
export interface StatementHolderInput {
  name: string;
  email: string;
  phone: string;
  address?: StatementHolder['Address'];
}

/** The bank a statement comes from when the applicant's choice is unknown: fixed by the seed. */
export function bankForSeed(seedParts: readonly (string | number)[]): SandboxBank {
  return rngFrom(...seedParts, 'bank').pick(SANDBOX_BANKS);
}

export function buildStatement(
  seedParts: readonly (string | number)[],
  period: FinancialPeriod,
  nowMs: number,
  bank: SandboxBank = bankForSeed(seedParts),
  holder?: StatementHolderInput,
): BankStatement {
  const rng = rngFrom(...seedParts, 'bank-statement');
  const endMs = startOfDay(nowMs);
  const startMs = monthsBefore(endMs, Number(period));
  const owner = statementHolder(rng, seedParts, holder);
  const household = householdProfile(rng, seedParts);

  const accounts: StatementAccount[] = [];
  let transfersToSavings: LedgerEvent[] = [];
  bank.accounts.forEach((kind, index) => {
    const accountRng = rngFrom(...seedParts, 'account', index);
    const overdraftCents = kind === 'chequing' ? bank.overdraftLimit * 100 : 0;
    let events: LedgerEvent[];
    let openingCents: number;
    if (kind === 'chequing') {
      events = chequingEvents(accountRng, household, startMs, endMs, bank.accounts.includes('savings'));
      // With an overdraft the account starts thin, so it really dips below zero.
      openingCents = overdraftCents > 0 ? accountRng.int(5_000, 30_000) : accountRng.int(80_000, 500_000);
    } else if (kind === 'savings') {
      events = [...transfersToSavings.map(mirrorTransfer), ...monthEnds(startMs, endMs).map((at) => interestEvent(at))];
      openingCents = accountRng.int(150_000, 2_500_000);
    } else {
      events = usdEvents(accountRng, startMs, endMs);
      openingCents = accountRng.int(50_000, 400_000);
    }
    const ledger = postLedger(events, openingCents, overdraftCents);
    if (kind === 'chequing') transfersToSavings = ledger.posted.filter((event) => event.transferToSavings);
    accounts.push(account(accountRng, seedParts, index, kind, ledger, overdraftCents, owner));
  });

  return {
    HttpStatusCode: 200,
    InstitutionName: bank.name,
    InstitutionId: bank.institutionId,
    Institution: bank.input,
    Accounts: accounts,
  };
}

// ---------------------------------------------------------------- ledger

interface LedgerEvent {
  at: number;
  description: string;
  code: string | null;
  /** Positive: credit; negative: debit. Ignored for interest (computed from the balance). */
  cents: number;
  /** A purchase or transfer the applicant chose (as opposed to a bill or income); informative. */
  discretionary: boolean;
  interest?: boolean;
  transferToSavings?: boolean;
  order: number;
}

interface PostedLine {
  event: LedgerEvent;
  cents: number;
  balanceCents: number;
}

interface Ledger {
  lines: PostedLine[];
  posted: LedgerEvent[];
  closingCents: number;
}

const SAVINGS_RATE = 0.015;

function postLedger(events: readonly LedgerEvent[], openingCents: number, overdraftCents: number): Ledger {
  // Same day: money in before money out, then the order the events were made in.
  const sorted = [...events].sort((a, b) => a.at - b.at || Math.sign(b.cents) - Math.sign(a.cents) || a.order - b.order);
  let balance = openingCents;
  const lines: PostedLine[] = [];
  for (const event of sorted) {
    let cents = event.cents;
    if (event.interest) {
      cents = Math.floor((Math.max(0, balance) * SAVINGS_RATE) / 12);
      if (cents <= 0) continue;
    }
    // A debit beyond the overdraft limit is declined (purchase) or returned (bill): it never posts.
    if (cents < 0 && balance + cents < -overdraftCents) continue;
    balance += cents;
    lines.push({ event, cents, balanceCents: balance });
  }
  return { lines, posted: lines.map((line) => line.event), closingCents: balance };
}

function mirrorTransfer(event: LedgerEvent): LedgerEvent {
  return { ...event, description: 'TRANSFER FROM CHEQUING', cents: -event.cents, transferToSavings: false, discretionary: false };
}

function interestEvent(at: number): LedgerEvent {
  return { at, description: 'INTEREST', code: 'INT', cents: 0, discretionary: false, interest: true, order: 0 };
}

// ---------------------------------------------------------------- spending profile

interface Household {
  employer: string;
  payCents: number;
  housing: string;
  housingCents: number;
  utility: string;
  telco: string;
  telcoCents: number;
  feeCents: number;
  friends: string[];
}

const GROCERS = ['FRESHWAY MARKET', 'CORNER GROCER', 'VALLEY FOODS', 'MAPLE FRESH SUPERMARKET'];
const MERCHANTS = [
  'MAPLE BEAN COFFEE',
  'HARBOUR FUEL #218',
  'LAKESIDE PHARMACY',
  'NORTHSIDE DINER',
  'CITY TRANSIT FARE',
  'PARKWAY HARDWARE',
  'BOREAL BOOKS',
  'QUICKSTOP CONVENIENCE',
  'SUMMIT CINEMAS',
  'ONLINE MARKETPLACE',
];
const UTILITIES = ['NORTHERN HYDRO UTILITIES', 'PRAIRIE GAS AND ELECTRIC'];

function householdProfile(rng: Rng, seedParts: readonly (string | number)[]): Household {
  const faker = fakerFrom('en', ...seedParts, 'bank-statement-people');
  const owner = rng.chance(0.3);
  return {
    employer: rng.pick(EMPLOYERS).toUpperCase().replace(/[.,]/g, ''),
    payCents: rng.int(140_000, 320_000),
    housing: owner ? 'MORTGAGE PAYMENT' : 'PRE-AUTHORIZED DEBIT SUMMIT PROPERTY MGMT',
    housingCents: rng.int(110_000, 240_000),
    utility: rng.pick(UTILITIES),
    telco: rng.pick(TELCOS).toUpperCase(),
    telcoCents: rng.int(5_500, 11_000),
    feeCents: rng.pick([0, 495, 1095, 1695]),
    friends: Array.from({ length: 4 }, () => `${faker.person.firstName()} ${faker.person.lastName()[0] ?? 'X'}`.toUpperCase()),
  };
}

function chequingEvents(rng: Rng, h: Household, startMs: number, endMs: number, hasSavings: boolean): LedgerEvent[] {
  const events: LedgerEvent[] = [];
  const add = (at: number, description: string, code: string | null, cents: number, discretionary: boolean, extra: Partial<LedgerEvent> = {}) => {
    if (at < startMs || at > endMs) return;
    events.push({ at, description, code, cents, discretionary, order: events.length, ...extra });
  };
  // Payroll every second week.
  for (let at = startMs + rng.int(0, 13) * DAY_MS; at <= endMs; at += 14 * DAY_MS) {
    add(at, `PAYROLL DEPOSIT ${h.employer}`, 'DEP', h.payCents, false);
  }
  for (const month of monthStarts(startMs, endMs)) {
    const day = (n: number) => dayOfMonth(month, n);
    add(day(1), h.housing, 'PAD', -h.housingCents, false);
    add(day(rng.int(5, 12)), `PRE-AUTHORIZED DEBIT ${h.utility}`, 'PAD', -rng.int(6_000, 18_000), false);
    add(day(15), `PRE-AUTHORIZED DEBIT ${h.telco}`, 'PAD', -h.telcoCents, false);
    add(day(rng.int(20, 25)), 'ONLINE BANKING PAYMENT - VISA', 'BPY', -rng.int(20_000, 120_000), true);
    if (hasSavings) add(day(16), 'TRANSFER TO SAVINGS', 'TFR', -roundTo(rng.int(10_000, 50_000), 500), true, { transferToSavings: true });
    if (h.feeCents > 0) add(day(31), 'MONTHLY ACCOUNT FEE', 'FEE', -h.feeCents, false);
    for (let i = rng.int(5, 8); i > 0; i--) add(day(rng.int(1, 28)), `INTERAC PURCHASE - ${rng.pick(GROCERS)}`, 'POS', -rng.int(2_500, 22_000), true);
    for (let i = rng.int(6, 12); i > 0; i--) add(day(rng.int(1, 28)), `INTERAC PURCHASE - ${rng.pick(MERCHANTS)}`, 'POS', -rng.int(500, 9_000), true);
    for (let i = rng.int(1, 2); i > 0; i--) add(day(rng.int(1, 28)), 'ATM WITHDRAWAL', 'ATM', -rng.int(1, 10) * 2_000, true);
    for (let i = rng.int(0, 2); i > 0; i--) add(day(rng.int(1, 28)), `E-TRANSFER RECEIVED ${rng.pick(h.friends)}`, 'ETR', rng.int(2_000, 30_000), false);
    for (let i = rng.int(0, 2); i > 0; i--) add(day(rng.int(1, 28)), `E-TRANSFER SENT ${rng.pick(h.friends)}`, null, -rng.int(2_000, 25_000), true);
  }
  return events;
}

function usdEvents(rng: Rng, startMs: number, endMs: number): LedgerEvent[] {
  const events: LedgerEvent[] = [];
  const add = (at: number, description: string, code: string | null, cents: number, discretionary: boolean) => {
    if (at >= startMs && at <= endMs) events.push({ at, description, code, cents, discretionary, order: events.length });
  };
  for (const month of monthStarts(startMs, endMs)) {
    add(dayOfMonth(month, rng.int(1, 10)), 'INCOMING WIRE - CONSULTING FEES', 'WIR', rng.int(30_000, 150_000), false);
    for (let i = rng.int(2, 5); i > 0; i--) add(dayOfMonth(month, rng.int(1, 28)), 'US PURCHASE - ONLINE MARKETPLACE', 'POS', -rng.int(1_000, 20_000), true);
    add(dayOfMonth(month, 31), 'MONTHLY ACCOUNT FEE', 'FEE', -200, false);
  }
  return events;
}

// ---------------------------------------------------------------- accounts and holder

const ACCOUNT_TITLES: Record<SandboxAccountKind, { title: string; type: string; currency: string }> = {
  chequing: { title: 'Everyday Chequing', type: 'Chequing', currency: 'CAD' },
  savings: { title: 'High Interest Savings', type: 'Savings', currency: 'CAD' },
  'usd-chequing': { title: 'US Dollar Chequing', type: 'Chequing', currency: 'USD' },
};

function account(
  rng: Rng,
  seedParts: readonly (string | number)[],
  index: number,
  kind: SandboxAccountKind,
  ledger: Ledger,
  overdraftCents: number,
  holder: StatementHolder,
): StatementAccount {
  const labels = ACCOUNT_TITLES[kind];
  const transactions: StatementTransaction[] = ledger.lines.map((line, i) => ({
    Id: uuidFrom(...seedParts, 'account', index, 'transaction', i),
    Date: isoDate(line.event.at),
    Description: line.event.description,
    Debit: line.cents < 0 ? toDollars(-line.cents) : null,
    Credit: line.cents > 0 ? toDollars(line.cents) : null,
    Balance: toDollars(line.balanceCents),
    Code: line.event.code,
  }));
  return {
    Id: uuidFrom(...seedParts, 'account', index),
    Title: labels.title,
    AccountNumber: String(rng.int(1_000_000, 9_999_999)),
    LastFourDigits: null,
    Category: 'Operations',
    Type: labels.type,
    AccountType: 'Personal',
    Currency: labels.currency,
    Balance: {
      Available: toDollars(ledger.closingCents + overdraftCents),
      Current: toDollars(ledger.closingCents),
      Limit: null,
    },
    Holder: holder,
    Transactions: transactions,
    Statements: [],
    OverdraftLimit: toDollars(overdraftCents),
  };
}

function statementHolder(rng: Rng, seedParts: readonly (string | number)[], input?: StatementHolderInput): StatementHolder {
  const faker = fakerFrom('en', ...seedParts, 'bank-statement-holder');
  const name = input?.name ?? faker.person.fullName();
  // Live where the phone's area code is, when it is one of ours.
  const areaCode = /^\+1(\d{3})/.exec(input?.phone ?? '')?.[1];
  const city = CITIES.find((candidate) => candidate.areaCode === areaCode) ?? rng.pick(CITIES);
  return {
    Name: name.toUpperCase(),
    Address: input?.address ?? {
      CivicAddress: civicAddress(rng),
      City: city.city,
      Province: city.province,
      PostalCode: postalCode(rng, city),
      POBox: null,
      Country: 'CA',
    },
    Email: input?.email ?? faker.internet.email({ provider: 'example.com' }).toLowerCase(),
    PhoneNumber: formatPhone(input?.phone ?? `+1${city.areaCode}55501${String(rng.int(0, 99)).padStart(2, '0')}`),
  };
}

/** North American numbers the way banks print them: (416) 555-0123. */
export function formatPhone(e164: string): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : e164;
}

// ---------------------------------------------------------------- calendar and money

function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The first day of every month touching [startMs, endMs]. */
function monthStarts(startMs: number, endMs: number): number[] {
  const out: number[] = [];
  const start = new Date(startMs);
  for (let at = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1); at <= endMs; ) {
    out.push(at);
    const date = new Date(at);
    at = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  return out;
}

/** The last day of every month that ends inside [startMs, endMs]. */
function monthEnds(startMs: number, endMs: number): number[] {
  return monthStarts(startMs, endMs)
    .map((month) => dayOfMonth(month, 31))
    .filter((at) => at >= startMs && at <= endMs);
}

/** Day `n` of the month starting at `monthStartMs`, clamped to the month's last day. */
function dayOfMonth(monthStartMs: number, n: number): number {
  const date = new Date(monthStartMs);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), Math.min(n, last));
}

function toDollars(cents: number): number {
  return cents / 100;
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}
