import { explain, principalOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import {
  chargeImageOperation,
  IMAGE_OPERATION_PRICES,
  imageRequestFields,
  imageValidationHook,
  loadRequestImages,
  requireImageFunds,
  validatedJson,
  validationHookWithHints,
} from '../images/image-request.ts';
import { createLivenessSession, LIVENESS_HINTS, readLivenessResult, syntheticLivenessResult } from './face-liveness.service.ts';
import { createLivenessSessionRoute, faceCompareRoute, faceDetectRoute, faceEstimateAgeRoute, livenessResultRoute } from './face.routes.ts';
import { FaceCompareRequestSchema, FaceImageRequestSchema } from './face.schemas.ts';
import { compareFaces, detectFace, estimateAge } from './face.service.ts';

const livenessValidationHook = validationHookWithHints((target) => (target === 'json' ? [LIVENESS_HINTS.body] : [LIVENESS_HINTS.query]));

export const faceRouter = newRouter()
  .openapi(
    faceDetectRoute,
    async (c) => {
      const fields = await imageRequestFields(c, validatedJson(c, FaceImageRequestSchema), ['image']);
      requireImageFunds(c, IMAGE_OPERATION_PRICES.faceDetect);
      const { image } = await loadRequestImages(c, { image: fields.image });
      const detection = detectFace(image.analysis);
      explain(c, detection.explanation);
      chargeImageOperation(c, IMAGE_OPERATION_PRICES.faceDetect);
      return c.json(detection.response, 200);
    },
    imageValidationHook,
  )
  .openapi(
    faceCompareRoute,
    async (c) => {
      const fields = await imageRequestFields(c, validatedJson(c, FaceCompareRequestSchema), ['source', 'target']);
      requireImageFunds(c, IMAGE_OPERATION_PRICES.faceCompare);
      const { source, target } = await loadRequestImages(c, { source: fields.source, target: fields.target });
      const comparison = compareFaces(source.analysis, target.analysis);
      explain(c, comparison.explanation);
      chargeImageOperation(c, IMAGE_OPERATION_PRICES.faceCompare);
      return c.json(comparison.response, 200);
    },
    imageValidationHook,
  )
  .openapi(
    faceEstimateAgeRoute,
    async (c) => {
      const fields = await imageRequestFields(c, validatedJson(c, FaceImageRequestSchema), ['image']);
      requireImageFunds(c, IMAGE_OPERATION_PRICES.faceEstimateAge);
      const { image } = await loadRequestImages(c, { image: fields.image });
      const estimate = estimateAge(image.analysis);
      explain(c, estimate.explanation);
      chargeImageOperation(c, IMAGE_OPERATION_PRICES.faceEstimateAge);
      return c.json(estimate.response, 200);
    },
    imageValidationHook,
  )
  .openapi(
    createLivenessSessionRoute,
    (c) => {
      const { session, explanation } = createLivenessSession(c.get('world'), principalOf(c).organization.id, c.req.valid('json'));
      explain(c, explanation);
      return c.json(session, 200);
    },
    livenessValidationHook,
  )
  .openapi(
    livenessResultRoute,
    (c) => {
      const { lid } = c.req.valid('param');
      const query = c.req.valid('query');
      const principal = principalOf(c);
      const { result, explanation } =
        principal.kind === 'sandbox' ? syntheticLivenessResult(lid, query) : readLivenessResult(c.get('world'), principal.organization.id, lid, query);
      explain(c, explanation);
      return c.json(result, 200);
    },
    livenessValidationHook,
  );
