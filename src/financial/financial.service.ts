/**
 * Bank-statement requests: the verbs the API routes, the applicant's hosted page and other areas (through
 * api.ts) call, over the records of financial.store.ts. Status is never stored: the pure machine in
 * financial.machine.ts derives it from the stored timestamps at the virtual clock's `now` on every read.
 *
 * LIMITATIONS:
 * - Invitations (sendEmailInvite / sendPhoneInvite) go to the namespace's outbox (GET /__sandbox/outbox).
 * - The applicant's user id follows from the organization and the e-mail address (the same rule as hosted
 *   sessions), so one applicant has one user id across sessions and bank statements.
 */
import type { OrganizationFixture, Principal } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import type { Explained } from '../platform/explained.ts';
import type { PublicUrls } from '../platform/platform.ts';
import type { PageRequest } from '../platform/paging/keyset-paging.ts';
import { namespacedUrl, sandboxLink, type World } from '../platform/namespaces/world.ts';
import { hostedPageUrl, type PageScope } from '../platform/secrets/page-tokens.ts';
import { invitedIf, sendInvitation } from '../platform/outbox/invitations.ts';
import { DEFAULT_FINANCIAL_PAGE_SIZE, financialPaging, financialQueryScope } from './financial-paging.ts';
import { completedAt, statusAt } from './financial.machine.ts';
import type {
  BankStatement,
  CreateFinancialBody,
  CreateFinancialResponse,
  FinancialListResponse,
  FinancialRecord,
  FinancialStatus,
  StoredFinancialRecord,
} from './financial.schemas.ts';
import {
  completeBankLink,
  createFinancialRecord,
  FinancialDomainError,
  startBankLink,
  statementFor,
  toCreateFinancialJson,
  toFinancialRecordJson,
  uploadStatements,
} from './financial-record.ts';
import { FINANCIAL_ERROR_CODES } from './financial.errors.ts';
import { sandboxBankStatementFor, sandboxBankStatementList } from './sandbox-bank-statements.ts';
import { applicantIds } from './applicant-port.ts';
import { bankStatements } from './financial.store.ts';

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The applicant's hosted page: {verify_url}/bank-statements/<id>, with namespace=<ns> outside the default one. */
export function bankStatementPageUrl(verifyUrl: string, id: string, scope: PageScope): string {
  return hostedPageUrl(`${trimSlash(verifyUrl)}/bank-statements/${encodeURIComponent(id)}`, id, scope);
}

export function bankStatementDetailsUrl(baseUrl: string, id: string, namespace: string): string {
  return sandboxLink(baseUrl, `/v1/financial/${encodeURIComponent(id)}`, namespace);
}

export function bankStatementConsoleUrl(consoleUrl: string, id: string, namespace: string): string {
  return namespacedUrl(`${trimSlash(consoleUrl)}/bank-statements/${encodeURIComponent(id)}`, namespace);
}

/**
 * A new `request` record, PENDING until the applicant acts on the hosted page. POST /v1/financial calls it;
 * so can a session whose workflow asks for bank statements (then pass the record id to createSessionRecord
 * as bankStatementRequestId, so the session's bank_statement_request_id points at it).
 */
export function createBankStatement(world: World, organizationId: string, body: CreateFinancialBody): Explained<StoredFinancialRecord> {
  const created = createFinancialRecord({
    id: world.uuid(),
    organizationId,
    // The same rule as hosted sessions (sessions.store.ts): one applicant, one user id.
    userId: applicantIds.get().applicantUserIdFor(organizationId, body.email, world.seed),
    senderUserId: applicantIds.get().senderUserIdFor(organizationId),
    body,
    nowMs: world.clock.now(),
  });
  bankStatements(world).put(created.value);
  return created;
}

