/**
 * Age verification (real client: ageVerification.create, listParentConnectRequests,
 * retrieveParentConnectRequest, getBoundaries; not in the API spec).
 *
 * POST /v1/age-verification creates a hosted session of type `age-verification` through the sessions area
 * (so GET /v1/sessions/{id} reads it and its page finishes it), answering the method as the service names
 * it (`quiz` → `intel-quiz`). With method parent-connect it also creates a Parent Connect request for the
 * child's session: the parent invites, verifies, consents with boundaries or declines on the request's
 * hosted page ({verify_url}/parent-connect/<id>) or through the control plane; the machine is data in
 * age-verification.machine.ts. Boundaries are read by the child's attestation id, issued with the request.
 *
 * LIMITATIONS:
 * - The quiz and credit-card methods are plain hosted sessions: no quiz questions or card checks happen.
 * - Invitations go to the namespace's outbox (GET /__sandbox/outbox); contact_method is always `email`, and
 *   the parent's invitation goes to the e-mail address of the child's session (the request names no other).
 * - boundaries_match_attestation is true while consent is given and has not expired.
 */
import type { OrganizationFixture, Principal } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import type { PublicUrls } from '../platform/platform.ts';
import type { World } from '../platform/namespaces/world.ts';
import { hostedPageUrl, type PageScope } from '../platform/secrets/page-tokens.ts';
import { invitedIf, sendInvitation } from '../platform/outbox/invitations.ts';
import { keysetPaging } from '../platform/paging/keyset-paging.ts';
import { adminConsoleUrl, createSession, sessionById, sessionDetailsUrl } from '../sessions/api.ts';
import { PARENT_CONNECT_TIMINGS, statusAt, transitionFor, type ParentConnectEvent } from './age-verification.machine.ts';
import type {
  AgeMethod,
  BoundariesResponse,
  CreateAgeVerificationBody,
  CreateAgeVerificationResponse,
  ParentConnectEventBody,
  ParentConnectRequest,
  PlatformRestriction,
} from './age-verification.schemas.ts';
import { toBoundariesJson, type StoredParentConnect } from './parent-connect-record.ts';
import { sandboxBoundaries, sandboxParentConnectRequest, sandboxParentConnectRequests } from './sandbox-parent-connect.ts';

/** The method names the service answers with. */
export const METHOD_NAMES: Record<AgeMethod, string> = { quiz: 'intel-quiz', 'credit-card': 'credit-card', 'parent-connect': 'parent-connect' };

export const DEFAULT_PARENT_CONNECT_PAGE_SIZE = 20;

export const parentConnectRequests = (world: World) =>
  world.data
    .collection<StoredParentConnect>('parent-connect-requests')
    .index('byOrganization', (record) => record.organizationId)
    .index('byChildAttestation', (record) => record.child_attestation_id ?? undefined);

const paging = keysetPaging<StoredParentConnect>({
  purpose: 'parent-connect',
  tokenParam: 'next_token',
  scopeHint: 'another organization or child_session_id',
  idOf: (record) => record.id,
  createdAtOf: (record) => record.created_at,
});

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The parent's page, with its token (and the namespace outside the default one). */
export function parentConnectPageUrl(verifyUrl: string, id: string, scope: PageScope): string {
  return hostedPageUrl(`${trimSlash(verifyUrl)}/parent-connect/${encodeURIComponent(id)}`, id, scope);
}

