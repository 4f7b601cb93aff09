/**
 * The upload store behind presigned PUT URLs (POST /v1/upload/presign, session uploads, workflow steps)
 * and the storage keys that image operations accept.
 *
 * A presign creates an upload record (owner organization, declared Content-Type and length, expiry on
 * the virtual clock) and a URL on the sandbox itself that carries the expiry and an HMAC signature.
 * The PUT needs no API key: the signature is the permission. It is keyed with the sandbox's private
 * secret (src/platform/secrets, never the public seed) and covers the organization, namespace, storage
 * key, method, Content-Type and expiry, so changing any of them voids it. Every area's upload URLs come
 * from `presign` here. A storage key is readable only by its organization and only once its bytes arrived.
 *
 * LIMITATIONS: URLs are path-style on the sandbox host, not a cloud bucket's host.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IMAGE_MAX_BYTES } from '../spec-limits.ts';
import { ApiError } from '../errors/api-error.ts';
import type { World } from '../namespaces/world.ts';
import type { BlobStore } from './blob-store.ts';

/** The one method a presigned URL allows. */
const UPLOAD_METHOD = 'PUT';
export const UPLOAD_URL_TTL_MS = 15 * 60_000;
/** An upload is at most what an image operation accepts. */
export const MAX_UPLOAD_BYTES = IMAGE_MAX_BYTES;
/** Storage keys always hold a "/" and a "-", so they are never valid base64 or base64url. */
const KEY_PREFIX = 'uploads/';

export interface UploadRecord {
  id: string;
  fileKey: string;
  organizationId: string;
  contentType: string;
  /** Declared length: the PUT may not be longer. */
  maxBytes: number;
  expiresAtMs: number;
  /** Set when the bytes arrived. */
  uploadedAtMs?: number;
  byteLength?: number;
  /** What the upload belongs to, e.g. `presign` or `session:<id>`; areas find their uploads by it. */
  owner: string;
  /** The owner's slot, e.g. `id_front`. */
  slot?: string;
}

/** What an upload URL's signature covers. */
interface SignedFields {
  method: string;
  organizationId: string;
  namespace: string;
  id: string;
  contentType: string;
  expiresAtMs: number;
}

export interface PresignRequest {
  contentType: string;
  byteLength: number;
  owner: string;
  slot?: string;
}

/** The collection of upload records, whose bytes live in the blob store. */
export const UPLOADS_COLLECTION = 'uploads';
const uploads = (world: World) => world.data.collection<UploadRecord>(UPLOADS_COLLECTION).index('byOwner', (upload) => upload.owner);

/** The upload records of an owner (e.g. `session:<id>`), in creation order. */
export function uploadsOwnedBy(world: World, owner: string): UploadRecord[] {
  return uploads(world).where('byOwner', owner);
}

export class UploadStore {
  constructor(
    private readonly blobs: BlobStore,
    /** The sandbox's private secret (never derived from the seed). */
    private readonly secret: string,
  ) {}

  /** Creates the record and its signed PUT URL on `baseUrl`. */
  presign(world: World, organizationId: string, request: PresignRequest, baseUrl: string): { fileKey: string; uploadUrl: string; expiresAt: string } {
    const id = world.uuid();
    const fileKey = `${KEY_PREFIX}${id}`;
    const expiresAtMs = world.clock.now() + UPLOAD_URL_TTL_MS;
    uploads(world).put({
      id,
      fileKey,
      organizationId,
      contentType: request.contentType,
      maxBytes: request.byteLength,
      expiresAtMs,
      owner: request.owner,
      ...(request.slot !== undefined ? { slot: request.slot } : {}),
    });
    const signature = this.sign({ method: UPLOAD_METHOD, organizationId, namespace: world.namespace, id, contentType: request.contentType, expiresAtMs });
    const query = new URLSearchParams({ namespace: world.namespace, expires: String(expiresAtMs), signature });
    return { fileKey, uploadUrl: `${baseUrl}/uploads/${id}?${query}`, expiresAt: world.clock.iso(expiresAtMs) };
  }

  /** Accepts the bytes of a presigned PUT, or throws the 4xx that says why not. */
  async receive(
    world: World,
    id: string,
    query: { expires?: string; signature?: string },
    contentType: string | undefined,
    bytes: Buffer,
  ): Promise<UploadRecord> {
    const record = uploads(world).get(id);
    const expiresAtMs = Number(query.expires);
    if (
      !record ||
      !query.signature ||
      !Number.isFinite(expiresAtMs) ||
      !this.verify(
        { method: UPLOAD_METHOD, organizationId: record.organizationId, namespace: world.namespace, id, contentType: record.contentType, expiresAtMs },
        query.signature,
      )
    ) {
      throw new ApiError(403, 'The upload URL signature is invalid: use the uploadUrl exactly as the presign call returned it.');
    }
    if (world.clock.now() >= record.expiresAtMs) {
      throw new ApiError(403, `The upload URL expired at ${world.clock.iso(record.expiresAtMs)}: request a new one.`);
    }
    const sentType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
    if (sentType !== record.contentType.toLowerCase()) {
      throw new ApiError(
        400,
        `Content-Type "${contentType ?? '(none)'}" does not match the presigned "${record.contentType}": send the same type you declared.`,
      );
    }
    if (bytes.length > record.maxBytes) {
      throw new ApiError(413, `The upload has ${bytes.length} bytes, more than the ${record.maxBytes} declared when presigning.`);
    }
    await this.blobs.put(world.namespace, id, bytes);
    return uploads(world).put({ ...record, uploadedAtMs: world.clock.now(), byteLength: bytes.length });
  }

  /** The bytes behind a storage key, for its organization; 403 otherwise (never 404, as the spec says). */
  async read(world: World, organizationId: string, fileKey: string): Promise<{ record: UploadRecord; bytes: Buffer }> {
    const record = fileKey.startsWith(KEY_PREFIX) ? uploads(world).get(fileKey.slice(KEY_PREFIX.length)) : undefined;
    if (!record || record.organizationId !== organizationId) {
      throw new ApiError(
        403,
        `The storage key "${fileKey.slice(0, 120)}" is not readable by this organization: use a fileKey returned by a presign call of the same organization.`,
      );
    }
    const bytes = record.uploadedAtMs === undefined ? undefined : await this.blobs.get(world.namespace, record.id);
    if (!bytes) {
      throw new ApiError(403, `Nothing was uploaded for the storage key "${fileKey}" yet: PUT the bytes to its uploadUrl first.`);
    }
    return { record, bytes };
  }

  /** Is this string shaped like one of our storage keys? */
  static looksLikeKey(value: string): boolean {
    return value.startsWith(KEY_PREFIX);
  }

  /** Removes the bytes of upload records already dropped from the store (by retention). */
  forget(namespace: string, ids: readonly string[]): Promise<void> {
    return this.blobs.delete(namespace, ids);
  }

  dropNamespace(namespace: string): Promise<void> {
    return this.blobs.dropNamespace(namespace);
  }

  private sign(fields: SignedFields): string {
    const { method, organizationId, namespace, id, contentType, expiresAtMs } = fields;
    return createHmac('sha256', this.secret)
      .update(['upload', method, organizationId, namespace, id, contentType.toLowerCase(), String(expiresAtMs)].join('\n'))
      .digest('base64url');
  }

  /** Constant time whatever the presented signature holds (its length included). */
  private verify(fields: SignedFields, signature: string): boolean {
    const expected = createHmac('sha256', this.secret).update(this.sign(fields)).digest();
    const presented = createHmac('sha256', this.secret).update(signature).digest();
    return timingSafeEqual(expected, presented);
  }
}
