/**
 * The AML area's rows of the error-code map (platform/errors/error-codes.ts). BOT_CADENCE_INVALID and
 * QUOTA_EXCEEDED are the machine-readable codes the operations answer with (`code` of the body); the
 * integration-coverage catalog lists them with how to get each (AML_CODE_TRIGGERS).
 */
import type { CodeTriggers } from '../platform/coverage/sources.ts';
import { defineErrorCodes } from '../platform/errors/error-codes.ts';
import type { QuotaStatus } from './aml.schemas.ts';

interface BotFacts {
  botId: string;
}

export const AML_ERROR_CODES = defineErrorCodes({
  BOT_NOT_FOUND: {
    status: 404,
    message: (facts: BotFacts & { known: readonly string[] }) =>
      `Bot ${facts.botId} was not found in your organization: use one of your bots${facts.known.length > 0 ? ` (${facts.known.join(', ')})` : ''}.`,
  },
  BOT_CADENCE_INVALID: {
    status: 400,
    bodyCode: 'member',
    message: (facts: BotFacts & { cadenceDays: unknown }) =>
      `Bot ${facts.botId} has an unusable check interval (${String(facts.cadenceDays)}): fix the bot's cadence (0 for real time, or a number of days) before enrolling customers.`,
  },
  SUBJECT_NOT_KNOWN: {
    status: 404,
    message: ({ subjectUserId }: { subjectUserId: string }) =>
      `Subject ${subjectUserId} is not known to your organization: send a customer id you already use (a session's external_id, or one sent with Save transactions).`,
  },
  ENROLMENT_NOT_FOUND: {
    status: 404,
    message: (facts: BotFacts & { subjectUserId: string; organizationId: string }) =>
      `No enrolment of ${facts.subjectUserId} under bot ${facts.botId} in organization ${facts.organizationId}: list them with GET /__sandbox/organizations/${facts.organizationId}/aml/monitored-users.`,
  },
  /** The control plane names organizations by id. */
  AML_ORGANIZATION_NOT_FOUND: {
    status: 404,
    message: ({ id }: { id: string }) => `Organization ${id} does not exist: GET /__sandbox/organizations lists them.`,
  },
  QUOTA_EXCEEDED: {
    status: 429,
    bodyCode: 'member',
    message: (facts: QuotaStatus & { count: number }) =>
      `Monthly transaction quota exceeded: ${facts.used} of ${facts.quota} used in ${facts.month}, ${facts.count} more sent. Send at most ${facts.remaining} until ${facts.resets_at}, or raise the quota.`,
  },
});

/** How to get each code the body names, for the coverage catalog. */
export const AML_CODE_TRIGGERS: CodeTriggers<typeof AML_ERROR_CODES> = {
  BOT_CADENCE_INVALID: {
    how: 'enrol a customer with a bot whose check interval is unusable (fixture bot_misconfigured)',
    trigger: {
      operation: 'POST /v1/aml/bots/{bot_id}/monitored-users',
      path: '/v1/aml/bots/bot_misconfigured/monitored-users',
      body: { subject_user_id: 'cust_001' },
    },
  },
  QUOTA_EXCEEDED: {
    how: 'save more transactions than the monthly quota (lower it with PUT /__sandbox/organizations/org_demo/aml/transaction-quota {"quota": 0})',
  },
};
