/**
 * AML monitoring: POST /v1/aml/bots/{bot_id}/monitored-users (enrolment), POST /v1/aml/transactions
 * (Save transactions, which enrols subjects on first sight), and the control plane's enrolment listing,
 * removal and quota calls under /__sandbox/organizations/{id}/aml/.
 */
import { codeSource, tableCodes } from '../platform/coverage/sources.ts';
import { AML_CODE_TRIGGERS, AML_ERROR_CODES } from './aml.errors.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { amlRouter } from './aml.router.ts';

export const amlModule: SandboxModule = {
  name: 'aml',
  router: () => amlRouter,
  capabilities: [{ coverage: [codeSource('AML error codes', tableCodes(AML_ERROR_CODES, AML_CODE_TRIGGERS))] }],
};
