/**
 * The self-exclusion registry of gambling operators (spec: 'iGaming self-exclusion operations' and the
 * 'Self-exclusion registry' state table): document numbers kept here, faces kept by the shared face
 * registry (src/face-registry) as flags on enrolled faces, so anti-cheat analyze sees the same exclusions.
 *
 * Choices where the spec is silent:
 * - A document number is valid when, trimmed and upper-cased, it is not empty (the spec only trims and
 *   upper-cases; the real client's own example removes DOC/1). An empty one gets status `invalid` and is
 *   not stored; the same rule makes a DELETE path a 400.
 * - A number repeated inside one request is `added` once, then `already_excluded`.
 * - Excluding an applicant links the identity entry and the face it flags: removing that document number
 *   clears the face (face_unexcluded true), and the listing shows the pair once, as the identity entry.
 * - Excluding a face records the exclusion on the enrolled face the session resolves to; the face entry
 *   lists that enrolment's session. Excluding it again keeps one entry (newest reason and time).
 *
 * LIMITATIONS:
 * - The registry is per organization and namespace; nothing is shared across operators.
 */
import { codedError } from '../platform/errors/error-codes.ts';
import { IGAMING_ERROR_CODES } from './igaming.errors.ts';
import type { Explained } from '../platform/explained.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { Principal } from '../platform/auth/organizations.ts';
import {
  clearFaceExclusionsLinkedTo,
  clearSessionFaceExclusion,
  excludedFaces,
  excludeSessionFace,
  findSessionFace,
  purgeSessionFace,
} from '../face-registry/face-registry.ts';
import { sessionById } from '../sessions/api.ts';
import {
  DOCUMENT_NUMBER_PATTERN,
  DOCUMENT_NUMBER_RULE,
  type AddIdentityBody,
  type AddIdentityResponse,
  type ExcludeApplicantResponse,
  type ExcludeFaceResponse,
  type ExcludeSessionBody,
  type FaceEntry,
  type IdentityEntry,
  type PurgeEnrollmentResponse,
  type RegistryListResponse,
  type RemoveFaceResponse,
  type RemoveIdentityResponse,
} from './igaming.schemas.ts';

interface IdentityExclusion {
  /** identityKey(organizationId, documentNumber). */
  id: string;
  organizationId: string;
  documentNumber: string;
  reason: string | null;
  addedBy: string | null;
  addedAt: string;
  firstName?: string;
  lastName?: string;
  /** The session an applicant exclusion came from (its face exclusion is linked to this entry). */
  sourceSessionId?: string;
}

const identityKey = (organizationId: string, documentNumber: string): string => `${organizationId}\u0000${documentNumber}`;
const identities = (world: World) => world.data.collection<IdentityExclusion>('selfExclusionIdentities').index('byOrganization', (e) => e.organizationId);

/** Trimmed and upper-cased (spec). */
export function normalizeDocumentNumber(value: string): string {
  return value.trim().toUpperCase();
}

function addIdentity(world: World, entry: Omit<IdentityExclusion, 'id' | 'addedAt'>): 'added' | 'already_excluded' {
  const key = identityKey(entry.organizationId, entry.documentNumber);
  if (identities(world).has(key)) return 'already_excluded';
  identities(world).put({ id: key, ...entry, addedAt: world.clock.iso() });
  return 'added';
}

// ─── POST /v1/igaming/self-exclusion/identity ───────────────────────────────────────────────────────

export function excludeIdentities(world: World, principal: Principal, body: AddIdentityBody): Explained<AddIdentityResponse> {
  const requested = body.document_numbers ?? [body.document_number as string];
  const excluded = requested.map((raw) => {
    const documentNumber = normalizeDocumentNumber(raw);
    if (!DOCUMENT_NUMBER_PATTERN.test(documentNumber)) return { document_number: documentNumber, status: 'invalid' as const };
    const status = addIdentity(world, {
      organizationId: principal.organization.id,
      documentNumber,
      reason: body.reason ?? null,
      addedBy: principal.keyId,
      ...(body.first_name === undefined ? {} : { firstName: body.first_name }),
      ...(body.last_name === undefined ? {} : { lastName: body.last_name }),
    });
    return { document_number: documentNumber, status };
  });
  const count = (status: string) => excluded.filter((e) => e.status === status).length;
  return {
    value: { excluded },
    explanations: [`${count('added')} added, ${count('already_excluded')} already excluded, ${count('invalid')} invalid (valid: ${DOCUMENT_NUMBER_RULE})`],
  };
}

// ─── DELETE /v1/igaming/self-exclusion/identity/{document_number} ───────────────────────────────────

