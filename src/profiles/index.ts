import type { SandboxModule } from '../platform/sandbox-module.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { profilesRouter } from './profiles.router.ts';
import { PROFILE_ROUTES } from './profiles.routes.ts';

/** Profiles (real client, not in the spec): logo upload URL, create, list, retrieve. */
export const profilesModule: SandboxModule = {
  name: 'profiles',
  router: () => profilesRouter,
  capabilities: [{ catalog: { clientOperations: clientOperationEntries(PROFILE_ROUTES) } }],
};