/** POST /v1/age-verification: one token (402 when empty). */
export function createAgeVerification(
  world: World,
  organization: OrganizationFixture,
  body: CreateAgeVerificationBody,
  urls: Pick<PublicUrls, 'base' | 'verify' | 'console'>,
  funds: FundsPolicy,
): { body: CreateAgeVerificationResponse; explanation: string } {
  requireFunds(world, organization, funds);
  const nowIso = world.clock.iso();
  const session = createSession(world, {
    organization,
    type: 'age-verification',
    input: {
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      phone: body.phone,
      sendEmailInvite: body.sendEmailInvite,
      sendPhoneInvite: body.sendPhoneInvite,
      ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
      ...(body.redirectUrl === undefined ? {} : { redirectUrl: body.redirectUrl }),
      ...(body.expiresInHours === undefined ? {} : { expiresInHours: body.expiresInHours }),
    },
    nowIso,
  });
  const record = session.record;
  const links = [
    {
      rel: 'admin_console',
      href: adminConsoleUrl(urls.console, record.id, { scope: world }),
      description: 'View the age verification in the admin console',
    },
    { rel: 'session_details', href: sessionDetailsUrl(urls.base, record.id), description: 'Retrieve the age verification session via the API' },
  ];
  let explanation = `age verification session (${METHOD_NAMES[body.method]}) PENDING`;
  if (body.method === 'parent-connect') {
    const request = createParentConnect(world, organization.id, record.id, body, nowIso);
    links.push({
      rel: 'parent_connect',
      href: parentConnectPageUrl(urls.verify, request.id, world),
      description: "The parent's Parent Connect page (invite, verify, consent)",
    });
    explanation += `; Parent Connect request ${request.id} PENDING`;
  }
  const remaining = charge(world, organization, funds);
  const sessionUrl = hostedPageUrl(`${trimSlash(urls.verify)}/deep-age/${encodeURIComponent(record.id)}`, record.id, world);
  const invitation = sendInvitation(world, {
    kind: 'age_verification_invitation',
    sessionId: record.id,
    link: sessionUrl,
    sender: organization.name,
    firstName: body.firstName,
    ...(record.expires_at === undefined ? {} : { expiresAt: record.expires_at }),
    email: invitedIf(body.sendEmailInvite, body.email, 'sendEmailInvite'),
    sms: invitedIf(body.sendPhoneInvite, body.phone, 'sendPhoneInvite'),
  });
  return {
    body: {
      id: record.id,
      session_url: sessionUrl,
      method: METHOD_NAMES[body.method],
      ...(record.external_id === undefined ? {} : { external_id: record.external_id }),
      expires_at: record.expires_at ?? null,
      links,
    },
    explanation: `${explanation}; ${invitation.explanation}; 1 token charged, balance ${remaining}`,
  };
}

function createParentConnect(
  world: World,
  organizationId: string,
  childSessionId: string,
  body: CreateAgeVerificationBody,
  nowIso: string,
): StoredParentConnect {
  const restrictions = body.platformRestrictions ?? [];
  const request: StoredParentConnect = {
    id: world.uuid(),
    organizationId,
    child_session_id: childSessionId,
    parent_session_id: null,
    status: 'PENDING',
    age_band: body.ageBand ?? null,
    contact_method: null,
    platform_restrictions: restrictions,
    boundaries: null,
    eula_url: body.eulaUrl ?? null,
    eula_accepted: false,
    child_attestation_id: world.uuid(),
    parent_attestation_id: null,
    boundaries_revision: null,
    consent_given_at: null,
    consent_expires_at: null,
    reconsent_due_at: null,
    invite_expires_at: null,
    declined_at: null,
    created_at: nowIso,
    updated_at: nowIso,
  };
  return parentConnectRequests(world).put(request);
}

/** The wire record at `nowMs` (EXPIRED derived from invite_expires_at). */
export function toParentConnectJson(stored: StoredParentConnect, nowMs: number): ParentConnectRequest {
  const { organizationId: _organization, ...record } = stored;
  return { ...record, status: statusAt(stored, nowMs) };
}

function requireOwn(world: World, organizationId: string, id: string): StoredParentConnect {
  const stored = parentConnectRequests(world).get(id);
  if (!stored)
    throw new ApiError(
      404,
      `Parent Connect request ${id} was not found: use the id from the parent_connect link of POST /v1/age-verification or from the list.`,
    );
  if (stored.organizationId !== organizationId)
    throw new ApiError(403, `Parent Connect request ${id} belongs to another organization: use an API key of the organization that created it.`);
  return stored;
}