export function removeIdentity(world: World, organizationId: string, rawDocumentNumber: string): Explained<RemoveIdentityResponse> {
  const documentNumber = normalizeDocumentNumber(rawDocumentNumber);
  if (!DOCUMENT_NUMBER_PATTERN.test(documentNumber)) {
    const shown = documentNumber === '' ? 'is empty' : `"${documentNumber.slice(0, 60)}" is malformed`;
    throw codedError(IGAMING_ERROR_CODES, 'DOCUMENT_NUMBER_MALFORMED', { shown, rule: DOCUMENT_NUMBER_RULE });
  }
  const removed = identities(world).delete(identityKey(organizationId, documentNumber));
  const faceUnexcluded = removed && clearFaceExclusionsLinkedTo(world, organizationId, documentNumber) > 0;
  return {
    value: { removed, face_unexcluded: faceUnexcluded },
    explanations: [
      removed
        ? `document number ${documentNumber} removed${faceUnexcluded ? '; the face excluded with it was cleared' : ''}`
        : `document number ${documentNumber} was not in the registry (removed false, no error)`,
    ],
  };
}

// ─── POST /v1/igaming/self-exclusion/applicant ──────────────────────────────────────────────────────

/** The DOCUMENT_NUMBER the session's ID analysis extracted (normalized), or null. */
function extractedDocumentNumber(analysis: unknown): string | null {
  const texts =
    (analysis as { id_analysis_data?: { id_extracted_text?: { type: string; value: string }[] } } | undefined)?.id_analysis_data?.id_extracted_text ?? [];
  const value = texts.find((text) => text.type === 'DOCUMENT_NUMBER')?.value;
  if (value === undefined) return null;
  const normalized = normalizeDocumentNumber(value);
  return DOCUMENT_NUMBER_PATTERN.test(normalized) ? normalized : null;
}

export function excludeApplicant(world: World, principal: Principal, body: ExcludeSessionBody): Explained<ExcludeApplicantResponse> {
  const organizationId = principal.organization.id;
  const stored = sessionById(world, body.session_id);
  if (stored === undefined || stored.record.organization_id !== organizationId) {
    throw codedError(IGAMING_ERROR_CODES, 'SESSION_NOT_IN_ORGANIZATION', { sessionId: body.session_id });
  }
  const reason = body.reason ?? null;
  const documentNumber = extractedDocumentNumber(stored.record.analysis_data);
  const identityStatus =
    documentNumber === null
      ? undefined
      : addIdentity(world, {
          organizationId,
          documentNumber,
          reason,
          addedBy: principal.keyId,
          firstName: stored.user.first_name,
          lastName: stored.user.last_name,
          sourceSessionId: body.session_id,
        });
  const face = excludeSessionFace(world, organizationId, body.session_id, {
    reason,
    ...(documentNumber === null ? {} : { linkedDocumentNumber: documentNumber }),
  });
  const matched = face?.duplicate ? face.enrolledSessionId : undefined;
  const explanations = [
    documentNumber === null ? `session ${body.session_id} has no extracted document number` : `document number ${documentNumber} ${identityStatus}`,
    face === undefined
      ? 'no enrolled face for the session'
      : matched === undefined
        ? `face ${face.faceId} flagged`
        : `face flagged through the enrolment of session ${matched} (similarity ${face.similarity})`,
  ];
  if (documentNumber === null && face === undefined) {
    return {
      value: {
        face_attached: false,
        document_number: null,
        message: `Nothing to exclude for this session: session ${body.session_id} has no extracted document number and no enrolled face (finish it with a selfie first).`,
      },
      explanations,
    };
  }
  return {
    value: {
      face_attached: face !== undefined,
      document_number: documentNumber,
      ...(identityStatus === undefined ? {} : { identity_status: identityStatus }),
      ...(matched === undefined ? {} : { matched_session_id: matched }),
    },
    explanations,
  };
}

// ─── POST /v1/igaming/self-exclusion/face and DELETE …/face/{session_id} ───────────────────────────

export function excludeFace(world: World, organizationId: string, body: ExcludeSessionBody): Explained<ExcludeFaceResponse> {
  const face = excludeSessionFace(world, organizationId, body.session_id, { reason: body.reason ?? null });
  if (face === undefined) {
    return {
      value: {
        excluded: false,
        session_id: body.session_id,
        reason: `No enrolled face for session ${body.session_id}: a face is enrolled when a selfie of the session is processed (hosted session, ID_VERIFICATION step or anti-cheat analyze).`,
      },
      explanations: [`session ${body.session_id} has no enrolled face`],
    };
  }
  const matched = face.duplicate ? face.enrolledSessionId : undefined;
  return {
    value: {
      excluded: true,
      session_id: body.session_id,
      ...(body.reason === undefined ? {} : { reason: body.reason }),
      ...(matched === undefined ? {} : { matched_session_id: matched }),
    },
    explanations: [matched === undefined ? `face ${face.faceId} excluded` : `face excluded through the enrolment of session ${matched}`],
  };
}

