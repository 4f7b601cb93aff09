/**
 * What a sandbox key reads under /v1/financial (spec: Authentication 4-5): pre-built records in the production
 * shape, never the namespace's live records.
 *
 *   GET /v1/financial/{test identifier}   the fixture file of FINANCIAL_TEST_IDENTIFIERS (test_completed is the
 *                                          spec's; the others give one record per status)
 *   GET /v1/financial/{any other id}       a COMPLETED request record built from a hash of the id (same id,
 *                                          same bytes; the body carries the id asked for)
 *   GET /v1/financial[/externalId/{x}]     the test identifiers' records, newest first (filtered by externalId)
 *
 * The fixture files under fixtures/sandbox/financial/ are what is served (edit them freely);
 * `npx tsx src/financial/sandbox-fixtures.generate.ts` rewrites them from SANDBOX_BANK_STATEMENT_RECIPES.
 * Their organizationId is replaced by the caller's organization.
 *
 * LIMITATIONS:
 * - Sandbox records do not advance on the clock: each is a snapshot fixed by its recipe.
 * - A sandbox key never sees the records live keys created, even in its own organization.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Explained } from '../platform/explained.ts';
import { fakerFrom, rngFrom, uuidFrom } from '../platform/random/random.ts';
import { CITIES } from './fictional-canada.ts';
import { FinancialRecordSchema, type FinancialPeriod, type FinancialRecord, type StoredFinancialRecord } from './financial.schemas.ts';
import {
  completeBankLink,
  createFinancialRecord,
  FINANCIAL_TEST_IDENTIFIERS,
  startBankLink,
  toFinancialRecordJson,
  uploadStatements,
} from './financial-record.ts';
import { SANDBOX_BANKS, type SandboxBankCode } from './sandbox-banks.ts';

export type FinancialTestIdentifier = (typeof FINANCIAL_TEST_IDENTIFIERS)[number]['input'];

/** The organization the fixture files name; replaced by the caller's on every answer. */
export const FIXTURE_ORGANIZATION_ID = 'org_demo';
/** The user that "sent" every sandbox bank-statement request. */
export const SANDBOX_SENDER_USER_ID = '32b312ce-a113-47e4-bc0d-d5435d001019';

const MINUTE = 60_000;

export interface SandboxBankStatementRecipe {
  /** What the applicant does on the hosted page, and when (ms after creation). */
  step:
    | { kind: 'none' }
    | { kind: 'start'; afterMs: number; bank: SandboxBankCode }
    | { kind: 'link'; afterMs: number; bank: SandboxBankCode }
    | { kind: 'upload'; afterMs: number };
  createdAtIso: string;
  /** When the snapshot is taken, ms after creation. */
  viewedAfterMs: number;
  period: FinancialPeriod;
  applicant: { firstName: string; lastName: string; email: string; phone: string };
  userId: string;
  externalId: string;
}

