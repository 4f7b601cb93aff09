/**
 * How an image arrives: a multipart file part (bytes; the Content-Type label is ignored), or in JSON a
 * bare string that is base64, base64url or a storage file key. The spec decides strings by inspection,
 * in this order: valid base64 → base64; else valid base64url → base64url; else a storage key.
 *
 * Rules of `classifyImageString` (the spec is silent on the details; these are the choices):
 * - Leading/trailing whitespace is trimmed. Inside the string, ASCII whitespace (space, tab, CR, LF) is
 *   ignored for the base64 tests, so MIME-wrapped base64 (76-character lines) is accepted.
 * - A `data:<anything>;base64,` prefix is stripped and the payload classified (the declared media type
 *   is ignored, like every label: the format comes from the bytes).
 * - base64 = characters A-Z a-z 0-9 + / with optional `=` padding; base64url = A-Z a-z 0-9 - _ with
 *   optional padding. Padding is optional, but when present it must complete a 4-character group
 *   (at most two `=`, total length a multiple of 4). A length of 4n+1 characters is never valid.
 * - A string using only A-Z a-z 0-9 is valid in both alphabets and is base64 (spec order). The decoded
 *   bytes are the same either way, so nothing depends on that choice.
 * - A string that mixes the alphabets (`+` or `/` together with `-` or `_`), or holds any other
 *   character (`.`, `:`, `%`, …) is neither, so it is a storage key.
 *
 * Consequence for storage keys: a key is only treated as a key when it is NOT valid base64/base64url,
 * so keys the sandbox issues must contain a character outside both alphabets (for example `.` or `:`):
 * `fk_face_001` (valid base64url) would be decoded as base64url bytes. `isUnambiguousStorageKey` checks.
 */
import { IMAGE_LIMITS } from './image-checks.ts';
import { ImageInputError, storageKeyUnreadable } from './image-input-error.ts';

export type ImageStringKind = 'base64' | 'base64url' | 'storageKey';

export interface ImageStringClassification {
  kind: ImageStringKind;
  /** base64/base64url: the payload without whitespace or data-URL prefix. storageKey: the trimmed string. */
  payload: string;
  /** True when a `data:…;base64,` prefix was removed. */
  dataUrl: boolean;
  /** Bytes the payload decodes to (0 for storage keys). */
  decodedLength: number;
  /** Why, in words (for X-Sandbox-Explain). */
  reason: string;
  /** The decoded bytes, when classifying a long base64 string decoded it already. */
  bytes?: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9\-_]*={0,2}$/;
const DATA_URL_PREFIX = /^data:[^,]{0,200};base64,/i;
const INNER_WHITESPACE = /[ \t\r\n]/g;

/**
 * The bytes of a canonical base64 string (one that a decode and re-encode give back unchanged: the encoder
 * writes nothing else), or null. For a picture this answers BASE64.test(payload) in a fraction of the
 * pattern's time, and the bytes it decoded are the image's: the string is decoded once. Any other string
 * is left to the pattern.
 */
const ROUND_TRIP_MIN_LENGTH = 4096;
function canonicalBase64Bytes(payload: string): Buffer | null {
  if (payload.length < ROUND_TRIP_MIN_LENGTH) return null;
  const bytes = Buffer.from(payload, 'base64');
  return bytes.toString('base64') === payload ? bytes : null;
}

function validLength(payload: string): boolean {
  if (payload.length === 0) return false;
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  if (padding > 0) return payload.length % 4 === 0 && payload.length > padding;
  return payload.length % 4 !== 1;
}

function decodedLengthOf(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.floor(((payload.length - padding) * 3) / 4);
}

/** Decides what an image string is, exactly in the spec's order. Pure and total: never throws. */
export function classifyImageString(value: string): ImageStringClassification {
  const trimmed = value.trim();
  const dataUrl = DATA_URL_PREFIX.test(trimmed);
  const body = dataUrl ? trimmed.replace(DATA_URL_PREFIX, '') : trimmed;
  const payload = body.replace(INNER_WHITESPACE, '');
  const decoded = canonicalBase64Bytes(payload);
  if ((decoded || BASE64.test(payload)) && validLength(payload)) {
    const onlyAlnum = /^[A-Za-z0-9]*=*$/.test(payload);
    return {
      ...(decoded ? { bytes: decoded } : {}),
      kind: 'base64',
      payload,
      dataUrl,
      decodedLength: decodedLengthOf(payload),
      reason: onlyAlnum
        ? 'only letters and digits: valid base64 and base64url, base64 wins (spec order; same bytes either way)'
        : 'valid base64 (A-Z a-z 0-9 + /)',
    };
  }
  if (BASE64URL.test(payload) && validLength(payload)) {
    return { kind: 'base64url', payload, dataUrl, decodedLength: decodedLengthOf(payload), reason: 'valid base64url (A-Z a-z 0-9 - _)' };
  }
  const why =
    /[+/]/.test(payload) && /[-_]/.test(payload)
      ? 'mixes base64 (+ /) and base64url (- _) characters'
      : payload.length > 0 && /^[A-Za-z0-9+/\-_=]*$/.test(payload)
        ? 'base64 characters but an impossible length or misplaced padding'
        : 'contains characters outside both base64 alphabets';
  return { kind: 'storageKey', payload: trimmed, dataUrl: false, decodedLength: 0, reason: `not base64 or base64url (${why}): storage key` };
}

