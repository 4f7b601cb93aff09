/**
 * Builders of what POST /v1/sessions stores and what the session endpoints answer: the record, the
 * applicant's and the sender's profiles, the hosted page's URL, resource links, the create response, the
 * list shape, and the uploads operation's signed URLs and flags.
 *
 * Optional keys are only ever added when they have a value, so they are omitted rather than `null` or
 * `undefined` (real-client-facts §2).
 *
 * LIMITATIONS:
 * - The sender of every session of an organization is one deterministic user of that organization
 *   (the service creates sessions on behalf of the key's organization; who exactly is 'not shown').
 * - The resource_links keys (session_url, admin_console, session_details) are a choice: the spec says
 *   only that it is an object of strings.
 */
import { namespacedUrl, sandboxLink } from '../platform/namespaces/world.ts';
import { hostedPageUrl, type PageScope } from '../platform/secrets/page-tokens.ts';
import { JsonListPages } from '../platform/http/fast-paths.ts';
import { keptAnswers } from '../platform/kept-answers.ts';
import { fakerFrom, rngFrom, uuidFrom } from '../platform/random/random.ts';
import {
  UPLOAD_FLAGS,
  type CreateSessionInput,
  type CreateSessionResponse,
  type SessionListItem,
  type SessionRecord,
  type SessionType,
  type SessionUploadsResponse,
  type SingleSessionResponse,
  type UploadFileRequest,
  type UploadFlag,
  type Uploads,
  type StoredUserProfile,
  type UserProfile,
} from './sessions.schemas.ts';

/** The public addresses links point at ({base_url}, {verify_url}, {console_url}). */
export interface SessionUrls {
  base: string;
  verify: string;
  console: string;
}

/** What a session needs to know about its workflow. */
export interface SessionWorkflowInfo {
  id: string;
  /** The workflow's step identifiers, e.g. ['id-verification', 'face-liveness']. */
  stepIds: readonly string[];
  /** The workflow's own expiry, applied when the request has no expires_in_hours. */
  expiresInHours?: number;
}

const HOUR = 3_600_000;
const trimSlash = (url: string): string => (url.endsWith('/') ? url.replace(/\/+$/, '') : url);

const NOTHING_UPLOADED = Object.freeze(Object.fromEntries(UPLOAD_FLAGS.map((flag) => [flag, false])) as Uploads);

/** Every upload flag false: a fresh object, which the session then updates. */
export function emptyUploads(): Uploads {
  return { ...NOTHING_UPLOADED };
}

/** When a session expires: expires_in_hours, else the workflow's expiry, else never (undefined). */
export function expiresAtFor(body: Pick<CreateSessionInput, 'expiresInHours'>, workflow: SessionWorkflowInfo | undefined, nowIso: string): string | undefined {
  const hours = body.expiresInHours ?? workflow?.expiresInHours;
  if (hours === undefined) return undefined;
  return new Date(Date.parse(nowIso) + hours * HOUR).toISOString();
}

export interface BuildSessionRecordInput {
  id: string;
  organizationId: string;
  userId: string;
  senderUserId: string;
  type: SessionType;
  body: Pick<CreateSessionInput, 'externalId' | 'workflowId' | 'redirectUrl' | 'expiresInHours'>;
  workflow?: SessionWorkflowInfo;
  bankStatementRequestId?: string;
  nowIso: string;
}

/** The record of a new session: PENDING, session_progress PENDING, nothing uploaded, no analysis yet. */
export function buildSessionRecord(input: BuildSessionRecordInput): SessionRecord {
  const record: SessionRecord = {
    id: input.id,
    organization_id: input.organizationId,
    user_id: input.userId,
    sender_user_id: input.senderUserId,
    status: 'PENDING',
    type: input.type,
    session_progress: 'PENDING',
    created_at: input.nowIso,
    updated_at: input.nowIso,
  };
  if (input.body.externalId !== undefined) record.external_id = input.body.externalId;
  const workflowId = input.workflow?.id ?? input.body.workflowId;
  if (workflowId !== undefined) record.workflow_id = workflowId;
  if (input.bankStatementRequestId !== undefined) record.bank_statement_request_id = input.bankStatementRequestId;
  if (input.workflow !== undefined) record.workflow_steps = [...input.workflow.stepIds];
  record.meta_data = {};
  record.uploads = emptyUploads();
  if (input.body.redirectUrl !== undefined) record.redirect_url = input.body.redirectUrl;
  const expiresAt = expiresAtFor(input.body, input.workflow, input.nowIso);
  if (expiresAt !== undefined) record.expires_at = expiresAt;
  return record;
}

