import type { SandboxModule } from '../platform/sandbox-module.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { reVerificationsRouter } from './re-verifications.router.ts';
import { RE_VERIFICATION_ROUTES } from './re-verifications.routes.ts';
import { RE_VERIFICATION_MAGIC_FINGERPRINTS } from './re-verifications.service.ts';

/** Re-verifications (real client, not in the spec): create, liveness start, upload URL, complete. */
export const reVerificationsModule: SandboxModule = {
  name: 're-verifications',
  router: () => reVerificationsRouter,
  capabilities: [
    {
      catalog: {
        clientOperations: clientOperationEntries(RE_VERIFICATION_ROUTES),
        magicValues: RE_VERIFICATION_MAGIC_FINGERPRINTS.map(({ input, outcome, description }) => ({
          endpoint: 'POST /v1/re-verifications',
          input: `device_fingerprint ${input}`,
          outcome,
          description,
          trigger: { operation: 'POST /v1/re-verifications', body: { device_fingerprint: input } },
        })),
      },
    },
    // The uploaded liveness frames.
    { decodesImages: ['completeReVerificationLiveness'] },
  ],
};
