import { type AppContext, explain, fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { createHardCreditCheckRoute, createSoftCreditCheckRoute } from './credit-check.routes.ts';
import type { CreditCheckBody, CreditCheckKind } from './credit-check.schemas.ts';
import { createCreditCheck } from './credit-check.service.ts';

function handle(c: AppContext, kind: CreditCheckKind, body: CreditCheckBody) {
  const answer = createCreditCheck(c.get('world'), principalOf(c).organization, kind, body, { urls: publicUrlsOf(c) }, fundsPolicyOf(c));
  for (const reason of answer.explanations) explain(c, reason);
  return answer.body;
}

export const creditCheckRouter = newRouter()
  .openapi(createHardCreditCheckRoute, (c) => c.json(handle(c, 'hard', c.req.valid('json')), 200))
  .openapi(createSoftCreditCheckRoute, (c) => c.json(handle(c, 'soft', c.req.valid('json')), 200));
