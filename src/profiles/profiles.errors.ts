/** The profiles area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface ProfileFacts {
  id: string;
}

export const PROFILE_ERROR_CODES = defineErrorCodes({
  LOGO_NOT_AN_IMAGE: {
    status: 400,
    message: ({ format }: { format: string | null }) =>
      `logoUrl must hold a JPEG, PNG, WebP or GIF image; the uploaded bytes are ${format === null ? 'not an image' : `a ${format.toUpperCase()}`}. Upload the logo again in one of those formats.`,
  },
  PROFILE_NOT_FOUND: {
    status: 404,
    message: ({ id }: ProfileFacts) =>
      `Profile ${id} was not found: use the id returned by POST /v1/profiles (profiles live in the namespace that created them).`,
  },
  PROFILE_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ id }: ProfileFacts) => `Profile ${id} belongs to another organization: use an API key of the organization that created it.`,
  },
});
