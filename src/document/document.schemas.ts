/**
 * Wire shapes of POST /v1/document/scan (request fields and the 200 body). Field rules follow the spec
 * and the real client (real-client-facts §6.3): ten required strings, optional address and mrzData,
 * rawFields string → string, confidence 0-1. Optional keys are omitted, never null.
 */
import { z } from '@hono/zod-openapi';
import { DocumentTypeFieldSchema, ImageStringSchema } from '../images/images.schemas.ts';
import { DOCUMENT_TYPES } from './document-type.ts';

export const DocumentTypeSchema = z.enum(DOCUMENT_TYPES).openapi('DocumentType', {
  description: 'Normalised document type.',
  example: 'passport',
});

/** The ten strings every reading has (empty strings when the picture is unreadable). */
export const DocumentIdentityFieldsSchema = z.object({
  fullName: z.string().openapi({ example: 'EMILY ROSE CARTER' }),
  firstName: z.string().openapi({ example: 'EMILY' }),
  lastName: z.string().openapi({ example: 'CARTER' }),
  dateOfBirth: z.string().openapi({ description: 'YYYY-MM-DD (the printed form is in rawFields)', example: '1988-04-17' }),
  gender: z.string().openapi({ description: 'M or F, as printed', example: 'F' }),
  nationality: z.string().openapi({ description: 'ISO 3166-1 alpha-3', example: 'GBR' }),
  documentNumber: z.string().openapi({ example: '533401372' }),
  expirationDate: z.string().openapi({ description: 'YYYY-MM-DD', example: '2031-06-09' }),
  issuingCountry: z.string().openapi({ description: 'ISO 3166-1 alpha-3', example: 'GBR' }),
});

export const DocumentScanResponseSchema = z
  .object({
    documentType: DocumentTypeSchema,
    ...DocumentIdentityFieldsSchema.shape,
    address: z.string().optional().openapi({ example: '2142 HAHN NECK, ANKUNDINGFIELD, CA 94610' }),
    mrzData: z.string().optional().openapi({
      description: 'Raw MRZ lines joined with a newline: TD3 (2 x 44) for passports, TD1 (3 x 30) for national ID cards.',
    }),
    rawFields: z.record(z.string(), z.string()).openapi({ description: 'Every field read, keyed by provider field name, values as printed.' }),
    confidence: z.number().min(0).max(1).openapi({ description: 'Average confidence of the fields read (0 when nothing was read).', example: 0.93 }),
  })
  .openapi('DocumentScanResponse');

export type DocumentScanResponse = z.infer<typeof DocumentScanResponseSchema>;

/** JSON body of POST /v1/document/scan (the real client sends `{ image: fileKey, documentType }`). */
export const DocumentScanRequestSchema = z
  .object({
    image: ImageStringSchema,
    documentType: DocumentTypeFieldSchema,
  })
  .openapi('DocumentScanRequest');
