/** POST /v1/identity/verify: document scan, face detect and face compare on two pictures, aggregated. */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { IMAGE_OPERATIONS } from '../images/image-catalog.ts';
import { identityRouter } from './identity.router.ts';

export const identityModule: SandboxModule = {
  name: 'identity',
  router: () => identityRouter,
  capabilities: [IMAGE_OPERATIONS, { decodesImages: ['verifyIdentity'] }],
};
