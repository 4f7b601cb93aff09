import { sandboxIdTrigger } from '../platform/catalog/catalog.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { ageVerificationRouter } from './age-verification.router.ts';
import { AGE_VERIFICATION_ROUTES } from './age-verification.routes.ts';
import { SANDBOX_PARENT_CONNECT } from './sandbox-parent-connect.ts';

/** Age verification (real client, not in the spec): create, Parent Connect list / retrieve, boundaries, hosted pages. */
export const ageVerificationModule: SandboxModule = {
  name: 'age-verification',
  router: () => ageVerificationRouter,
  capabilities: [
    {
      catalog: {
        clientOperations: clientOperationEntries(AGE_VERIFICATION_ROUTES),
        testIdentifiers: [
          ...SANDBOX_PARENT_CONNECT.map(({ id, outcome, child }) => ({
            endpoint: 'GET /v1/age-verification/parent-connect/{id} (sandbox key)',
            input: id,
            outcome,
            trigger: sandboxIdTrigger('GET /v1/age-verification/parent-connect/{id}', id),
            description: `Listed by GET /v1/age-verification/parent-connect; its boundaries: GET /v1/age-verification/boundaries/${child}.`,
          })),
        ],
      },
    },
  ],
};
