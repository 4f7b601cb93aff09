import { explain } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import {
  chargeImageOperation,
  IMAGE_OPERATION_PRICES,
  imageRequestFields,
  imageStep,
  imageValidationHook,
  loadRequestImages,
  requireImageFunds,
  validatedJson,
} from '../images/image-request.ts';
import { parseDocumentType } from './document-type.ts';
import { documentScanRoute } from './document.routes.ts';
import { DocumentScanRequestSchema } from './document.schemas.ts';
import { scanDocument } from './document.service.ts';

const PRICE = IMAGE_OPERATION_PRICES.documentScan;

export const documentRouter = newRouter().openapi(
  documentScanRoute,
  async (c) => {
    const fields = await imageRequestFields(c, validatedJson(c, DocumentScanRequestSchema), ['image', 'documentType']);
    const documentType = imageStep(() => parseDocumentType(fields.documentType));
    requireImageFunds(c, PRICE);
    const { image } = await loadRequestImages(c, { image: fields.image });
    const scan = scanDocument(image.analysis, documentType);
    explain(c, scan.explanation);
    chargeImageOperation(c, PRICE);
    return c.json(scan.response, 200);
  },
  imageValidationHook,
);