export function removeFace(world: World, organizationId: string, sessionId: string): Explained<RemoveFaceResponse> {
  const face = clearSessionFaceExclusion(world, organizationId, sessionId);
  if (face === undefined)
    return { value: { unexcluded: false }, explanations: [`session ${sessionId} resolves to no excluded face (unexcluded false, no error)`] };
  const matched = face.duplicate ? face.enrolledSessionId : undefined;
  return {
    value: { unexcluded: true, ...(matched === undefined ? {} : { matched_session_id: matched }) },
    explanations: [`face ${face.faceId} cleared${matched === undefined ? '' : ` through the enrolment of session ${matched}`}`],
  };
}

// ─── GET /v1/igaming/self-exclusion ─────────────────────────────────────────────────────────────────

function identityEntry(entry: IdentityExclusion): IdentityEntry {
  return {
    type: 'identity',
    document_number: entry.documentNumber,
    reason: entry.reason,
    added_by: entry.addedBy,
    added_at: entry.addedAt,
    ...(entry.firstName === undefined ? {} : { first_name: entry.firstName }),
    ...(entry.lastName === undefined ? {} : { last_name: entry.lastName }),
  };
}

/** Identity entries in the order they were added, then excluded faces not already represented by a linked identity entry. */
export function listRegistry(world: World, organizationId: string, limit: number): Explained<RegistryListResponse> {
  const identityEntries = identities(world).where('byOrganization', organizationId);
  const listed = new Set(identityEntries.map((entry) => entry.documentNumber));
  const faces = excludedFaces(world, organizationId);
  const faceEntries: FaceEntry[] = faces
    .filter((face) => face.exclusion.linkedDocumentNumber === undefined || !listed.has(face.exclusion.linkedDocumentNumber))
    .map((face) => ({ type: 'face', session_id: face.sessionId, reason: face.exclusion.reason, excluded_at: face.exclusion.excludedAt }));
  const all = [...identityEntries.map(identityEntry), ...faceEntries];
  const hidden = faces.length - faceEntries.length;
  return {
    value: { entries: all.slice(0, limit), truncated: all.length > limit },
    explanations: [
      `${identityEntries.length} identity and ${faces.length} face exclusions${hidden > 0 ? ` (${hidden} face shown through its linked identity entry)` : ''}; limit ${limit}`,
    ],
  };
}

// ─── DELETE /v1/igaming/anti-cheat/{session_id} ─────────────────────────────────────────────────────

export function purgeEnrollment(world: World, organizationId: string, sessionId: string): Explained<PurgeEnrollmentResponse> {
  const registered = findSessionFace(world, organizationId, sessionId);
  const faceId = purgeSessionFace(world, organizationId, sessionId);
  const why =
    faceId !== null
      ? `face ${faceId} of session ${sessionId} deleted${registered?.exclusion === undefined ? '' : ' with its self-exclusion entry'}; identity entries unaffected`
      : registered?.duplicate
        ? `session ${sessionId} is a duplicate of session ${registered.enrolledSessionId}: it never enrolled a face of its own`
        : `session ${sessionId} has no enrolled face (already purged, or never enrolled)`;
  return { value: { deleted: faceId !== null, face_id: faceId }, explanations: [why] };
}

/** Sandbox keys read this fixed registry (spec Authentication 4: a GET returns pre-built synthetic data). */
const SANDBOX_REGISTRY: readonly (IdentityEntry | FaceEntry)[] = [
  {
    type: 'identity',
    document_number: 'DOC-1',
    reason: 'operator request',
    added_by: 'key_sandbox_synthetic',
    added_at: '2026-01-01T09:00:00.000Z',
    first_name: 'Jane',
    last_name: 'Doe',
  },
  { type: 'identity', document_number: 'X1234567', reason: null, added_by: null, added_at: '2026-01-02T10:30:00.000Z' },
  { type: 'face', session_id: 'test_verified', reason: 'player request', excluded_at: '2026-01-03T08:15:00.000Z' },
];

export function sandboxRegistry(limit: number): Explained<RegistryListResponse> {
  return {
    value: { entries: SANDBOX_REGISTRY.slice(0, limit), truncated: SANDBOX_REGISTRY.length > limit },
    explanations: ['sandbox key: the fixed synthetic registry (writes need a live key)'],
  };
}