/** How each test identifier's fixture file was built. */
export const SANDBOX_BANK_STATEMENT_RECIPES: Record<FinancialTestIdentifier, SandboxBankStatementRecipe> = {
  test_completed: {
    step: { kind: 'link', afterMs: 12 * MINUTE + 30_000, bank: 'SandboxCapital' },
    createdAtIso: '2026-01-05T14:00:00.000Z',
    viewedAfterMs: 60 * MINUTE,
    period: '3',
    applicant: { firstName: 'Alex', lastName: 'Martin', email: 'alex.martin@example.com', phone: '+14165550142' },
    userId: '8939f0d1-1c64-4d06-b50b-8fd5f92d45de',
    externalId: 'sandbox-bank-statement-001',
  },
  test_pending: {
    step: { kind: 'none' },
    createdAtIso: '2026-01-08T10:15:00.000Z',
    viewedAfterMs: 60 * MINUTE,
    period: '6',
    applicant: { firstName: 'Priya', lastName: 'Raman', email: 'priya.raman@example.com', phone: '+16045550117' },
    userId: '4b0f5a2e-8d61-4c3f-9e27-6a1d0c9b3f58',
    externalId: 'sandbox-bank-statement-002',
  },
  test_in_progress: {
    step: { kind: 'start', afterMs: 4 * MINUTE, bank: 'MapleCrest' },
    createdAtIso: '2026-01-07T16:40:00.000Z',
    viewedAfterMs: 5 * MINUTE,
    period: '3',
    applicant: { firstName: 'Marc', lastName: 'Tremblay', email: 'marc.tremblay@example.com', phone: '+15145550163' },
    userId: 'e2a7c913-5f0b-4d8e-a6c4-31b9f07d2e85',
    externalId: 'sandbox-bank-statement-003',
  },
  test_flinks_in_progress: {
    step: { kind: 'link', afterMs: 6 * MINUTE, bank: 'TrueNorth' },
    createdAtIso: '2026-01-06T11:05:00.000Z',
    viewedAfterMs: 6 * MINUTE + 3_000,
    period: '9',
    applicant: { firstName: 'Grace', lastName: 'Okafor', email: 'grace.okafor@example.com', phone: '+14035550188' },
    userId: '9c3e1b7a-2d4f-4a60-8b15-e7f0a2c6d439',
    externalId: 'sandbox-bank-statement-004',
  },
  test_upload_completed: {
    step: { kind: 'upload', afterMs: 9 * MINUTE },
    createdAtIso: '2026-01-04T09:30:00.000Z',
    viewedAfterMs: 60 * MINUTE,
    period: '3',
    applicant: { firstName: 'Tom', lastName: 'Nguyen', email: 'tom.nguyen@example.com', phone: '+16135550129' },
    userId: '71d5f0c8-3a2b-4e9d-b4f6-0c8e5a1d7b23',
    externalId: 'sandbox-bank-statement-005',
  },
};

export function isFinancialTestIdentifier(id: string): id is FinancialTestIdentifier {
  return FINANCIAL_TEST_IDENTIFIERS.some((entry) => entry.input === id);
}

/** The record a recipe describes, as its fixture file holds it. */
export function buildSandboxBankStatement(id: string, recipe: SandboxBankStatementRecipe, organizationId = FIXTURE_ORGANIZATION_ID): FinancialRecord {
  const createdMs = Date.parse(recipe.createdAtIso);
  let { value: record } = createFinancialRecord({
    id,
    organizationId,
    userId: recipe.userId,
    senderUserId: SANDBOX_SENDER_USER_ID,
    body: { ...recipe.applicant, period: recipe.period, externalId: recipe.externalId, sendEmailInvite: true, sendPhoneInvite: true },
    nowMs: createdMs,
  });
  record = applyStep(record, recipe.step, createdMs);
  return toFinancialRecordJson(record, createdMs + recipe.viewedAfterMs).value;
}

function applyStep(record: StoredFinancialRecord, step: SandboxBankStatementRecipe['step'], createdMs: number): StoredFinancialRecord {
  switch (step.kind) {
    case 'none':
      return record;
    case 'start':
      return startBankLink(record, step.bank, createdMs + step.afterMs);
    case 'link':
      return completeBankLink(record, step.bank, createdMs + step.afterMs);
    case 'upload':
      return uploadStatements(record, createdMs + step.afterMs);
  }
}

// ---------------------------------------------------------------- fixture files

export const DEFAULT_FINANCIAL_FIXTURES_DIR = new URL('../../fixtures/sandbox/financial/', import.meta.url);

const loaded = new Map<string, Map<FinancialTestIdentifier, FinancialRecord>>();

