/**
 * The one error the image layer throws. Every bad input (missing field, bytes that are not an image,
 * an image too large or too expensive to decode, an unknown documentType, a storage key the organization
 * cannot read) becomes an ImageInputError with a message that names the field and hints that say how to
 * fix it. Routes map `kind` to a status with `imageInputErrorStatus` and answer
 * `{ error: message, hints }`. Nothing else escapes for any input: decoder exceptions are wrapped.
 */

export const IMAGE_INPUT_ERROR_KINDS = [
  'missing_field',
  'invalid_type',
  'invalid_encoding',
  'unsupported_format',
  'too_large',
  'too_many_pixels',
  'undecodable',
  'decode_timeout',
  'invalid_document_type',
  'storage_key_unreadable',
] as const;

export type ImageInputErrorKind = (typeof IMAGE_INPUT_ERROR_KINDS)[number];

/** HTTP status for each kind: 403 only for a storage key the organization cannot read, never 404/500. */
export function imageInputErrorStatus(kind: ImageInputErrorKind): 400 | 403 {
  return kind === 'storage_key_unreadable' ? 403 : 400;
}

export class ImageInputError extends Error {
  override readonly name = 'ImageInputError';
  readonly kind: ImageInputErrorKind;
  /** The request field the error is about (`image`, `source`, `documentImage`, `documentType`, …). */
  readonly field: string;
  readonly hints: string[];

  constructor(kind: ImageInputErrorKind, field: string, message: string, hints: string[]) {
    super(message);
    this.kind = kind;
    this.field = field;
    this.hints = hints;
  }

  get status(): 400 | 403 {
    return imageInputErrorStatus(this.kind);
  }

  /** The wire body of the error: `error` (what the real client shows) plus `hints`. */
  toJSON(): { error: string; hints: string[] } {
    return { error: this.message, hints: [...this.hints] };
  }
}

export const SUPPORTED_FORMATS_HINT = 'Send a JPEG, PNG, GIF, BMP, TIFF or WebP image.';

/**
 * Error for a storage key that does not resolve for the calling organization (the route's lookup);
 * `reason`, when the store gave one, comes first in the hints.
 */
export function storageKeyUnreadable(field: string, key: string, reason?: string): ImageInputError {
  const shown = key.length > 80 ? `${key.slice(0, 77)}...` : key;
  return new ImageInputError('storage_key_unreadable', field, `${field}: storage key "${shown}" is not readable by this organization`, [
    ...(reason ? [reason] : []),
    'Use a fileKey returned by POST /v1/upload/presign for this organization, after the PUT of the bytes succeeded.',
    'Keys are scoped to the organization that created them; a key of another organization is never readable.',
    'To send the image inline instead, send its bytes as base64 or base64url, or as a multipart file part.',
  ]);
}
