import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { principalOf, type AppContext } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import {
  enrolMonitoredUserRoute,
  getTransactionQuotaRoute,
  listMonitoredUsersRoute,
  removeMonitoredUserRoute,
  saveTransactionsRoute,
  setTransactionQuotaRoute,
} from './aml.routes.ts';
import { AML_ERROR_CODES } from './aml.errors.ts';
import { enrolMonitoredUser, listMonitoredUsers, removeMonitoredUser } from './monitored-users.service.ts';
import { quotaStatus, saveTransactions, setTransactionQuota } from './transactions.service.ts';

/** The control plane names organizations by id: 404 for one the sandbox does not have. */
function organizationOf(c: AppContext, id: string): OrganizationFixture {
  const organization = c.get('platform').keyRing.organizations.get(id);
  if (organization === undefined) throw codedError(AML_ERROR_CODES, 'AML_ORGANIZATION_NOT_FOUND', { id });
  return organization;
}

export const amlRouter = newRouter()
  .openapi(enrolMonitoredUserRoute, (c) => {
    const answer = enrolMonitoredUser(c.get('world'), principalOf(c), c.req.valid('param').bot_id, c.req.valid('json').subjectUserId);
    const value = explained(c, answer);
    return answer.created ? c.json(value, 201) : c.json(value, 200);
  })
  .openapi(saveTransactionsRoute, (c) => c.json(explained(c, saveTransactions(c.get('world'), principalOf(c), c.req.valid('json'))), 200))
  .openapi(listMonitoredUsersRoute, (c) => {
    const organization = organizationOf(c, c.req.valid('param').id);
    return c.json({ monitored_users: listMonitoredUsers(c.get('world'), organization.id, c.req.valid('query')) }, 200);
  })
  .openapi(removeMonitoredUserRoute, (c) => {
    const { id, bot_id, subject_user_id } = c.req.valid('param');
    return c.json(removeMonitoredUser(c.get('world'), organizationOf(c, id).id, bot_id, subject_user_id), 200);
  })
  .openapi(getTransactionQuotaRoute, (c) => c.json(quotaStatus(c.get('world'), organizationOf(c, c.req.valid('param').id).id), 200))
  .openapi(setTransactionQuotaRoute, (c) =>
    c.json(setTransactionQuota(c.get('world'), organizationOf(c, c.req.valid('param').id).id, c.req.valid('json').quota), 200),
  );
