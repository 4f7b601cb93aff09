/**
 * The bank-statement request of a session whose workflow has a BANK_STATEMENT_UPLOAD step, made through
 * the financial area's store when the session is created (evaluated with the workflow's verbs, on first
 * need: src/sessions/session-workflows.ts).
 */
import { createBankStatement, CreateFinancialBodySchema } from '../financial/api.ts';
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { CreateSessionInput } from './sessions.schemas.ts';

/** The bank-statement request of a session whose workflow asks for statements (createSession has checked that it has a phone). */
export function requestBankStatementFor(world: World, organization: OrganizationFixture, input: CreateSessionInput) {
  const body = CreateFinancialBodySchema.parse({
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone,
    ...(input.externalId === undefined ? {} : { externalId: input.externalId }),
    sendEmailInvite: false,
    sendPhoneInvite: false,
  });
  return createBankStatement(world, organization.id, body).value;
}
