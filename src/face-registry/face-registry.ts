/**
 * The face registry: one per organization and namespace, shared by every area that sees a selfie. A
 * session whose selfie was processed (a hosted session's finish, a headless ID_VERIFICATION step, the
 * anti-cheat analyze of iGaming) is offered here once:
 * - when its face matches an enrolled face, by the same similarity and threshold as POST /v1/face/compare
 *   (compareFaceSignatures), the session becomes a duplicate pointing at that enrolment (the best match
 *   when several reach the threshold) and enrols nothing of its own;
 * - otherwise its face is enrolled under a new face id.
 * Self-exclusion by face is a flag on the enrolment, so a later session matching it is recognised as
 * self-excluded, and purging the enrolment (DELETE /v1/igaming/anti-cheat/{session_id}) removes the face
 * and its exclusion together.
 *
 * LIMITATIONS:
 * - Similarity is photo similarity (see src/images), not identity: two photos of one person taken
 *   differently may not match, and a re-encoded or resized photo of the same frame always does.
 * - A session is offered once: a second selfie of an already-registered session is ignored (the first
 *   outcome stands), as the registry keeps one face per session.
 * - Purging a duplicate changes nothing (it holds no face of its own); sessions that matched a purged
 *   enrolment keep pointing at it and resolve to no face.
 */
import { compareFaceSignatures } from '../images/face-match.ts';
import type { AnalysedImage } from '../images/image-analysis.ts';
import type { ImageSignature } from '../images/perceptual-hash.ts';
import type { World } from '../platform/namespaces/world.ts';

/** Where an enrolment came from (sandbox bookkeeping, shown in explanations). */
export type FaceSource = 'hosted-session' | 'workflow-step' | 'anti-cheat';

/** An ImageSignature in JSON form (the store keeps plain arrays). */
interface StoredSignature {
  phash: string;
  dct: number[];
  colourLayout: number[];
}

export interface FaceExclusion {
  reason: string | null;
  excludedAt: string;
  /** The identity entry excluded together with this face (applicant exclusion): removing it clears the face. */
  linkedDocumentNumber?: string;
}

/** An enrolled face: the session that enrolled it and, when excluded, the exclusion. */
interface FaceEnrolment {
  /** The face id. */
  id: string;
  organizationId: string;
  sessionId: string;
  signature: StoredSignature;
  source: FaceSource;
  enrolledAt: string;
  exclusion?: FaceExclusion;
}

/** What the registry knows about a session's face: its own enrolment, or the enrolment it duplicates. */
interface SessionFace {
  /** sessionFaceKey(organizationId, sessionId). */
  id: string;
  organizationId: string;
  sessionId: string;
  /** The enrolment: the session's own, or the matched one when `duplicate`. */
  faceId: string;
  duplicate: boolean;
  /** Similarity (0-100) to the matched enrolment, when `duplicate`. */
  similarity?: number;
  registeredAt: string;
}

const sessionFaceKey = (organizationId: string, sessionId: string): string => `${organizationId}\u0000${sessionId}`;

const enrolments = (world: World) => world.data.collection<FaceEnrolment>('faceEnrolments').index('byOrganization', (e) => e.organizationId);
const sessionFaces = (world: World) => world.data.collection<SessionFace>('sessionFaces');

function toStored(signature: ImageSignature): StoredSignature {
  return { phash: signature.phash, dct: Array.from(signature.dct), colourLayout: Array.from(signature.colourLayout) };
}

function fromStored(signature: StoredSignature): ImageSignature {
  return { phash: signature.phash, dct: Float64Array.from(signature.dct), colourLayout: Float64Array.from(signature.colourLayout) };
}

/** A session's place in the registry, as areas see it. */
export interface RegisteredFace {
  sessionId: string;
  /** The enrolled face the session resolves to (its own, or the matched one). */
  faceId: string;
  /** The session that enrolled that face (the session itself unless `duplicate`). */
  enrolledSessionId: string;
  duplicate: boolean;
  /** Similarity to the matched enrolment (duplicates only). */
  similarity?: number;
  /** The exclusion of the face it resolves to. */
  exclusion?: FaceExclusion;
}

export interface Registration extends RegisteredFace {
  /** False when the session had already been registered (its first outcome is returned). */
  isNew: boolean;
}

function present(face: SessionFace, enrolment: FaceEnrolment | undefined): RegisteredFace {
  return {
    sessionId: face.sessionId,
    faceId: face.faceId,
    enrolledSessionId: enrolment?.sessionId ?? face.sessionId,
    duplicate: face.duplicate,
    ...(face.similarity === undefined ? {} : { similarity: face.similarity }),
    ...(enrolment?.exclusion === undefined ? {} : { exclusion: enrolment.exclusion }),
  };
}

export interface RegisterFaceInput {
  organizationId: string;
  sessionId: string;
  signature: ImageSignature;
  source: FaceSource;
}

/**
 * Offers a session's face to the registry: a duplicate of the best-matching enrolment, or a new
 * enrolment. A session already registered keeps its first outcome (isNew false).
 */
