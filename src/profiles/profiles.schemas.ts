/**
 * Zod schemas of profiles (real client: profiles.create, list, retrieve, createLogoUploadUrl; not in the
 * API spec): a named look for hosted pages with an optional logo. camelCase on the wire; `logoUrl` is
 * always present, null without a logo (the client accepts it absent or null).
 */
import { z } from '@hono/zod-openapi';
import { MAX_UPLOAD_BYTES } from '../platform/uploads/uploads.ts';
import { identifier, mustBe } from '../platform/validation/request-fields.ts';

/** The logo types the real client may declare. */
export const LOGO_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

export const LogoUploadUrlBodySchema = z
  .object({
    contentType: z.enum(LOGO_CONTENT_TYPES, { error: mustBe('contentType', `one of ${LOGO_CONTENT_TYPES.join(', ')}`) }),
    byteLength: z
      .number({ error: mustBe('byteLength', `the logo's size in bytes, 1-${MAX_UPLOAD_BYTES}`) })
      .int({ error: mustBe('byteLength', 'a whole number of bytes') })
      .min(1, { error: mustBe('byteLength', 'at least 1') })
      .max(MAX_UPLOAD_BYTES, { error: mustBe('byteLength', `at most ${MAX_UPLOAD_BYTES} bytes (15 MiB)`) }),
  })
  .openapi('ProfileLogoUploadUrlBody');
export type LogoUploadUrlBody = z.infer<typeof LogoUploadUrlBodySchema>;

export const LogoUploadUrlResponseSchema = z
  .object({
    uploadUrl: z.string().openapi({ description: 'PUT the logo here with the declared Content-Type, no API key, within 15 minutes.' }),
    fileKey: z.string().openapi({ description: 'Send it as logoUrl to POST /v1/profiles.' }),
  })
  .openapi('ProfileLogoUploadUrl');

export const CreateProfileBodySchema = z
  .object({
    name: z
      .string({ error: mustBe('name', 'a string of 1-255 characters (the profile name shown to you)') })
      .trim()
      .min(1, { error: 'name must not be empty: send the profile name, 1-255 characters' })
      .max(255, { error: mustBe('name', 'at most 255 characters long') }),
    logoUrl: identifier('logoUrl', 'the fileKey of POST /v1/profiles/logo-upload-url, after the PUT').optional(),
  })
  .openapi('CreateProfileBody');
export type CreateProfileBody = z.infer<typeof CreateProfileBodySchema>;

export const ProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    organizationId: z.string(),
    logoUrl: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Profile');
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileListResponseSchema = z.object({ profiles: z.array(ProfileSchema) }).openapi('ProfileList');

export const ProfileIdParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(255)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