/** GET /v1/age-verification/parent-connect/{id}. */
export function readParentConnect(world: World, principal: Principal, id: string): ParentConnectRequest {
  if (principal.kind === 'sandbox') return sandboxParentConnectRequest(id);
  return toParentConnectJson(requireOwn(world, principal.organization.id, id), world.clock.now());
}

/** GET /v1/age-verification/parent-connect: keyset page first, then the status filter (as the service does). */
export function listParentConnect(
  world: World,
  principal: Principal,
  query: { limit?: number; next_token?: string; child_session_id?: string; status?: ParentConnectRequest['status'] },
  secret: string,
): { parent_connect_requests: ParentConnectRequest[]; next_token: string | null } {
  const now = world.clock.now();
  const organizationId = principal.organization.id;
  const source: readonly StoredParentConnect[] =
    principal.kind === 'sandbox' ? sandboxParentConnectRequests(organizationId) : parentConnectRequests(world).where('byOrganization', organizationId);
  const scoped = query.child_session_id === undefined ? source : source.filter((record) => record.child_session_id === query.child_session_id);
  const page = paging.page(scoped, {
    limit: query.limit ?? DEFAULT_PARENT_CONNECT_PAGE_SIZE,
    ...(query.next_token === undefined ? {} : { token: query.next_token }),
    secret,
    scope: JSON.stringify([organizationId, principal.kind, query.child_session_id ?? null]),
  });
  const records = page.items.map((record) => toParentConnectJson(record, now));
  return {
    parent_connect_requests: query.status === undefined ? records : records.filter((record) => record.status === query.status),
    next_token: page.nextToken,
  };
}

/** GET /v1/age-verification/boundaries/{childAttestationId}. */
export function readBoundaries(world: World, principal: Principal, childAttestationId: string): BoundariesResponse {
  if (principal.kind === 'sandbox') return sandboxBoundaries(childAttestationId);
  const attested = parentConnectRequests(world).where('byChildAttestation', childAttestationId);
  const stored = attested.find((record) => record.organizationId === principal.organization.id);
  if (!stored && attested.length > 0)
    throw new ApiError(
      403,
      `The child attestation ${childAttestationId} belongs to another organization's Parent Connect request: use an API key of the organization that created it.`,
    );
  if (!stored)
    throw new ApiError(
      404,
      `No Parent Connect request has the child attestation ${childAttestationId}: use the child_attestation_id of a Parent Connect request.`,
    );
  return toBoundariesJson(toParentConnectJson(stored, world.clock.now()), world.clock.now());
}

/** The boundaries from the restrictions' defaults and the parent's choices, checked against each restriction. */
export function resolveBoundaries(
  restrictions: readonly PlatformRestriction[],
  chosen: Record<string, boolean | number | string> = {},
): Record<string, boolean | number | string> {
  const known = new Set(restrictions.map((restriction) => restriction.key));
  for (const key of Object.keys(chosen))
    if (!known.has(key)) throw new ApiError(400, `boundaries.${key} is not one of the request's platform restrictions (${[...known].join(', ') || 'none'}).`);
  const out: Record<string, boolean | number | string> = {};
  for (const restriction of restrictions) {
    const value = chosen[restriction.key] ?? restriction.default;
    if (value === undefined) {
      if (restriction.required) throw new ApiError(400, `boundaries.${restriction.key} is required: choose a value for "${restriction.label}".`);
      continue;
    }
    const numeric = restriction.type === 'number' || restriction.type === 'minutes';
    if (restriction.type === 'toggle' && typeof value !== 'boolean') throw new ApiError(400, `boundaries.${restriction.key} must be true or false.`);
    if (
      numeric &&
      (typeof value !== 'number' || (restriction.min !== undefined && value < restriction.min) || (restriction.max !== undefined && value > restriction.max))
    ) {
      throw new ApiError(400, `boundaries.${restriction.key} must be a number from ${restriction.min ?? '-inf'} to ${restriction.max ?? 'inf'}.`);
    }
    if (restriction.type === 'select' && !(restriction.options ?? []).includes(String(value)))
      throw new ApiError(400, `boundaries.${restriction.key} must be one of ${(restriction.options ?? []).join(', ')}.`);
    out[restriction.key] = value;
  }
  return out;
}

