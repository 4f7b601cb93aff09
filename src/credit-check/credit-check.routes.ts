import { apiRoute, extraErrors } from '../platform/http/routing.ts';
import { CreditCheckBodySchema, CreditCheckCreateResponseSchema, type CreditCheckKind } from './credit-check.schemas.ts';

function creditCheckRoute<K extends CreditCheckKind>(kind: K) {
  return apiRoute({
    method: 'post',
    path: `/v1/credit-check/${kind}` as `/v1/credit-check/${K}`,
    operationId: kind === 'hard' ? 'createHardCreditCheck' : 'createSoftCreditCheck',
    tags: ['Credit checks'],
    summary: kind === 'hard' ? 'Create a hard credit check session (full report with AI insights)' : 'Create a soft credit check session (score only)',
    description:
      `Creates a session of type credit-check-${kind} (listed by GET /v1/sessions) and records e-mail and SMS invitations (send_*_invite default true). ` +
      'uat_type picks the bureau persona (see the catalog); missing or unrecognized: one chosen from the session id. ' +
      'The report lands in the session’s analysis_data.credit_report when the applicant finishes. Billable: 402 when the token balance is empty.',
    request: { body: { required: true, content: { 'application/json': { schema: CreditCheckBodySchema } } } },
    responses: {
      200: { description: 'The credit check session', content: { 'application/json': { schema: CreditCheckCreateResponseSchema } } },
      402: extraErrors[402],
    },
  });
}

export const createHardCreditCheckRoute = creditCheckRoute('hard');
export const createSoftCreditCheckRoute = creditCheckRoute('soft');
