/**
 * Bank statements (GET /v1/financial/{id}, and the real client's POST /v1/financial, GET /v1/financial,
 * GET /v1/financial/externalId/{externalId}): pure verbs over a stored record, and the presenters that turn
 * it into the wire record on the virtual clock.
 *
 * How a statement comes into being (live keys):
 *   1. POST /v1/financial creates a `request` record (PENDING) and invites the applicant to the hosted page.
 *   2. On the page the applicant picks one of SANDBOX_BANKS: `startBankLink` (IN_PROGRESS), then finishes:
 *      `completeBankLink` (or only the latter, in one step). Or chooses to upload statements instead:
 *      `uploadStatements` turns the record into type `upload`.
 *   3. Reads advance the record on the clock (financial.machine.ts); once COMPLETED, a `request` record
 *      carries the statement, built deterministically from the record id as of the completion instant.
 * With a sandbox key, GET /v1/financial/test_completed answers the fixture in FINANCIAL_TEST_IDENTIFIERS.
 *
 * LIMITATIONS:
 * - Upload records never carry a statement (spec: statement only for type request); no file is parsed.
 * - Linking cannot fail and needs no credentials.
 */
import type { Explained } from '../platform/explained.ts';
import { buildStatement } from './bank-statement.ts';
import { completedAt, statusAt } from './financial.machine.ts';
import type { BankStatement, CreateFinancialBody, CreateFinancialResponse, FinancialRecord, StoredFinancialRecord } from './financial.schemas.ts';
import { findSandboxBank, SANDBOX_BANKS, type SandboxBank } from './sandbox-banks.ts';

/** Test identifiers a sandbox key can GET (spec: Authentication 5). */
export const FINANCIAL_TEST_IDENTIFIERS = [
  {
    input: 'test_completed',
    outcome: 'COMPLETED request record with a 3-month statement (chequing + savings)',
    description: 'GET /v1/financial/test_completed with a sandbox key; the body is fixtures/sandbox/financial/test_completed.json.',
    fixture: 'fixtures/sandbox/financial/test_completed.json',
  },
  {
    input: 'test_pending',
    outcome: 'PENDING request record: the applicant has not opened the page yet; no statement',
    description: 'GET /v1/financial/test_pending with a sandbox key; fixtures/sandbox/financial/test_pending.json.',
    fixture: 'fixtures/sandbox/financial/test_pending.json',
  },
  {
    input: 'test_in_progress',
    outcome: 'IN_PROGRESS request record: a bank was picked but not linked; no statement',
    description: 'GET /v1/financial/test_in_progress with a sandbox key; fixtures/sandbox/financial/test_in_progress.json.',
    fixture: 'fixtures/sandbox/financial/test_in_progress.json',
  },
  {
    input: 'test_flinks_in_progress',
    outcome: 'FLINKS_IN_PROGRESS request record: the bank data provider is fetching; no statement',
    description: 'GET /v1/financial/test_flinks_in_progress with a sandbox key; fixtures/sandbox/financial/test_flinks_in_progress.json.',
    fixture: 'fixtures/sandbox/financial/test_flinks_in_progress.json',
  },
  {
    input: 'test_upload_completed',
    outcome: 'COMPLETED upload record: statements were uploaded, so no statement object (spec: statement only for type request)',
    description: 'GET /v1/financial/test_upload_completed with a sandbox key; fixtures/sandbox/financial/test_upload_completed.json.',
    fixture: 'fixtures/sandbox/financial/test_upload_completed.json',
  },
] as const;

/** A refusal the route maps to a status (unknown bank: 400; already linked: 409). */
export class FinancialDomainError extends Error {
  override name = 'FinancialDomainError';
  constructor(
    readonly code: 'UNKNOWN_BANK' | 'ALREADY_LINKED',
    message: string,
  ) {
    super(message);
  }
}

export interface CreateFinancialInput {
  id: string;
  organizationId: string;
  userId: string;
  senderUserId: string;
  body: CreateFinancialBody;
  nowMs: number;
}

export function createFinancialRecord(input: CreateFinancialInput): Explained<StoredFinancialRecord> {
  const record: StoredFinancialRecord = {
    id: input.id,
    organizationId: input.organizationId,
    userId: input.userId,
    senderUserId: input.senderUserId,
    type: 'request',
    Config: { period: input.body.period },
    createdAt: new Date(input.nowMs).toISOString(),
    applicant: {
      firstName: input.body.firstName,
      lastName: input.body.lastName,
      email: input.body.email,
      phone: input.body.phone,
    },
    invites: { email: input.body.sendEmailInvite, phone: input.body.sendPhoneInvite },
  };
  if (input.body.externalId !== undefined) record.externalId = input.body.externalId;
  return {
    value: record,
    explanations: [
      `bank statement request created PENDING (period ${input.body.period} months); completes 5 s after the applicant links a bank on the hosted page`,
    ],
  };
}

