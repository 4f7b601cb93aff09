/**
 * The hosted session's hook into the face registry: once the applicant has finished (the session is
 * SUBMITTED, VERIFIED or REJECTED with its analysis recorded), the selfie uploaded to the session's
 * `selfie_front` slot (POST /v1/sessions/{id}/uploads, then the PUT) is offered to the registry, so a
 * later session with the same face is a duplicate of this one and self-exclusion sees it.
 *
 * LIMITATIONS:
 * - The hosted page captures no photo: a session finished without a selfie_front upload enrols nothing.
 * - An undecodable or faceless selfie enrols nothing (said in X-Sandbox-Explain); the outcome stands.
 */
import type { World } from '../platform/namespaces/world.ts';
import { uploadsOwnedBy, type UploadStore } from '../platform/uploads/uploads.ts';
import type { SessionStatus } from './sessions.schemas.ts';
import { sessionUploadOwner, type StoredSession } from './sessions.store.ts';

const FINISHED_WITH_SELFIE: readonly SessionStatus[] = ['SUBMITTED', 'VERIFIED', 'REJECTED'];

/** Enrols the finished session's uploaded selfie; the explanation, or undefined when there is nothing to do. */
export async function enrolFinishedSessionFace(world: World, uploads: UploadStore, stored: StoredSession): Promise<string | undefined> {
  if (!FINISHED_WITH_SELFIE.includes(stored.record.status)) return undefined;
  const selfie = uploadsOwnedBy(world, sessionUploadOwner(stored.id))
    .filter((upload) => upload.slot === 'selfie_front' && upload.uploadedAtMs !== undefined)
    .at(-1);
  if (selfie === undefined) return undefined;
  // The image codecs and the registry are evaluated for the first selfie, not with the sessions area.
  const [{ loadImage }, { enrolSessionSelfie }] = await Promise.all([import('../images/image-loading.ts'), import('../face-registry/face-registry.ts')]);
  let analysis;
  try {
    const { bytes } = await uploads.read(world, stored.record.organization_id, selfie.fileKey);
    analysis = (await loadImage('selfie_front', bytes, { readStorageKey: () => null })).analysis;
  } catch (error) {
    return `selfie_front not enrolled: ${(error as Error).message}`;
  }
  return enrolSessionSelfie(world, {
    organizationId: stored.record.organization_id,
    sessionId: stored.id,
    source: 'hosted-session',
    analysis,
    label: 'selfie_front',
  });
}
