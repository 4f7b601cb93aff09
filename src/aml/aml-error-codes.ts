/**
 * The machine-readable codes the AML operations answer with (`code` of the error body), one row each:
 * the services throw with these, and the integration-coverage catalog lists them with how to get each.
 */
import type { ErrorCodeRow } from '../platform/coverage/sources.ts';

export const AML_ERROR_CODES = {
  BOT_CADENCE_INVALID: {
    code: 'BOT_CADENCE_INVALID',
    status: 400,
    how: 'enrol a customer with a bot whose check interval is unusable (fixture bot_misconfigured)',
    trigger: {
      operation: 'POST /v1/aml/bots/{bot_id}/monitored-users',
      path: '/v1/aml/bots/bot_misconfigured/monitored-users',
      body: { subject_user_id: 'cust_001' },
    },
  },
  QUOTA_EXCEEDED: {
    code: 'QUOTA_EXCEEDED',
    status: 429,
    how: 'save more transactions than the monthly quota (lower it with PUT /__sandbox/organizations/org_demo/aml/transaction-quota {"quota": 0})',
  },
} as const satisfies Record<string, ErrorCodeRow>;