/** POST /v1/financial, billed like a session: 402 before any work when the balance is empty, charged after. */
export function requestBankStatements(
  world: World,
  organization: OrganizationFixture,
  body: CreateFinancialBody,
  urls: Pick<PublicUrls, 'base' | 'verify' | 'console'>,
  funds: FundsPolicy,
): Explained<CreateFinancialResponse> {
  requireFunds(world, organization, funds);
  const { value: record, explanations } = createBankStatement(world, organization.id, body);
  charge(world, organization, funds);
  const bankStatementUrl = bankStatementPageUrl(urls.verify, record.id, world);
  const invitation = sendInvitation(world, {
    kind: 'bank_statement_invitation',
    sessionId: record.id,
    link: bankStatementUrl,
    sender: organization.name,
    firstName: body.firstName,
    email: invitedIf(body.sendEmailInvite, body.email, 'sendEmailInvite'),
    sms: invitedIf(body.sendPhoneInvite, body.phone, 'sendPhoneInvite'),
  });
  return {
    value: toCreateFinancialJson({
      record,
      bankStatementUrl,
      adminConsoleHref: bankStatementConsoleUrl(urls.console, record.id, world.namespace),
      detailsHref: bankStatementDetailsUrl(urls.base, record.id, world.namespace),
    }),
    explanations: [`${explanations.join('; ')}; ${invitation.explanation}`],
  };
}

/** GET /v1/financial/{id}: a sandbox key reads the synthetic records, a live key its organization's. */
export function readBankStatement(world: World, principal: Principal, id: string): Explained<FinancialRecord> {
  if (principal.kind === 'sandbox') return sandboxBankStatementFor(id, principal.organization.id);
  return bankStatementJson(world, requireOwnBankStatement(world, principal.organization.id, id));
}

/** GET /v1/financial and /v1/financial/externalId/{externalId}. */
export function readBankStatementList(world: World, principal: Principal, input: ListBankStatementsInput): Explained<FinancialListResponse> {
  const organizationId = principal.organization.id;
  const filter = input.externalId === undefined ? '' : ` with externalId ${asciiOnly(input.externalId)}`;
  if (principal.kind === 'sandbox') {
    const body = pageOf(sandboxBankStatementList(organizationId, input.externalId), organizationId, input, (record) => record);
    return { value: body, explanations: [`sandbox key: the test identifiers' records${filter} (${body.bankStatements.length} on this page)`] };
  }
  const body = listBankStatements(world, organizationId, input);
  return {
    value: body,
    explanations: [`${body.bankStatements.length} bank statement records${filter} on this page${body.nextToken === null ? ' (last page)' : ''}`],
  };
}

function asciiOnly(value: string): string {
  return JSON.stringify(value)
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 80);
}

export function findBankStatement(world: World, id: string): StoredFinancialRecord | undefined {
  return bankStatements(world).get(id);
}

/** Every request of the namespace, of every organization (the console's list). */
export function allBankStatements(world: World): StoredFinancialRecord[] {
  return bankStatements(world).all();
}

/** The organization's record, or 404 (unknown) / 403 (another organization's). */
export function requireOwnBankStatement(world: World, organizationId: string, id: string): StoredFinancialRecord {
  const record = findBankStatement(world, id);
  if (!record) {
    throw codedError(FINANCIAL_ERROR_CODES, 'BANK_STATEMENT_NOT_FOUND', { id });
  }
  if (record.organizationId !== organizationId) {
    throw codedError(FINANCIAL_ERROR_CODES, 'BANK_STATEMENT_OF_ANOTHER_ORGANIZATION', { id });
  }
  return record;
}

/** The wire record at the world's `now`. */
export function bankStatementJson(world: World, record: StoredFinancialRecord): Explained<FinancialRecord> {
  return toFinancialRecordJson(record, world.clock.now());
}

export interface ListBankStatementsInput {
  externalId?: string;
  limit?: number;
  nextToken?: string;
  secret: string;
}

/** One page of the organization's records (optionally one externalId's), newest first, at `now`. */
export function listBankStatements(
  world: World,
  organizationId: string,
  input: ListBankStatementsInput,
): { bankStatements: FinancialRecord[]; nextToken: string | null } {
  const [indexName, indexValue] =
    input.externalId === undefined ? ['byOrganization', organizationId] : ['byOrganizationExternalId', `${organizationId}\u0000${input.externalId}`];
  const collection = bankStatements(world);
  // Keyset seek on the ordered index: the page costs the same at any store size.
  const page = financialPaging.seek(
    (after) => collection.ordered(indexName, indexValue, after === undefined ? {} : { after }).records,
    pageRequest(organizationId, input),
  );
  return { bankStatements: page.items.map((record) => bankStatementJson(world, record).value), nextToken: page.nextToken };
}