/** The applicant's user id: one user per e-mail address within an organization. */
export function applicantUserIdFor(organizationId: string, email: string, ...seedParts: readonly (string | number)[]): string {
  return uuidFrom('applicant-user', ...seedParts, organizationId, email.trim().toLowerCase());
}

/** The applicant's profile, from the create request. */
export function buildApplicantUser(input: {
  id: string;
  person: Pick<CreateSessionInput, 'firstName' | 'lastName' | 'email' | 'phone'>;
  nowIso: string;
}): StoredUserProfile {
  return {
    id: input.id,
    email: input.person.email,
    first_name: input.person.firstName,
    last_name: input.person.lastName,
    ...(input.person.phone === undefined ? {} : { phone: input.person.phone }),
    created_at: input.nowIso,
    updated_at: input.nowIso,
  };
}

/** A fictional phone number (NANP 555-01xx range) as E.164. */
export function fictionalUsPhone(rng: { int(min: number, max: number): number }): string {
  return `+1${rng.int(201, 989)}5550${rng.int(100, 199)}`;
}

/** A host-safe slug of an organization, for the sender's e-mail domain. */
function domainFor(organizationId: string, organizationName: string | undefined): string {
  const base = (organizationName ?? organizationId)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${base || 'organization'}.example`;
}

const senderUsers = new Map<string, StoredUserProfile>();

/**
 * The user who sends an organization's sessions: the same person for every session of the
 * organization, derived from its id (and named after the organization's domain). Built once per
 * organization (a Faker per session was the create path's largest cost); the profile is frozen, shared.
 */
export function buildSenderUser(organizationId: string, organizationName?: string): StoredUserProfile {
  const cacheKey = JSON.stringify([organizationId, organizationName ?? null]);
  let sender = senderUsers.get(cacheKey);
  if (sender === undefined) senderUsers.set(cacheKey, (sender = Object.freeze(deriveSenderUser(organizationId, organizationName))));
  return sender;
}

function deriveSenderUser(organizationId: string, organizationName: string | undefined): StoredUserProfile {
  const faker = fakerFrom('en_US', 'sender-user', organizationId);
  const rng = rngFrom('sender-user', organizationId);
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
  const createdAt = new Date(Date.UTC(2025, 0, 6) + rng.int(0, 180) * 86_400_000 + rng.int(8 * 3600, 18 * 3600) * 1000).toISOString();
  return {
    id: senderUserIdFor(organizationId),
    email: `${local}@${domainFor(organizationId, organizationName)}`,
    first_name: first,
    last_name: last,
    phone: fictionalUsPhone(rng),
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** Sender user ids by organization, asked for by every list and create: a hash of the organization id, kept. */
const senderUserIds = keptAnswers<string>(1024);

export function senderUserIdFor(organizationId: string): string {
  return senderUserIds(organizationId, () => uuidFrom('sender-user', organizationId));
}

/** Where a link is opened from: a session of a non-default namespace keeps it in its hosted URL. */
export interface SessionUrlOptions {
  /** The sandbox namespace and its page tokens (a World): the hosted URL carries the session's token, and the namespace unless it is the default one. */
  scope?: PageScope;
}

/**
 * {verify_url}/<id>?oid=<organization>[&redirect_url=<encoded>] (spec: POST /v1/sessions response), plus
 * `&namespace=<ns>` for a session of a non-default sandbox namespace so the page finds it.
 */
export function buildSessionUrl(verifyUrl: string, sessionId: string, organizationId: string, redirectUrl?: string, options: SessionUrlOptions = {}): string {
  let url = `${trimSlash(verifyUrl)}/${encodeURIComponent(sessionId)}?oid=${encodeURIComponent(organizationId)}`;
  if (redirectUrl !== undefined) url += `&redirect_url=${encodeURIComponent(redirectUrl)}`;
  return options.scope === undefined ? url : hostedPageUrl(url, sessionId, options.scope);
}

export function sessionDetailsUrl(baseUrl: string, sessionId: string, options: SessionUrlOptions = {}): string {
  return sandboxLink(baseUrl, `/v1/sessions/${encodeURIComponent(sessionId)}`, options.scope?.namespace);
}

export function adminConsoleUrl(consoleUrl: string, sessionId: string, options: SessionUrlOptions = {}): string {
  return namespacedUrl(`${trimSlash(consoleUrl)}/sessions/${encodeURIComponent(sessionId)}`, options.scope?.namespace);
}

/** The single-session response's resource_links: strings only, never null. */
export function buildResourceLinks(
  record: Pick<SessionRecord, 'id' | 'organization_id' | 'redirect_url'>,
  urls: SessionUrls,
  options: SessionUrlOptions = {},
): Record<string, string> {
  return {
    session_url: buildSessionUrl(urls.verify, record.id, record.organization_id, record.redirect_url, options),
    admin_console: adminConsoleUrl(urls.console, record.id, options),
    session_details: sessionDetailsUrl(urls.base, record.id, options),
  };
}

/** The POST /v1/sessions answer: externalId (camelCase) only if given, expires_at only if expiry applies. */
export function buildCreateSessionResponse(record: SessionRecord, urls: SessionUrls, options: SessionUrlOptions = {}): CreateSessionResponse {
  return {
    id: record.id,
    session_url: buildSessionUrl(urls.verify, record.id, record.organization_id, record.redirect_url, options),
    ...(record.external_id === undefined ? {} : { externalId: record.external_id }),
    ...(record.expires_at === undefined ? {} : { expires_at: record.expires_at }),
    links: [
      { rel: 'admin_console', href: adminConsoleUrl(urls.console, record.id, options), description: 'View and review this session in the admin console' },
      { rel: 'session_details', href: sessionDetailsUrl(urls.base, record.id, options), description: 'Retrieve this session and its results through the API' },
    ],
  };
}

/** The list shape: the eight record fields of the spec's 'Session record (list shape)'. */
export function toListItem(record: SessionRecord): SessionListItem {
  return {
    id: record.id,
    organization_id: record.organization_id,
    user_id: record.user_id,
    sender_user_id: record.sender_user_id,
    status: record.status,
    type: record.type,
    session_progress: record.session_progress,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export { LIST_PAGE_KEPT_ITEMS } from '../platform/http/fast-paths.ts';

/** The list's pages and items as JSON text, each item rendered once per record version (a stored record is never changed). */
const listPages = new JsonListPages<SessionRecord>('sessions', toListItem);

/** The list item of a record as JSON text: `JSON.stringify(toListItem(record))`. */
export const listItemJson = (record: SessionRecord): string => listPages.itemText(record);

/** A page of the list as the JSON text `JSON.stringify({ sessions, next_token })` gives; `query` names the query and position it answers. */
export const listPageJson = (query: string, records: readonly SessionRecord[], nextToken: string | null): string =>
  listPages.pageText(query, records, nextToken);

/** A stored profile as the spec's profile object: all seven members, `phone` null when none is on file. */
export function toProfileJson(profile: StoredUserProfile): UserProfile {
  return {
    id: profile.id,
    email: profile.email,
    first_name: profile.first_name,
    last_name: profile.last_name,
    phone: profile.phone ?? null,
    created_at: profile.created_at,
    updated_at: profile.updated_at,
  };
}

export function toSingleSessionResponse(
  record: SessionRecord,
  user: StoredUserProfile,
  senderUser: StoredUserProfile,
  urls: SessionUrls,
  options: SessionUrlOptions = {},
): SingleSessionResponse {
  return {
    session_record: record,
    user: toProfileJson(user),
    sender_user: toProfileJson(senderUser),
    resource_links: buildResourceLinks(record, urls, options),
  };
}

// ─── Uploads ────────────────────────────────────────────────────────────────────────────────────────

/** The record's `uploads` flag a slot fills, if it is one of the ten named slots. */
export function uploadFlagForSlot(slot: string): UploadFlag | undefined {
  return (UPLOAD_FLAGS as readonly string[]).includes(slot) ? (slot as UploadFlag) : undefined;
}

/**
 * The uploads operation's answer. `presign` returns the platform upload store's storage key and signed
 * PUT URL for one file; upload_type appears only for named slots (omitted for free slots: null would throw).
 */
export function buildSignedUploads(
  files: readonly UploadFileRequest[],
  presign: (file: UploadFileRequest) => { fileKey: string; uploadUrl: string },
): SessionUploadsResponse {
  return {
    signed_urls: files.map((file) => {
      const { fileKey, uploadUrl } = presign(file);
      const base = { file_key: fileKey, slot: file.slot };
      return file.uploadType === undefined ? { ...base, upload_url: uploadUrl } : { ...base, upload_type: file.uploadType, upload_url: uploadUrl };
    }),
  };
}

/**
 * The record after a file was PUT to a slot: the slot's `uploads` flag turns true (free slots have no
 * flag, so the record is returned unchanged).
 */
export function markUploaded(record: SessionRecord, slot: string, nowIso: string): SessionRecord {
  const flag = uploadFlagForSlot(slot);
  if (flag === undefined || record.uploads?.[flag] === true) return record;
  return { ...record, uploads: { ...(record.uploads ?? emptyUploads()), [flag]: true }, updated_at: nowIso };
}