/** True when `key` would be read as a storage key (not as base64/base64url) by `classifyImageString`. */
export function isUnambiguousStorageKey(key: string): boolean {
  return key.trim() === key && key.length > 0 && classifyImageString(key).kind === 'storageKey';
}

/** A storage lookup's refusal with the reason to show the caller (e.g. "nothing was uploaded yet"). */
export interface StorageKeyRefusal {
  refused: string;
}

/**
 * The organization-scoped lookup of a storage key (the route's upload store): the bytes, or null / a
 * refusal with its reason when the key is not readable. A lookup that throws counts as not readable
 * (its message is not shown: it may be internal).
 */
export type StorageKeyReader = (key: string) => Promise<Uint8Array | null | StorageKeyRefusal> | Uint8Array | null | StorageKeyRefusal;

export interface ResolvedImageInput {
  bytes: Uint8Array;
  via: 'bytes' | ImageStringKind;
  /** The key, when `via` is storageKey. */
  storageKey?: string;
  /** One ASCII line: how the input was read. */
  explanation: string;
}

export interface ResolveImageOptions {
  readStorageKey: StorageKeyReader;
  maxBytes?: number;
}

const HOW_TO_SEND = [
  'Send the image as a multipart/form-data file part, or in JSON as a base64 or base64url string, or as a fileKey from POST /v1/upload/presign.',
];

function tooLarge(field: string, bytes: number, maxBytes: number): ImageInputError {
  return new ImageInputError(
    'too_large',
    field,
    `${field}: image is ${(bytes / 1024 / 1024).toFixed(1)} MB (${bytes} bytes); the limit is ${(maxBytes / 1024 / 1024).toFixed(1)} MB (${maxBytes} bytes) per image`,
    ['Resize or recompress the image (a face or document photo needs no more than about 2000 px on its longer side).'],
  );
}

function isBlobLike(value: unknown): value is { size: number; arrayBuffer(): Promise<ArrayBuffer> } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { arrayBuffer?: unknown }).arrayBuffer === 'function' &&
    typeof (value as { size?: unknown }).size === 'number'
  );
}

/**
 * Turns a request field (multipart File/Blob or bytes, or a JSON string) into image bytes. Does not
 * decode pixels. Throws only ImageInputError: missing/empty field, wrong type, too large, a data URL
 * with a broken payload, or a storage key the organization cannot read (403).
 */
export async function resolveImageInput(field: string, value: unknown, options: ResolveImageOptions): Promise<ResolvedImageInput> {
  const maxBytes = options.maxBytes ?? IMAGE_LIMITS.maxBytes;
  if (value === undefined || value === null) {
    throw new ImageInputError('missing_field', field, `${field} is required`, HOW_TO_SEND);
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const bytes = value instanceof Uint8Array ? value : new Uint8Array(value);
    if (bytes.length > maxBytes) throw tooLarge(field, bytes.length, maxBytes);
    return { bytes, via: 'bytes', explanation: `${field}: ${bytes.length} bytes from a file part` };
  }
  if (isBlobLike(value)) {
    if (value.size > maxBytes) throw tooLarge(field, value.size, maxBytes);
    const bytes = new Uint8Array(await value.arrayBuffer());
    return { bytes, via: 'bytes', explanation: `${field}: ${bytes.length} bytes from a file part` };
  }
  if (typeof value !== 'string') {
    const got = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
    throw new ImageInputError('invalid_type', field, `${field} must be a file or a string (base64, base64url or storage file key); got ${got}`, HOW_TO_SEND);
  }
  if (value.trim().length === 0) {
    throw new ImageInputError('missing_field', field, `${field} is empty`, HOW_TO_SEND);
  }
  const classified = classifyImageString(value);
  if (classified.kind === 'storageKey') {
    if (/^data:/i.test(classified.payload)) {
      throw new ImageInputError('invalid_encoding', field, `${field}: data URL payload is not valid base64`, [
        'A data URL must look like data:image/jpeg;base64,<base64 bytes>.',
        ...HOW_TO_SEND,
      ]);
    }
    let found: Uint8Array | null | StorageKeyRefusal;
    try {
      found = await options.readStorageKey(classified.payload);
    } catch {
      found = null;
    }
    if (!(found instanceof Uint8Array)) throw storageKeyUnreadable(field, classified.payload, found?.refused);
    const bytes = found;
    if (bytes.length > maxBytes) throw tooLarge(field, bytes.length, maxBytes);
    return { bytes, via: 'storageKey', storageKey: classified.payload, explanation: `${field}: storage key (${classified.reason})` };
  }
  if (classified.decodedLength > maxBytes) throw tooLarge(field, classified.decodedLength, maxBytes);
  const bytes = classified.bytes ?? Buffer.from(classified.payload, classified.kind === 'base64url' ? 'base64url' : 'base64');
  return {
    bytes,
    via: classified.kind,
    explanation: `${field}: ${bytes.length} bytes from ${classified.kind}${classified.dataUrl ? ' (data URL)' : ''} (${classified.reason})`,
  };
}
