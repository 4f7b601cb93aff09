import { parseDocumentType } from '../document/api.ts';
import { newRouter } from '../platform/http/routing.ts';
import { IMAGE_OPERATION_PRICES, imageValidationHook, runImageOperation, validatedJson } from '../images/image-request.ts';
import { identityVerifyRoute } from './identity.routes.ts';
import { IdentityVerifyRequestSchema } from './identity.schemas.ts';
import { verifyIdentity } from './identity.service.ts';

export const identityRouter = newRouter().openapi(
  identityVerifyRoute,
  async (c) => {
    const response = await runImageOperation(c, validatedJson(c, IdentityVerifyRequestSchema), {
      fields: ['documentImage', 'faceImage', 'documentType'],
      images: ['documentImage', 'faceImage'],
      price: IMAGE_OPERATION_PRICES.identityVerify,
      prepare: (fields) => parseDocumentType(fields.documentType),
      run: ({ documentImage, faceImage }, documentType) => verifyIdentity({ document: documentImage.analysis, face: faceImage.analysis, documentType }),
    });
    return c.json(response, 200);
  },
  imageValidationHook,
);
