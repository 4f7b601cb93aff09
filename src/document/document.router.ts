import { newRouter } from '../platform/http/routing.ts';
import { IMAGE_OPERATION_PRICES, imageValidationHook, runImageOperation, validatedJson } from '../images/image-request.ts';
import { parseDocumentType } from './document-type.ts';
import { documentScanRoute } from './document.routes.ts';
import { DocumentScanRequestSchema } from './document.schemas.ts';
import { scanDocument } from './document.service.ts';

export const documentRouter = newRouter().openapi(
  documentScanRoute,
  async (c) => {
    const response = await runImageOperation(c, validatedJson(c, DocumentScanRequestSchema), {
      fields: ['image', 'documentType'],
      images: ['image'],
      price: IMAGE_OPERATION_PRICES.documentScan,
      prepare: (fields) => parseDocumentType(fields.documentType),
      run: ({ image }, documentType) => scanDocument(image.analysis, documentType),
    });
    return c.json(response, 200);
  },
  imageValidationHook,
);
