import { type AppContext, fundsPolicyOf, jobFateFor, principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { adverseMediaRoute, carrierAgeGateRoute, pepSanctionsRoute, phoneOwnershipRoute, phoneTrustRoute, titleCheckRoute } from './screening.routes.ts';
import { checkAgeGate, checkOwnership, checkTrust, queueAdverseMedia, runTitleCheck, screenPepAndSanctions, type ScreeningCall } from './screening.service.ts';

function screeningCall(c: AppContext): ScreeningCall {
  return { world: c.get('world'), organization: principalOf(c).organization, funds: fundsPolicyOf(c) };
}

export const screeningRouter = newRouter()
  .openapi(adverseMediaRoute, (c) => {
    const { replayed, queued } = explained(
      c,
      queueAdverseMedia(screeningCall(c), c.get('platform').jobs, c.req.valid('json'), {
        idempotencyKey: c.req.valid('header')['idempotency-key'],
        fate: jobFateFor(c),
      }),
    );
    return replayed ? c.json(queued, 200) : c.json(queued, 202);
  })
  .openapi(pepSanctionsRoute, (c) => c.json(explained(c, screenPepAndSanctions(screeningCall(c), c.req.valid('json'))), 200))
  .openapi(titleCheckRoute, (c) => c.json(explained(c, runTitleCheck(screeningCall(c), c.req.valid('json'))), 200))
  .openapi(phoneOwnershipRoute, (c) => c.json(explained(c, checkOwnership(screeningCall(c), c.req.valid('json'))), 200))
  .openapi(phoneTrustRoute, (c) => c.json(explained(c, checkTrust(screeningCall(c), c.req.valid('json'))), 200))
  .openapi(carrierAgeGateRoute, (c) => c.json(explained(c, checkAgeGate(screeningCall(c), c.req.valid('json'))), 200));
