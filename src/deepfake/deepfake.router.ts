import { explain, fundsPolicyOf, noteOutcome, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { valueFact } from '../platform/coverage/sources.ts';
import { DEEPFAKE_VERDICT_COVERAGE, TRUST_VERDICT_COVERAGE } from './deepfake-coverage.ts';
import { newRouter } from '../platform/http/routing.ts';
import { analyzeRoute, createUploadUrlsRoute, getChallengeRoute } from './deepfake.routes.ts';
import { analyzeScan, createDeepfakeUploadUrls, readChallenge } from './deepfake.service.ts';

export const deepfakeRouter = newRouter()
  .openapi(getChallengeRoute, (c) => {
    const { body, explanation } = readChallenge(c.get('world'), principalOf(c).organization.id, c.req.valid('param').sessionId);
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(createUploadUrlsRoute, (c) => {
    const platform = c.get('platform');
    const { body, explanation } = createDeepfakeUploadUrls(
      c.get('world'),
      platform.uploads,
      principalOf(c).organization.id,
      c.req.valid('json'),
      publicUrlsOf(c).base,
    );
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(analyzeRoute, async (c) => {
    const { body, explanations } = await analyzeScan(
      c.get('world'),
      c.get('platform').uploads,
      principalOf(c).organization,
      c.req.valid('json'),
      fundsPolicyOf(c),
    );
    for (const explanation of explanations) explain(c, explanation);
    noteOutcome(c, valueFact(DEEPFAKE_VERDICT_COVERAGE, body.verdict));
    noteOutcome(c, valueFact(TRUST_VERDICT_COVERAGE, body.trustVerdict));
    return c.json(body, 200);
  });
