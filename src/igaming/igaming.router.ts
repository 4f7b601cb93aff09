import { loadImage } from '../images/image-loading.ts';
import { storageKeyReader } from '../images/image-request.ts';
import { explain, principalOf, type AppContext } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { analyzeAntiCheat, analyzeInjection, ipCheckFor } from './analysis.service.ts';
import {
  antiCheatRoute,
  excludeApplicantRoute,
  excludeFaceRoute,
  excludeIdentityRoute,
  injectionRoute,
  ipJurisdictionRoute,
  listRegistryRoute,
  purgeEnrollmentRoute,
  removeFaceRoute,
  removeIdentityRoute,
  vpnDetectionRoute,
} from './igaming.routes.ts';
import {
  excludeApplicant,
  excludeFace,
  excludeIdentities,
  listRegistry,
  purgeEnrollment,
  removeFace,
  removeIdentity,
  sandboxRegistry,
} from './self-exclusion.service.ts';

const organizationIdOf = (c: AppContext): string => principalOf(c).organization.id;

export const igamingRouter = newRouter()
  .openapi(excludeApplicantRoute, (c) => c.json(explained(c, excludeApplicant(c.get('world'), principalOf(c), c.req.valid('json'))), 200))
  .openapi(excludeIdentityRoute, (c) => c.json(explained(c, excludeIdentities(c.get('world'), principalOf(c), c.req.valid('json'))), 200))
  .openapi(removeIdentityRoute, (c) => c.json(explained(c, removeIdentity(c.get('world'), organizationIdOf(c), c.req.valid('param').document_number)), 200))
  .openapi(excludeFaceRoute, (c) => c.json(explained(c, excludeFace(c.get('world'), organizationIdOf(c), c.req.valid('json'))), 200))
  .openapi(removeFaceRoute, (c) => c.json(explained(c, removeFace(c.get('world'), organizationIdOf(c), c.req.valid('param').session_id)), 200))
  .openapi(listRegistryRoute, (c) => {
    const { limit } = c.req.valid('query');
    const answer = principalOf(c).kind === 'sandbox' ? sandboxRegistry(limit) : listRegistry(c.get('world'), organizationIdOf(c), limit);
    return c.json(explained(c, answer), 200);
  })
  .openapi(purgeEnrollmentRoute, (c) => c.json(explained(c, purgeEnrollment(c.get('world'), organizationIdOf(c), c.req.valid('param').session_id)), 200))
  .openapi(injectionRoute, (c) => c.json(explained(c, analyzeInjection(c.req.valid('json'))), 200))
  .openapi(vpnDetectionRoute, (c) => c.json(explained(c, ipCheckFor(c.get('world'), organizationIdOf(c), c.req.valid('json'), 'vpn-detection')), 200))
  .openapi(ipJurisdictionRoute, (c) => c.json(explained(c, ipCheckFor(c.get('world'), organizationIdOf(c), c.req.valid('json'), 'ip-jurisdiction')), 200))
  .openapi(antiCheatRoute, async (c) => {
    const body = c.req.valid('json');
    const loadSelfie = async () => {
      const selfie = await loadImage('image', body.image, { readStorageKey: storageKeyReader(c) });
      explain(c, selfie.input.explanation);
      return selfie.analysis;
    };
    return c.json(explained(c, await analyzeAntiCheat(c.get('world'), organizationIdOf(c), body.session_id, loadSelfie)), 200);
  });
