import { type AppContext, explain, fundsPolicyOf, jobFateFor, principalOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { adverseMediaRoute, carrierAgeGateRoute, pepSanctionsRoute, phoneOwnershipRoute, phoneTrustRoute, titleCheckRoute } from './screening.routes.ts';
import { checkAgeGate, checkOwnership, checkTrust, queueAdverseMedia, runTitleCheck, screenPepAndSanctions, type ScreeningCall } from './screening.service.ts';

function screeningCall(c: AppContext): ScreeningCall {
  return { world: c.get('world'), organization: principalOf(c).organization, funds: fundsPolicyOf(c), note: (reason) => explain(c, reason) };
}

export const screeningRouter = newRouter()
  .openapi(adverseMediaRoute, (c) => {
    const { replayed, queued } = queueAdverseMedia(screeningCall(c), c.get('platform').jobs, c.req.valid('json'), {
      idempotencyKey: c.req.valid('header')['idempotency-key'],
      fate: jobFateFor(c),
    });
    return replayed ? c.json(queued, 200) : c.json(queued, 202);
  })
  .openapi(pepSanctionsRoute, (c) => c.json(screenPepAndSanctions(screeningCall(c), c.req.valid('json')), 200))
  .openapi(titleCheckRoute, (c) => c.json(runTitleCheck(screeningCall(c), c.req.valid('json')), 200))
  .openapi(phoneOwnershipRoute, (c) => c.json(checkOwnership(screeningCall(c), c.req.valid('json')), 200))
  .openapi(phoneTrustRoute, (c) => c.json(checkTrust(screeningCall(c), c.req.valid('json')), 200))
  .openapi(carrierAgeGateRoute, (c) => c.json(checkAgeGate(screeningCall(c), c.req.valid('json')), 200));
