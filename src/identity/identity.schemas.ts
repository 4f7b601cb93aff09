/**
 * Wire shape of POST /v1/identity/verify (200 body), per real-client-facts §6.3: every confidence and
 * threshold here is on the 0-100 scale, and there is no rawFields/mrzData in the document part.
 */
import { z } from '@hono/zod-openapi';
import { DocumentIdentityFieldsSchema, DocumentTypeSchema } from '../document/api.ts';
import { DocumentTypeFieldSchema, ImageStringSchema } from '../images/images.schemas.ts';

const percent = (description: string) => z.number().min(0).max(100).openapi({ description });

export const IdentityDocumentSchema = z
  .object({
    documentType: DocumentTypeSchema,
    ...DocumentIdentityFieldsSchema.shape,
    address: z.string().optional(),
    faceImage: z.string().optional().openapi({ description: 'Not produced by the sandbox (optional in the real client).' }),
    confidence: percent('Document scan confidence, 0-100.'),
  })
  .openapi('IdentityDocument');

export const IdentityVerifyResponseSchema = z
  .object({
    verified: z.boolean().openapi({ description: 'Document read, face found in faceImage, and the faces match.' }),
    overallConfidence: percent('0.3 x document + 0.2 x face detection + 0.5 x face match confidence.'),
    document: IdentityDocumentSchema,
    faceDetection: z.object({ faceDetected: z.boolean(), confidence: percent('Face detection confidence in faceImage, 0-100.') }),
    faceMatch: z.object({
      isMatch: z.boolean(),
      confidence: percent('Similarity of the document portrait and faceImage, 0-100.'),
      threshold: percent('Server-side match threshold.'),
    }),
  })
  .openapi('IdentityVerifyResponse');

export type IdentityVerifyResponse = z.infer<typeof IdentityVerifyResponseSchema>;

/** JSON body of POST /v1/identity/verify (real-client-facts §6.3: two fileKeys from one presign call). */
export const IdentityVerifyRequestSchema = z
  .object({
    documentImage: ImageStringSchema,
    faceImage: ImageStringSchema,
    documentType: DocumentTypeFieldSchema,
  })
  .openapi('IdentityVerifyRequest');
