/**
 * Credit checks: POST /v1/credit-check/hard and /soft create sessions of type credit-check-hard / -soft in
 * the sessions area; the 30 uat_type personas are registered in the catalog from UAT_TYPE_TABLE.
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { creditCheckRouter } from './credit-check.router.ts';
import { UAT_TYPE_TABLE } from './uat-types.ts';

export const creditCheckModule: SandboxModule = {
  name: 'credit-check',
  router: () => creditCheckRouter,
  capabilities: [
    {
      catalog: {
        magicValues: UAT_TYPE_TABLE.map((entry) => ({
          endpoint: 'POST /v1/credit-check/hard|soft',
          input: `uat_type=${entry.input}`,
          outcome: `${entry.group}: ${entry.outcome} (score ${entry.scoreRange[0]}-${entry.scoreRange[1]})`,
          description: entry.description,
          trigger: { operation: 'POST /v1/credit-check/soft', body: { uat: true, uat_type: entry.input } },
        })),
      },
    },
  ],
};
