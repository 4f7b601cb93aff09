/**
 * AML monitoring: POST /v1/aml/bots/{bot_id}/monitored-users (enrolment), POST /v1/aml/transactions
 * (Save transactions, which enrols subjects on first sight), and the control plane's enrolment listing,
 * removal and quota calls under /__sandbox/organizations/{id}/aml/.
 */
import { codeSource } from '../platform/coverage/sources.ts';
import { AML_ERROR_CODES } from './aml-error-codes.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { amlRouter } from './aml.router.ts';

export const amlModule: SandboxModule = {
  name: 'aml',
  router: () => amlRouter,
  capabilities: [{ coverage: [codeSource('AML error codes', Object.values(AML_ERROR_CODES))] }],
};