export function registerFace(world: World, input: RegisterFaceInput): Registration {
  const existing = sessionFaces(world).get(sessionFaceKey(input.organizationId, input.sessionId));
  if (existing !== undefined) return { ...present(existing, enrolments(world).get(existing.faceId)), isNew: false };

  let best: { enrolment: FaceEnrolment; confidence: number } | undefined;
  for (const enrolment of enrolments(world).where('byOrganization', input.organizationId)) {
    const { confidence, isMatch } = compareFaceSignatures(input.signature, fromStored(enrolment.signature));
    if (isMatch && (best === undefined || confidence > best.confidence)) best = { enrolment, confidence };
  }
  const nowIso = world.clock.iso();
  let face: SessionFace;
  if (best !== undefined) {
    face = {
      id: sessionFaceKey(input.organizationId, input.sessionId),
      organizationId: input.organizationId,
      sessionId: input.sessionId,
      faceId: best.enrolment.id,
      duplicate: true,
      similarity: best.confidence,
      registeredAt: nowIso,
    };
  } else {
    const faceId = world.uuid();
    enrolments(world).put({
      id: faceId,
      organizationId: input.organizationId,
      sessionId: input.sessionId,
      signature: toStored(input.signature),
      source: input.source,
      enrolledAt: nowIso,
    });
    face = {
      id: sessionFaceKey(input.organizationId, input.sessionId),
      organizationId: input.organizationId,
      sessionId: input.sessionId,
      faceId,
      duplicate: false,
      registeredAt: nowIso,
    };
  }
  sessionFaces(world).put(face);
  return { ...present(face, best?.enrolment), isNew: true };
}

/** The session's face (own or matched), or undefined when it has none or its match was purged. */
export function findSessionFace(world: World, organizationId: string, sessionId: string): RegisteredFace | undefined {
  const face = sessionFaces(world).get(sessionFaceKey(organizationId, sessionId));
  if (face === undefined) return undefined;
  const enrolment = enrolments(world).get(face.faceId);
  return enrolment === undefined ? undefined : present(face, enrolment);
}

/**
 * Flags the face the session resolves to as self-excluded (again: the newest reason and time win).
 * Undefined when the session has no enrolled face.
 */
export function excludeSessionFace(
  world: World,
  organizationId: string,
  sessionId: string,
  exclusion: { reason: string | null; linkedDocumentNumber?: string },
): RegisteredFace | undefined {
  const face = findSessionFace(world, organizationId, sessionId);
  if (face === undefined) return undefined;
  const enrolment = enrolments(world).get(face.faceId) as FaceEnrolment;
  const linked = exclusion.linkedDocumentNumber ?? enrolment.exclusion?.linkedDocumentNumber;
  const flagged: FaceExclusion = { reason: exclusion.reason, excludedAt: world.clock.iso(), ...(linked === undefined ? {} : { linkedDocumentNumber: linked }) };
  enrolments(world).put({ ...enrolment, exclusion: flagged });
  return { ...face, exclusion: flagged };
}

/** Clears the exclusion of the face the session resolves to; the face before clearing, or undefined when nothing was excluded. */
export function clearSessionFaceExclusion(world: World, organizationId: string, sessionId: string): RegisteredFace | undefined {
  const face = findSessionFace(world, organizationId, sessionId);
  if (face?.exclusion === undefined) return undefined;
  const { exclusion: _cleared, ...enrolment } = enrolments(world).get(face.faceId) as FaceEnrolment;
  enrolments(world).put(enrolment);
  return face;
}

/** Clears every face exclusion linked to an identity entry; how many were cleared. */
export function clearFaceExclusionsLinkedTo(world: World, organizationId: string, documentNumber: string): number {
  let cleared = 0;
  for (const enrolment of enrolments(world).where('byOrganization', organizationId)) {
    if (enrolment.exclusion?.linkedDocumentNumber !== documentNumber) continue;
    const { exclusion: _cleared, ...rest } = enrolment;
    enrolments(world).put(rest);
    cleared += 1;
  }
  return cleared;
}

export interface ExcludedFace {
  faceId: string;
  /** The session that enrolled the face. */
  sessionId: string;
  exclusion: FaceExclusion;
}

/** The organization's excluded faces, in enrolment order. */
export function excludedFaces(world: World, organizationId: string): ExcludedFace[] {
  return enrolments(world)
    .where('byOrganization', organizationId)
    .flatMap((e) => (e.exclusion === undefined ? [] : [{ faceId: e.id, sessionId: e.sessionId, exclusion: e.exclusion }]));
}

/**
 * Deletes the face the session enrolled itself (and with it its exclusion). A duplicate, an unknown
 * session or a second purge delete nothing. Returns the deleted face id, or null.
 */
export function purgeSessionFace(world: World, organizationId: string, sessionId: string): string | null {
  const key = sessionFaceKey(organizationId, sessionId);
  const face = sessionFaces(world).get(key);
  if (face === undefined || face.duplicate) return null;
  sessionFaces(world).delete(key);
  return enrolments(world).delete(face.faceId) ? face.faceId : null;
}

/** Registers the face of an analysed selfie; undefined when the picture has no face (nothing to enrol). */
export function registerAnalysedFace(world: World, input: Omit<RegisterFaceInput, 'signature'> & { analysis: AnalysedImage }): Registration | undefined {
  if (input.analysis.face === null) return undefined;
  const { analysis, ...rest } = input;
  return registerFace(world, { ...rest, signature: analysis.signature });
}

/**
 * Offers a session's analysed selfie (named `label` in the explanation, e.g. selfie_front) to the registry
 * and says what happened, for X-Sandbox-Explain: enrolled, duplicate of another session, or no face.
 * Undefined when the session had already been registered (its first outcome stands, nothing new to say).
 */
export function enrolSessionSelfie(world: World, input: Omit<RegisterFaceInput, 'signature'> & { analysis: AnalysedImage; label: string }): string | undefined {
  const { label, ...offer } = input;
  const registration = registerAnalysedFace(world, offer);
  if (registration === undefined) return `${label} has no face (${input.analysis.summary}): nothing enrolled`;
  if (!registration.isNew) return undefined;
  return registration.duplicate
    ? `${label} matches the face of session ${registration.enrolledSessionId} (similarity ${registration.similarity}): duplicate`
    : `${label} enrolled as face ${registration.faceId}`;
}
