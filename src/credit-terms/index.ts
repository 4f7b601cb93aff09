import type { SandboxModule } from '../platform/sandbox-module.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { creditTermsRouter } from './credit-terms.router.ts';
import { CREDIT_TERMS_ROUTES } from './credit-terms.routes.ts';

/** Credit terms (real client, not in the spec): create, list, retrieve, by externalId, and the business's hosted page. */
export const creditTermsModule: SandboxModule = {
  name: 'credit-terms',
  router: () => creditTermsRouter,
  capabilities: [{ catalog: { clientOperations: clientOperationEntries(CREDIT_TERMS_ROUTES) } }],
};
