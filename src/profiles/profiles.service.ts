/**
 * Profiles (real client: profiles.createLogoUploadUrl, create, list, retrieve; not in the API spec): a
 * profile is a name and an optional logo, stored per organization. The logo goes through the shared upload
 * store: POST /v1/profiles/logo-upload-url presigns it, the caller PUTs it, and POST /v1/profiles takes the
 * fileKey as logoUrl once its bytes are there and are one of the declared image types.
 *
 * LIMITATIONS:
 * - Profiles cannot be changed or deleted (the client has no such calls); hosted pages do not use them.
 * - The list is not paged (the client sends no cursor); newest first.
 * - A sandbox key reads the organization's profiles like a live key (there are no synthetic profiles).
 */
import type { Explained } from '../platform/explained.ts';
import { sniffImageFormat } from '../images/image-format.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import type { World } from '../platform/namespaces/world.ts';
import { MAX_UPLOAD_BYTES, type UploadStore } from '../platform/uploads/uploads.ts';
import { LOGO_CONTENT_TYPES, type CreateProfileBody, type LogoUploadUrlBody, type Profile } from './profiles.schemas.ts';
import { PROFILE_ERROR_CODES } from './profiles.errors.ts';

export const PROFILE_LOGO_OWNER = 'profile-logo';

export const profiles = (world: World) => world.data.collection<Profile>('profiles').index('byOrganization', (profile) => profile.organizationId);

/** POST /v1/profiles/logo-upload-url. */
export function presignLogo(
  world: World,
  uploads: UploadStore,
  organizationId: string,
  body: LogoUploadUrlBody,
  baseUrl: string,
): Explained<{ uploadUrl: string; fileKey: string }> {
  const { uploadUrl, fileKey } = uploads.presign(
    world,
    organizationId,
    { contentType: body.contentType, byteLength: Math.min(body.byteLength, MAX_UPLOAD_BYTES), owner: PROFILE_LOGO_OWNER },
    baseUrl,
  );
  return { value: { uploadUrl, fileKey }, explanations: [`logo upload URL for ${body.contentType}, at most ${body.byteLength} bytes, valid 15 minutes`] };
}

/** The logo's bytes must have arrived and be one of the logo image types. */
async function requireLogo(world: World, uploads: UploadStore, organizationId: string, fileKey: string): Promise<string> {
  let bytes: Buffer;
  try {
    ({ bytes } = await uploads.read(world, organizationId, fileKey));
  } catch (error) {
    if (error instanceof ApiError) throw error.aboutField('logoUrl');
    throw error;
  }
  const format = sniffImageFormat(bytes);
  const mime = format === null ? undefined : `image/${format}`;
  if (mime === undefined || !(LOGO_CONTENT_TYPES as readonly string[]).includes(mime)) {
    throw codedError(PROFILE_ERROR_CODES, 'LOGO_NOT_AN_IMAGE', { format });
  }
  return mime;
}

/** POST /v1/profiles. */
export async function createProfile(world: World, uploads: UploadStore, organizationId: string, body: CreateProfileBody): Promise<Explained<Profile>> {
  const logoType = body.logoUrl === undefined ? undefined : await requireLogo(world, uploads, organizationId, body.logoUrl);
  const now = world.clock.iso();
  const profile: Profile = { id: world.uuid(), name: body.name, organizationId, logoUrl: body.logoUrl ?? null, createdAt: now, updatedAt: now };
  profiles(world).put(profile);
  return { value: profile, explanations: [`profile created${logoType ? ` with a ${logoType} logo` : ' without a logo'}`] };
}

/** GET /v1/profiles: the organization's profiles, newest first. */
export function listProfiles(world: World, organizationId: string): { profiles: Profile[] } {
  const own = profiles(world).where('byOrganization', organizationId);
  return { profiles: [...own].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)) };
}

/** GET /v1/profiles/{id}: 404 unknown, 403 another organization's. */
export function readProfile(world: World, organizationId: string, id: string): Profile {
  const profile = profiles(world).get(id);
  if (!profile) throw codedError(PROFILE_ERROR_CODES, 'PROFILE_NOT_FOUND', { id });
  if (profile.organizationId !== organizationId) throw codedError(PROFILE_ERROR_CODES, 'PROFILE_OF_ANOTHER_ORGANIZATION', { id });
  return profile;
}
