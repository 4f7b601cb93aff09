import { fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { completeLivenessRoute, createReVerificationRoute, livenessUploadUrlRoute, startLivenessRoute } from './re-verifications.routes.ts';
import { completeLiveness, createLivenessUploadUrl, createReVerification, startLiveness } from './re-verifications.service.ts';

export const reVerificationsRouter = newRouter()
  .openapi(createReVerificationRoute, (c) => {
    return c.json(explained(c, createReVerification(c.get('world'), principalOf(c).organization.id, c.req.valid('json'))), 201);
  })
  .openapi(startLivenessRoute, (c) => {
    return c.json(explained(c, startLiveness(c.get('world'), principalOf(c).organization, c.req.valid('param').id)), 200);
  })
  .openapi(livenessUploadUrlRoute, (c) => {
    const platform = c.get('platform');
    return c.json(
      explained(
        c,
        createLivenessUploadUrl(
          c.get('world'),
          platform.uploads,
          principalOf(c).organization.id,
          c.req.valid('param').id,
          c.req.valid('json'),
          publicUrlsOf(c).base,
        ),
      ),
      200,
    );
  })
  .openapi(completeLivenessRoute, async (c) => {
    return c.json(
      explained(c, await completeLiveness(c.get('world'), c.get('platform').uploads, principalOf(c).organization, c.req.valid('param').id, fundsPolicyOf(c))),
      200,
    );
  });