function requireBank(code: string): SandboxBank {
  const bank = findSandboxBank(code);
  if (!bank) {
    throw new FinancialDomainError('UNKNOWN_BANK', `unknown bank "${code}": choose one of ${SANDBOX_BANKS.map((b) => b.input).join(', ')}`);
  }
  return bank;
}

function refuseIfLinked(record: StoredFinancialRecord): void {
  if (record.linkedAt !== undefined) {
    throw new FinancialDomainError(
      'ALREADY_LINKED',
      `bank statement ${record.id} was already ${record.type === 'upload' ? 'uploaded' : 'linked'} at ${record.linkedAt}`,
    );
  }
}

/** The applicant picked a bank: IN_PROGRESS. Picking again before finishing changes the bank. */
export function startBankLink(record: StoredFinancialRecord, bankCode: string, nowMs: number): StoredFinancialRecord {
  refuseIfLinked(record);
  const bank = requireBank(bankCode);
  return { ...record, type: 'request', startedAt: record.startedAt ?? new Date(nowMs).toISOString(), bankCode: bank.input };
}

/** The applicant finished linking: provider fetch after 2 s, COMPLETED after 5 s. */
export function completeBankLink(record: StoredFinancialRecord, bankCode: string | undefined, nowMs: number): StoredFinancialRecord {
  refuseIfLinked(record);
  const code = bankCode ?? record.bankCode ?? SANDBOX_BANKS[0].input;
  const bank = requireBank(code);
  const now = new Date(nowMs).toISOString();
  return { ...record, type: 'request', startedAt: record.startedAt ?? now, linkedAt: now, bankCode: bank.input };
}

/** The applicant uploaded statements instead of linking: type upload, COMPLETED after 5 s, no statement. */
export function uploadStatements(record: StoredFinancialRecord, nowMs: number): StoredFinancialRecord {
  refuseIfLinked(record);
  const now = new Date(nowMs).toISOString();
  const { bankCode: _dropped, ...rest } = record;
  return { ...rest, type: 'upload', startedAt: record.startedAt ?? now, linkedAt: now };
}

/** The statement of a completed request, as of its completion instant (the same on every read). */
export function statementFor(record: StoredFinancialRecord): BankStatement | undefined {
  const doneAt = completedAt(record);
  if (doneAt === undefined || record.type !== 'request') return undefined;
  const bank = findSandboxBank(record.bankCode ?? '') ?? SANDBOX_BANKS[0];
  return buildStatement(['bank-statement', record.id], record.Config.period, doneAt, bank, {
    name: `${record.applicant.firstName} ${record.applicant.lastName}`,
    email: record.applicant.email,
    phone: record.applicant.phone,
  });
}

/** The wire record at `nowMs`: status and updatedAt from the machine, statement only when COMPLETED + request. */
export function toFinancialRecordJson(record: StoredFinancialRecord, nowMs: number): Explained<FinancialRecord> {
  const state = statusAt(record, nowMs);
  const body: FinancialRecord = {
    id: record.id,
    organizationId: record.organizationId,
    userId: record.userId,
    senderUserId: record.senderUserId,
    ...(record.externalId !== undefined ? { externalId: record.externalId } : {}),
    status: state.status,
    type: record.type,
    Config: { period: record.Config.period },
    createdAt: record.createdAt,
    updatedAt: new Date(state.since).toISOString(),
  };
  if (state.status === 'COMPLETED' && record.type === 'request') {
    const statement = statementFor(record);
    if (statement) body.statement = statement;
  }
  return { value: body, explanations: [state.explanation] };
}

export interface CreateFinancialJsonInput {
  record: StoredFinancialRecord;
  /** The applicant's hosted page ({verify_url}/...). */
  bankStatementUrl: string;
  adminConsoleHref: string;
  /** {base_url}/v1/financial/{id}. */
  detailsHref: string;
}

/** The body of POST /v1/financial; externalId only when the request gave one. */
export function toCreateFinancialJson(input: CreateFinancialJsonInput): CreateFinancialResponse {
  return {
    bankStatementId: input.record.id,
    bankStatementUrl: input.bankStatementUrl,
    ...(input.record.externalId !== undefined ? { externalId: input.record.externalId } : {}),
    links: [
      { rel: 'admin_console', href: input.adminConsoleHref, description: 'View the bank statement request in the admin console' },
      { rel: 'bank_statement_details', href: input.detailsHref, description: 'Retrieve the bank statement record via the API' },
    ],
  };
}
