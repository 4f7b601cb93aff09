/**
 * Credit terms (real client: creditTerms.create, list, retrieve, listByExternalId; not in the API spec): a
 * business credit application. POST /v1/credit-terms creates a `pending` record and the business's hosted
 * page ({verify_url}/credit-terms/<id>), where the business starts (`in_progress`) and submits
 * (`completed`) or declines (`declined`) the application (credit-terms.machine.ts). Records have the
 * bank-statement record's shape; lists are paged newest first with a signed `nextToken`.
 *
 * LIMITATIONS:
 * - Invitations go to the namespace's outbox (GET /__sandbox/outbox); there is no credit decision beyond
 *   the business's submission.
 * - A sandbox key reads the organization's records like a live key (there are no synthetic records).
 */
import type { Explained } from '../platform/explained.ts';
import type { OrganizationFixture, Principal } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import type { PublicUrls } from '../platform/platform.ts';
import { namespacedUrl, sandboxLink, type World } from '../platform/namespaces/world.ts';
import { invitedIf, sendInvitation } from '../platform/outbox/invitations.ts';
import { hostedPageUrl, type PageScope } from '../platform/secrets/page-tokens.ts';
import { keysetPaging } from '../platform/paging/keyset-paging.ts';
import { applicantUserIdFor, senderUserIdFor } from '../sessions/api.ts';
import { transition, type CreditTermsEvent } from './credit-terms.machine.ts';
import type { CreateCreditTermsBody, CreateCreditTermsResponse, CreditTermsRecord, StoredCreditTerms } from './credit-terms.schemas.ts';
import { CREDIT_TERMS_ERROR_CODES } from './credit-terms.errors.ts';

export const DEFAULT_CREDIT_TERMS_PAGE_SIZE = 10;

const creditTerms = (world: World) =>
  world.data
    .collection<StoredCreditTerms>('credit-terms')
    .index('byOrganization', (record) => record.organizationId)
    .index('byOrganizationExternalId', (record) => (record.externalId === undefined ? undefined : `${record.organizationId}\u0000${record.externalId}`));

const paging = keysetPaging<StoredCreditTerms>({
  purpose: 'credit-terms',
  tokenParam: 'nextToken',
  scopeHint: 'another organization or externalId',
  idOf: (record) => record.id,
  createdAtOf: (record) => record.createdAt,
});

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function creditTermsPageUrl(verifyUrl: string, id: string, scope: PageScope): string {
  return hostedPageUrl(`${trimSlash(verifyUrl)}/credit-terms/${encodeURIComponent(id)}`, id, scope);
}

/** The wire record (the stored extras left out). */
export function toCreditTermsJson(stored: StoredCreditTerms): CreditTermsRecord {
  const { contact: _contact, sendEmailInvite: _invite, ...record } = stored;
  return record;
}

/** POST /v1/credit-terms: 402 before any work when the balance is empty, one token after. */
export function createCreditTerms(
  world: World,
  organization: OrganizationFixture,
  body: CreateCreditTermsBody,
  urls: Pick<PublicUrls, 'base' | 'verify' | 'console'>,
  funds: FundsPolicy,
): Explained<CreateCreditTermsResponse> {
  requireFunds(world, organization, funds);
  const now = world.clock.iso();
  const stored: StoredCreditTerms = {
    id: world.uuid(),
    organizationId: organization.id,
    // One business e-mail, one user id (the rule hosted sessions use for applicants).
    userId: applicantUserIdFor(organization.id, body.businessEmail, world.seed),
    senderUserId: senderUserIdFor(organization.id),
    ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
    status: 'pending',
    type: 'credit-terms',
    Config: {
      period: body.requestedCreditPeriod,
      requestedCreditAmount: body.requestedCreditAmount,
      businessName: body.businessName,
      businessEmail: body.businessEmail,
      businessAddress: body.businessAddress,
    },
    createdAt: now,
    updatedAt: now,
    contact: { firstName: body.firstName, lastName: body.lastName },
    sendEmailInvite: body.sendEmailInvite,
  };
  creditTerms(world).put(stored);
  const remaining = charge(world, organization, funds);
  const creditTermsUrl = creditTermsPageUrl(urls.verify, stored.id, world);
  const invitation = sendInvitation(world, {
    kind: 'credit_terms_invitation',
    sessionId: stored.id,
    link: creditTermsUrl,
    sender: organization.name,
    firstName: body.firstName,
    email: invitedIf(body.sendEmailInvite, body.businessEmail, 'sendEmailInvite'),
  });
  return {
    value: {
      creditTermsId: stored.id,
      creditTermsUrl,
      ...(stored.externalId === undefined ? {} : { externalId: stored.externalId }),
      links: [
        {
          rel: 'admin_console',
          href: namespacedUrl(`${trimSlash(urls.console)}/credit-terms/${encodeURIComponent(stored.id)}`, world.namespace),
          description: 'View the credit terms request in the admin console',
        },
        {
          rel: 'credit_terms_details',
          href: sandboxLink(urls.base, `/v1/credit-terms/${encodeURIComponent(stored.id)}`, world.namespace),
          description: 'Retrieve the credit terms record via the API',
        },
      ],
    },
    explanations: [
      `credit terms pending for ${body.requestedCreditAmount} over ${body.requestedCreditPeriod} days; ${invitation.explanation}; 1 token charged, balance ${remaining}`,
    ],
  };
}