/** Reads and validates the fixture files (once per directory); a broken file stops with its name and problem. */
export function loadFinancialFixtures(dir: URL | string = DEFAULT_FINANCIAL_FIXTURES_DIR): Map<FinancialTestIdentifier, FinancialRecord> {
  const base = typeof dir === 'string' ? pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`) : dir;
  const cached = loaded.get(base.href);
  if (cached) return cached;
  const fixtures = new Map<FinancialTestIdentifier, FinancialRecord>();
  for (const { input: id } of FINANCIAL_TEST_IDENTIFIERS) {
    const file = new URL(`${id}.json`, base);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`sandbox bank statement fixture ${file.pathname} cannot be read as JSON: ${(error as Error).message}`);
    }
    const parsed = FinancialRecordSchema.safeParse(raw);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new Error(`sandbox bank statement fixture ${file.pathname} is not a bank statement record: ${first?.path.join('.') ?? ''} ${first?.message ?? ''}`);
    }
    if (parsed.data.id !== id) throw new Error(`sandbox bank statement fixture ${file.pathname} has id "${parsed.data.id}"; expected "${id}"`);
    // Keep the file's own bytes and key order.
    fixtures.set(id, raw as FinancialRecord);
  }
  loaded.set(base.href, fixtures);
  return fixtures;
}

// ---------------------------------------------------------------- what the routes call

/** GET /v1/financial/{id} with a sandbox key. */
export function sandboxBankStatementFor(id: string, organizationId: string, options: { fixturesDir?: URL | string } = {}): Explained<FinancialRecord> {
  if (isFinancialTestIdentifier(id)) {
    const fixture = loadFinancialFixtures(options.fixturesDir).get(id) as FinancialRecord;
    return {
      value: { ...fixture, organizationId },
      explanations: [`sandbox test identifier ${id} -> ${fixture.status} ${fixture.type} record (fixtures/sandbox/financial/${id}.json)`],
    };
  }
  const recipe = syntheticRecipe(id);
  const bank = recipe.step.kind === 'link' ? recipe.step.bank : SANDBOX_BANKS[0].input;
  return {
    value: buildSandboxBankStatement(id, recipe, organizationId),
    explanations: [
      `sandbox: id ${id} is not a test identifier -> COMPLETED request record from ${bank}, period ${recipe.period} months, built from a hash of the id`,
    ],
  };
}

/** A completed request whose applicant, bank, period and dates all follow from the id. */
export function syntheticRecipe(id: string): SandboxBankStatementRecipe {
  const rng = rngFrom('sandbox-bank-statement', id);
  const faker = fakerFrom('en', 'sandbox-bank-statement-applicant', id);
  const firstName = faker.person.firstName();
  const lastName = faker.person.lastName();
  const city = rng.pick(CITIES);
  const local = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
  const createdMs = Date.UTC(2026, 0, 12, 9) - rng.int(0, 90 * 86_400) * 1000;
  return {
    step: { kind: 'link', afterMs: rng.int(2 * 60, 45 * 60) * 1000, bank: rng.pick(SANDBOX_BANKS).input },
    createdAtIso: new Date(createdMs).toISOString(),
    viewedAfterMs: 24 * 60 * MINUTE,
    period: rng.pick(['3', '6', '9'] as const),
    applicant: {
      firstName,
      lastName,
      email: `${local || 'applicant'}@example.com`,
      phone: `+1${city.areaCode}55501${String(rng.int(0, 99)).padStart(2, '0')}`,
    },
    userId: uuidFrom('sandbox-bank-statement-user', id),
    externalId: `sandbox-${uuidFrom('sandbox-bank-statement-external', id).slice(0, 8)}`,
  };
}

/** The records a sandbox key lists: every test identifier's, filtered by externalId when given. */
export function sandboxBankStatementList(
  organizationId: string,
  externalId: string | undefined,
  options: { fixturesDir?: URL | string } = {},
): FinancialRecord[] {
  const fixtures = loadFinancialFixtures(options.fixturesDir);
  return [...fixtures.values()]
    .filter((record) => externalId === undefined || record.externalId === externalId)
    .map((record) => ({ ...record, organizationId }));
}
