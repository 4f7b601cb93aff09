/**
 * Bank statements: POST /v1/financial, GET /v1/financial, GET /v1/financial/externalId/{externalId},
 * GET /v1/financial/{id}, and the applicant's hosted page under /verify/bank-statements/.
 */
import { sandboxIdTrigger } from '../platform/catalog/catalog.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { financialRouter } from './financial.router.ts';
import { FINANCIAL_TEST_IDENTIFIERS } from './financial-record.ts';
import { SANDBOX_BANKS } from './sandbox-banks.ts';

export const financialModule: SandboxModule = {
  name: 'financial',
  router: () => financialRouter,
  capabilities: [
    {
      catalog: {
        testIdentifiers: FINANCIAL_TEST_IDENTIFIERS.map(({ input, outcome, description }) => ({
          endpoint: 'GET /v1/financial/{id} (sandbox key)',
          input,
          outcome,
          description,
          trigger: sandboxIdTrigger('GET /v1/financial/{id}', input),
        })),
        magicValues: SANDBOX_BANKS.map(({ input, outcome, description }) => ({
          endpoint: 'hosted page {verify_url}/bank-statements/{id}',
          input: `bank=${input}`,
          outcome,
          description,
        })),
      },
    },
  ],
};
