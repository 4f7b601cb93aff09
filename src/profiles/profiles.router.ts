import { publicUrlsOf, principalOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { createProfileRoute, getProfileRoute, listProfilesRoute, logoUploadUrlRoute } from './profiles.routes.ts';
import { createProfile, listProfiles, presignLogo, readProfile } from './profiles.service.ts';

export const profilesRouter = newRouter()
  .openapi(logoUploadUrlRoute, (c) => {
    const platform = c.get('platform');
    return c.json(explained(c, presignLogo(c.get('world'), platform.uploads, principalOf(c).organization.id, c.req.valid('json'), publicUrlsOf(c).base)), 200);
  })
  .openapi(createProfileRoute, async (c) => {
    return c.json(explained(c, await createProfile(c.get('world'), c.get('platform').uploads, principalOf(c).organization.id, c.req.valid('json'))), 200);
  })
  .openapi(listProfilesRoute, (c) => c.json(listProfiles(c.get('world'), principalOf(c).organization.id), 200))
  .openapi(getProfileRoute, (c) => c.json(readProfile(c.get('world'), principalOf(c).organization.id, c.req.valid('param').id), 200));
