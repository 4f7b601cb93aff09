import { fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { analyzeRoute, createUploadUrlsRoute, getChallengeRoute } from './deepfake.routes.ts';
import { analyzeScan, createDeepfakeUploadUrls, readChallenge } from './deepfake.service.ts';

export const deepfakeRouter = newRouter()
  .openapi(getChallengeRoute, (c) => {
    return c.json(explained(c, readChallenge(c.get('world'), principalOf(c).organization.id, c.req.valid('param').sessionId)), 200);
  })
  .openapi(createUploadUrlsRoute, (c) => {
    const platform = c.get('platform');
    return c.json(
      explained(c, createDeepfakeUploadUrls(c.get('world'), platform.uploads, principalOf(c).organization.id, c.req.valid('json'), publicUrlsOf(c).base)),
      200,
    );
  })
  .openapi(analyzeRoute, async (c) =>
    c.json(explained(c, await analyzeScan(c.get('world'), c.get('platform').uploads, principalOf(c).organization, c.req.valid('json'), fundsPolicyOf(c))), 200),
  );