export function findCreditTerms(world: World, id: string): StoredCreditTerms | undefined {
  return creditTerms(world).get(id);
}

/** GET /v1/credit-terms/{id}: 404 unknown, 403 another organization's. */
/**
 * GET /v1/credit-terms/{id}. Credit terms have no synthetic records: a sandbox key, which may only read,
 * never reads the records live keys made (they hold a business's contact and finances), so for it every
 * id is unknown and every list empty.
 */
export function readCreditTerms(world: World, principal: Pick<Principal, 'kind' | 'organization'>, id: string): CreditTermsRecord {
  const organizationId = principal.organization.id;
  if (principal.kind === 'sandbox') throw codedError(CREDIT_TERMS_ERROR_CODES, 'CREDIT_TERMS_HIDDEN_FROM_SANDBOX_KEYS', { id });
  const stored = findCreditTerms(world, id);
  if (!stored) throw codedError(CREDIT_TERMS_ERROR_CODES, 'CREDIT_TERMS_NOT_FOUND', { id });
  if (stored.organizationId !== organizationId) throw codedError(CREDIT_TERMS_ERROR_CODES, 'CREDIT_TERMS_OF_ANOTHER_ORGANIZATION', { id });
  return toCreditTermsJson(stored);
}

/** GET /v1/credit-terms and /v1/credit-terms/externalId/{externalId}: newest first, signed nextToken. */
export function listCreditTerms(
  world: World,
  organizationId: string,
  input: { externalId?: string; nextToken?: string; limit?: number; secret: string },
): { creditTerms: CreditTermsRecord[]; nextToken: string | null } {
  const collection = creditTerms(world);
  const records =
    input.externalId === undefined
      ? collection.where('byOrganization', organizationId)
      : collection.where('byOrganizationExternalId', `${organizationId}\u0000${input.externalId}`);
  const page = paging.page(records, {
    limit: input.limit ?? DEFAULT_CREDIT_TERMS_PAGE_SIZE,
    ...(input.nextToken === undefined ? {} : { token: input.nextToken }),
    secret: input.secret,
    scope: JSON.stringify([organizationId, input.externalId ?? null]),
  });
  return { creditTerms: page.items.map(toCreditTermsJson), nextToken: page.nextToken };
}

/** What the business did on the hosted page; a refusal comes back as a value the page shows (404/409). */
export function actOnCreditTermsPage(
  world: World,
  id: string,
  event: CreditTermsEvent,
): ({ ok: true } & Explained<StoredCreditTerms>) | { ok: false; status: 404 | 409; message: string } {
  const stored = findCreditTerms(world, id);
  if (!stored) return { ok: false, status: 404, message: `There is no credit terms request ${id} in this namespace.` };
  const next = transition(stored.status, event);
  if ('refused' in next) return { ok: false, status: 409, message: `This application cannot change: ${next.refused}.` };
  const record = creditTerms(world).put({ ...stored, status: next.to, updatedAt: world.clock.iso() });
  return { ok: true, value: record, explanations: [`hosted page: credit terms ${stored.status} -> ${next.to} (${next.trigger})`] };
}
