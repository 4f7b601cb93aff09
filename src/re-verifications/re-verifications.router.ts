import { explain, fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { completeLivenessRoute, createReVerificationRoute, livenessUploadUrlRoute, startLivenessRoute } from './re-verifications.routes.ts';
import { completeLiveness, createLivenessUploadUrl, createReVerification, startLiveness } from './re-verifications.service.ts';

export const reVerificationsRouter = newRouter()
  .openapi(createReVerificationRoute, (c) => {
    const { body, explanation } = createReVerification(c.get('world'), principalOf(c).organization.id, c.req.valid('json'));
    explain(c, explanation);
    return c.json(body, 201);
  })
  .openapi(startLivenessRoute, (c) => {
    const { body, explanation } = startLiveness(c.get('world'), principalOf(c).organization, c.req.valid('param').id);
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(livenessUploadUrlRoute, (c) => {
    const platform = c.get('platform');
    const { body, explanation } = createLivenessUploadUrl(
      c.get('world'),
      platform.uploads,
      principalOf(c).organization.id,
      c.req.valid('param').id,
      c.req.valid('json'),
      publicUrlsOf(c).base,
    );
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(completeLivenessRoute, async (c) => {
    const { body, explanation } = await completeLiveness(
      c.get('world'),
      c.get('platform').uploads,
      principalOf(c).organization,
      c.req.valid('param').id,
      fundsPolicyOf(c),
    );
    explain(c, explanation);
    return c.json(body, 200);
  });
