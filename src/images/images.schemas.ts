/**
 * Request-side shapes shared by the image operations (document scan, face detect/compare/estimate-age,
 * identity verify): an image field is a JSON string (base64, base64url or storage fileKey) or a
 * multipart file part. The JSON bodies are zod (validated by the route); the multipart bodies are plain
 * OpenAPI schemas, documented only: file parts are read by the handler, their Content-Type label ignored.
 */
import { z } from '@hono/zod-openapi';
import { ErrorSchema, extraErrors, jsonResponse } from '../platform/http/routing.ts';
import { DOCUMENT_TYPE_INPUTS } from './document-types.ts';

export const IMAGE_STRING_DESCRIPTION =
  'The image as a base64 string, a base64url string (a data: URL prefix is allowed) or a storage fileKey from POST /v1/upload/presign. ' +
  'Decided by inspection: valid base64 is base64, else valid base64url is base64url, else a storage key (403 when the organization cannot read it).';

/** One image field of a JSON body. Emptiness and encoding are checked by the image layer (400 with hints). */
export const ImageStringSchema = z.string().openapi({ description: IMAGE_STRING_DESCRIPTION, example: 'uploads/0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e' });

export const DOCUMENT_TYPE_DESCRIPTION =
  `One of ${DOCUMENT_TYPE_INPUTS.join(', ')} (default auto). Case, "-" and spaces are forgiven and a few aliases are accepted ` +
  '(driver_license, driving_licence, id_card, identity_card, ...); anything else is a 400 before the image is decoded.';

/** documentType of a JSON body: checked by parseDocumentType (aliases, 400 with hints), so a string here. */
export const DocumentTypeFieldSchema = z
  .string()
  .optional()
  .openapi({ description: DOCUMENT_TYPE_DESCRIPTION, example: 'passport', enum: [...DOCUMENT_TYPE_INPUTS] });

/** An OpenAPI schema (not zod) for a multipart body: file parts for images, plain parts for the rest. */
export function multipartImageBody(images: readonly { name: string; description: string }[], withDocumentType = false) {
  const properties: Record<string, { type: 'string'; format?: 'binary'; description: string; enum?: string[] }> = {};
  for (const image of images) {
    properties[image.name] = {
      type: 'string',
      format: 'binary',
      description: `${image.description} A file part (JPEG, PNG, GIF, BMP, TIFF or WebP, at most 15 MB; the format is read from the bytes, the part's Content-Type is ignored) or a text part holding base64, base64url or a storage fileKey.`,
    };
  }
  if (withDocumentType) properties.documentType = { type: 'string', description: DOCUMENT_TYPE_DESCRIPTION, enum: [...DOCUMENT_TYPE_INPUTS] };
  return { type: 'object' as const, properties, required: images.map((image) => image.name) };
}

/**
 * The request body of an image operation: JSON (validated by the route) or multipart (read by the
 * handler). `required: false` only because zod-openapi would otherwise validate every multipart request
 * against the JSON schema; the image gate answers a missing body with 400 and hints.
 */
export function imageRequestBody<T extends z.ZodType>(json: T, multipart: ReturnType<typeof multipartImageBody>) {
  return {
    required: false,
    description:
      'Required. application/json (images as base64, base64url or storage fileKey strings; modes may be mixed) or multipart/form-data (file parts and/or text parts). ' +
      'Any other Content-Type is a 415; a missing body is a 400.',
    content: {
      'application/json': { schema: json },
      'multipart/form-data': { schema: multipart },
    },
  };
}

/** Error responses every image operation adds to the standard ones (400 carries hints, 403 covers storage keys). */
export const IMAGE_OPERATION_ERRORS = {
  402: extraErrors[402],
  415: jsonResponse(ErrorSchema, 'The Content-Type is neither application/json nor multipart/form-data; `hints` say how to send images.'),
} as const;
