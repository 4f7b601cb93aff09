import { principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { IMAGE_OPERATION_PRICES, imageValidationHook, runImageOperation, validatedJson, validationHookWithHints } from '../images/image-request.ts';
import { createLivenessSession, LIVENESS_HINTS, readLivenessResult, syntheticLivenessResult } from './face-liveness.service.ts';
import { createLivenessSessionRoute, faceCompareRoute, faceDetectRoute, faceEstimateAgeRoute, livenessResultRoute } from './face.routes.ts';
import { FaceCompareRequestSchema, FaceImageRequestSchema } from './face.schemas.ts';
import { compareFaces, detectFace, estimateAge } from './face.service.ts';

const livenessValidationHook = validationHookWithHints((target) => (target === 'json' ? [LIVENESS_HINTS.body] : [LIVENESS_HINTS.query]));

export const faceRouter = newRouter()
  .openapi(
    faceDetectRoute,
    async (c) => {
      const response = await runImageOperation(c, validatedJson(c, FaceImageRequestSchema), {
        fields: ['image'],
        images: ['image'],
        price: IMAGE_OPERATION_PRICES.faceDetect,
        run: ({ image }) => detectFace(image.analysis),
      });
      return c.json(response, 200);
    },
    imageValidationHook,
  )
  .openapi(
    faceCompareRoute,
    async (c) => {
      const response = await runImageOperation(c, validatedJson(c, FaceCompareRequestSchema), {
        fields: ['source', 'target'],
        images: ['source', 'target'],
        price: IMAGE_OPERATION_PRICES.faceCompare,
        run: ({ source, target }) => compareFaces(source.analysis, target.analysis),
      });
      return c.json(response, 200);
    },
    imageValidationHook,
  )
  .openapi(
    faceEstimateAgeRoute,
    async (c) => {
      const response = await runImageOperation(c, validatedJson(c, FaceImageRequestSchema), {
        fields: ['image'],
        images: ['image'],
        price: IMAGE_OPERATION_PRICES.faceEstimateAge,
        run: ({ image }) => estimateAge(image.analysis),
      });
      return c.json(response, 200);
    },
    imageValidationHook,
  )
  .openapi(
    createLivenessSessionRoute,
    (c) => {
      return c.json(explained(c, createLivenessSession(c.get('world'), principalOf(c).organization.id, c.req.valid('json'))), 200);
    },
    livenessValidationHook,
  )
  .openapi(
    livenessResultRoute,
    (c) => {
      const { lid } = c.req.valid('param');
      const query = c.req.valid('query');
      const principal = principalOf(c);
      const answer =
        principal.kind === 'sandbox' ? syntheticLivenessResult(lid, query) : readLivenessResult(c.get('world'), principal.organization.id, lid, query);
      return c.json(explained(c, answer), 200);
    },
    livenessValidationHook,
  );
