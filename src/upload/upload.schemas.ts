import { z } from '@hono/zod-openapi';
import { IMAGE_FORMATS } from '../images/image-format.ts';
import { MAX_UPLOAD_BYTES } from '../platform/uploads/uploads.ts';

type ImageMime = (typeof IMAGE_FORMATS)[number]['mime'];
/** The formats image operations decode (one list: src/images/image-format.ts); the presign call accepts these. */
const IMAGE_CONTENT_TYPES = IMAGE_FORMATS.map((entry) => entry.mime) as [ImageMime, ...ImageMime[]];

export const PresignBodySchema = z
  .object({
    files: z
      .array(
        z.object({
          contentType: z.enum(IMAGE_CONTENT_TYPES, { message: `must be one of ${IMAGE_CONTENT_TYPES.join(', ')}` }),
          byteLength: z.number().int().positive().max(MAX_UPLOAD_BYTES, `must be at most ${MAX_UPLOAD_BYTES} bytes (15 MB)`),
        }),
      )
      .min(1)
      .max(10),
  })
  .openapi('PresignRequest');

export const PresignResponseSchema = z
  .object({
    uploads: z.array(
      z.object({
        uploadUrl: z.string().url().openapi({ description: 'PUT the bytes here with the declared Content-Type; no API key. Expires after 15 minutes.' }),
        fileKey: z.string().openapi({ example: 'uploads/0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e' }),
      }),
    ),
  })
  .openapi('PresignResponse');

export const UploadParamsSchema = z.object({
  id: z
    .string()
    .uuid('must be the upload id of a presigned URL')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const UploadQuerySchema = z.object({
  namespace: z.string().optional(),
  expires: z.string().optional(),
  signature: z.string().optional(),
});

export const UploadReceiptSchema = z.object({ fileKey: z.string(), byteLength: z.number().int(), contentType: z.string() }).openapi('UploadReceipt');