/** What the invite event needs to write the parent's e-mail: the page's base and the organizations' names. */
export interface ParentInviteContext {
  verifyUrl: string;
  organizations: ReadonlyMap<string, { name: string }>;
}

/**
 * Applies a parent's (or a test's) event: the page and the control plane both call this. 404 unknown,
 * 409 when the machine has no such move from the current status, 400 for boundaries or an EULA not accepted.
 * The invite event sends the parent's e-mail (to the outbox).
 */
export function actOnParentConnect(
  world: World,
  id: string,
  input: ParentConnectEventBody,
  inviteContext: ParentInviteContext,
): { record: ParentConnectRequest; explanation: string } {
  const stored = parentConnectRequests(world).get(id);
  if (!stored) throw new ApiError(404, `There is no Parent Connect request ${id} in this namespace.`);
  const now = world.clock.now();
  const nowIso = world.clock.iso(now);
  const status = statusAt(stored, now);
  const to = transitionFor(status, input.event);
  if (!to) throw new ApiError(409, `Parent Connect request ${id} is ${status}: "${input.event}" is not possible now.`);
  const next: StoredParentConnect = { ...stored, status: to, updated_at: nowIso };
  const apply: Record<ParentConnectEvent, () => void> = {
    invite: () => Object.assign(next, { contact_method: 'email', invite_expires_at: world.clock.iso(now + PARENT_CONNECT_TIMINGS.inviteTtlMs) }),
    verify_parent: () => Object.assign(next, { parent_session_id: world.uuid(), parent_attestation_id: world.uuid() }),
    give_consent: () => {
      if (stored.eula_url !== null && input.accept_eula === false)
        throw new ApiError(400, 'accept_eula must be true: the parent has to accept the EULA to consent.');
      Object.assign(next, {
        boundaries: resolveBoundaries(stored.platform_restrictions, input.boundaries),
        boundaries_revision: 1,
        eula_accepted: stored.eula_url !== null,
        consent_given_at: nowIso,
        consent_expires_at: world.clock.iso(now + PARENT_CONNECT_TIMINGS.consentTtlMs),
        reconsent_due_at: world.clock.iso(now + PARENT_CONNECT_TIMINGS.consentTtlMs - PARENT_CONNECT_TIMINGS.reconsentNoticeMs),
      });
    },
    update_boundaries: () =>
      Object.assign(next, {
        boundaries: resolveBoundaries(stored.platform_restrictions, { ...(stored.boundaries ?? {}), ...input.boundaries }),
        boundaries_revision: (stored.boundaries_revision ?? 0) + 1,
      }),
    decline: () => Object.assign(next, { declined_at: nowIso }),
    expire: () => Object.assign(next, { status: 'PARENT_INVITED', invite_expires_at: nowIso }),
  };
  apply[input.event]();
  parentConnectRequests(world).put(next);
  const invited = input.event === 'invite' ? `; ${inviteParent(world, next, inviteContext)}` : '';
  return { record: toParentConnectJson(next, now), explanation: `Parent Connect ${status} -> ${to} (${input.event})${invited}` };
}

/** The parent's invitation: to the e-mail address on the child's session, opening the parent's page. */
function inviteParent(world: World, request: StoredParentConnect, context: ParentInviteContext): string {
  const child = request.child_session_id === null ? undefined : sessionById(world, request.child_session_id);
  return sendInvitation(world, {
    kind: 'parent_connect_invitation',
    sessionId: request.id,
    link: parentConnectPageUrl(context.verifyUrl, request.id, world),
    sender: context.organizations.get(request.organizationId)?.name ?? request.organizationId,
    ...(request.invite_expires_at === null ? {} : { expiresAt: request.invite_expires_at }),
    email: child === undefined ? { skipped: 'the child session has no e-mail address' } : { to: child.user.email },
  }).explanation;
}
