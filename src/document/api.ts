/**
 * What other areas use of document verification: the document type and its identity fields, and the scan.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { type DocumentType, type DocumentTypeInput, parseDocumentType } from './document-type.ts';
export { DocumentIdentityFieldsSchema, DocumentTypeSchema } from './document.schemas.ts';
export { scanDocument } from './document.service.ts';
