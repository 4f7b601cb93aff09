import { parseDocumentType } from '../document/document-type.ts';
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
import { identityVerifyRoute } from './identity.routes.ts';
import { IdentityVerifyRequestSchema } from './identity.schemas.ts';
import { verifyIdentity } from './identity.service.ts';

const PRICE = IMAGE_OPERATION_PRICES.identityVerify;

export const identityRouter = newRouter().openapi(
  identityVerifyRoute,
  async (c) => {
    const fields = await imageRequestFields(c, validatedJson(c, IdentityVerifyRequestSchema), ['documentImage', 'faceImage', 'documentType']);
    const documentType = imageStep(() => parseDocumentType(fields.documentType));
    requireImageFunds(c, PRICE);
    const images = await loadRequestImages(c, { documentImage: fields.documentImage, faceImage: fields.faceImage });
    const verification = verifyIdentity({ document: images.documentImage.analysis, face: images.faceImage.analysis, documentType });
    explain(c, verification.explanation);
    chargeImageOperation(c, PRICE);
    return c.json(verification.response, 200);
  },
  imageValidationHook,
);