/** Pages `records` with the shared token rules; a bad token throws PageTokenError (400). */
export function pageOf<T extends { id: string; createdAt: string }>(
  records: readonly T[],
  organizationId: string,
  input: ListBankStatementsInput,
  present: (record: T) => FinancialRecord,
): { bankStatements: FinancialRecord[]; nextToken: string | null } {
  const page = financialPaging.page(records, pageRequest(organizationId, input));
  return { bankStatements: page.items.map(present), nextToken: page.nextToken };
}

function pageRequest(organizationId: string, input: ListBankStatementsInput): PageRequest {
  return {
    limit: input.limit ?? DEFAULT_FINANCIAL_PAGE_SIZE,
    ...(input.nextToken === undefined ? {} : { token: input.nextToken }),
    secret: input.secret,
    scope: financialQueryScope(organizationId, input.externalId),
  };
}

// ---------------------------------------------------------------- the applicant's hosted page

export type HostedPageAction = 'start' | 'complete' | 'upload';

export type HostedPageResult = ({ ok: true } & Explained<StoredFinancialRecord>) | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * What the applicant did on the page: picked a bank (start), linked it (complete) or uploaded statements
 * (upload). Refusals come back as values so the page can show them.
 */
export function actOnBankStatementPage(world: World, id: string, action: HostedPageAction, bankCode: string | undefined): HostedPageResult {
  const record = findBankStatement(world, id);
  if (!record) return { ok: false, status: 404, message: `There is no bank statement request ${id} in this namespace.` };
  const now = world.clock.now();
  let next: StoredFinancialRecord;
  try {
    if (action === 'start') {
      if (bankCode === undefined || bankCode === '') return { ok: false, status: 400, message: 'Pick a bank first.' };
      next = startBankLink(record, bankCode, now);
    } else if (action === 'complete') {
      next = completeBankLink(record, bankCode === '' ? undefined : bankCode, now);
    } else {
      next = uploadStatements(record, now);
    }
  } catch (error) {
    if (error instanceof FinancialDomainError) {
      return { ok: false, status: error.code === 'UNKNOWN_BANK' ? 400 : 409, message: capitalize(error.message) };
    }
    throw error;
  }
  bankStatements(world).put(next);
  const verb = action === 'start' ? `picked ${next.bankCode ?? ''}` : action === 'complete' ? `linked ${next.bankCode ?? ''}` : 'uploaded statements';
  return { ok: true, value: next, explanations: [`hosted page: applicant ${verb}; ${toFinancialRecordJson(next, now).explanations.join('; ')}`] };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------- a session's workflow steps

/**
 * BANK_STATEMENT_UPLOAD start: the applicant links `bankCode` (the first sandbox bank when none is named)
 * to the session's request. A request already linked or uploaded (on its own page, or by an earlier start)
 * stays as it is.
 */
export function linkBankStatementForStep(
  world: World,
  organizationId: string,
  id: string,
  bankCode: string | undefined,
): { record: StoredFinancialRecord; explanation: string } {
  const record = requireOwnBankStatement(world, organizationId, id);
  const now = world.clock.now();
  if (record.linkedAt !== undefined) {
    const how = record.type === 'upload' ? 'statements uploaded' : `bank ${record.bankCode ?? ''} linked`;
    return { record, explanation: `bank statement request ${id} already has its ${how} at ${record.linkedAt}: kept; ${statusAt(record, now).explanation}` };
  }
  const linked = bankStatements(world).put(completeBankLink(record, bankCode, now));
  return { record: linked, explanation: `bank statement request ${id}: applicant linked ${linked.bankCode ?? ''}; ${statusAt(linked, now).explanation}` };
}

export interface BankStatementProgress {
  record: StoredFinancialRecord;
  status: FinancialStatus;
  /** When the statement is (or was) ready; undefined while nothing is linked or uploaded. */
  readyAtMs: number | undefined;
  /** The statement of a completed `request` record (an `upload` record carries none). */
  statement: BankStatement | undefined;
  explanation: string;
}

/** Where the session's request is on the virtual clock, with its statement once COMPLETED. */
export function bankStatementProgress(world: World, organizationId: string, id: string): BankStatementProgress {
  const record = requireOwnBankStatement(world, organizationId, id);
  const state = statusAt(record, world.clock.now());
  return {
    record,
    status: state.status,
    readyAtMs: completedAt(record),
    statement: state.status === 'COMPLETED' ? statementFor(record) : undefined,
    explanation: state.explanation,
  };
}
