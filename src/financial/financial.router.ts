import { fundsPolicyOf } from '../platform/billing/billing.ts';
import { explain, publicUrlsOf, principalOf, type AppContext } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { DEFAULT_NAMESPACE } from '../platform/namespaces/world.ts';
import { bankStatementNotFoundPage, bankStatementPage } from './bank-statement-page.view.ts';
import { createFinancialRoute, getFinancialRoute, listFinancialByExternalIdRoute, listFinancialRoute } from './financial.routes.ts';
import { BankStatementPageFormSchema } from './financial.schemas.ts';
import {
  actOnBankStatementPage,
  bankStatementJson,
  findBankStatement,
  readBankStatement,
  readBankStatementList,
  requestBankStatements,
} from './financial.store.ts';

export const financialRouter = newRouter()
  .openapi(createFinancialRoute, (c) => {
    const { body, explanation } = requestBankStatements(c.get('world'), principalOf(c).organization, c.req.valid('json'), publicUrlsOf(c), fundsPolicyOf(c));
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(listFinancialRoute, (c) => {
    const { nextToken, limit } = c.req.valid('query');
    const { body, explanation } = readBankStatementList(c.get('world'), principalOf(c), {
      ...(nextToken === undefined ? {} : { nextToken }),
      ...(limit === undefined ? {} : { limit }),
      secret: c.get('platform').signingSecret,
    });
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(listFinancialByExternalIdRoute, (c) => {
    const { externalId } = c.req.valid('param');
    const { nextToken, limit } = c.req.valid('query');
    const { body, explanation } = readBankStatementList(c.get('world'), principalOf(c), {
      externalId,
      ...(nextToken === undefined ? {} : { nextToken }),
      ...(limit === undefined ? {} : { limit }),
      secret: c.get('platform').signingSecret,
    });
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(getFinancialRoute, (c) => {
    const { body, explanation } = readBankStatement(c.get('world'), principalOf(c), c.req.valid('param').id);
    explain(c, explanation);
    return c.json(body, 200);
  });

// ---------------------------------------------------------------- the applicant's hosted page (no API key)

/** `?namespace=<ns>` for links and forms outside the default namespace. */
function namespaceQuery(c: AppContext): string {
  const namespace = c.get('world').namespace;
  return namespace === DEFAULT_NAMESPACE ? '' : `?namespace=${encodeURIComponent(namespace)}`;
}

function renderPage(c: AppContext, id: string, error?: { status: 400 | 409; message: string }) {
  const world = c.get('world');
  const stored = findBankStatement(world, id);
  if (!stored) return c.html(bankStatementNotFoundPage(id), 404);
  const { body, explanation } = bankStatementJson(world, stored);
  explain(c, explanation);
  const path = `/verify/bank-statements/${encodeURIComponent(id)}`;
  return c.html(
    bankStatementPage({
      stored,
      record: body,
      organizationName: c.get('platform').keyRing.organizations.get(stored.organizationId)?.name ?? stored.organizationId,
      formAction: `${path}/link${namespaceQuery(c)}`,
      selfPath: `${path}${namespaceQuery(c)}`,
      nowIso: world.clock.iso(),
      ...(error === undefined ? {} : { error: error.message }),
    }),
    error?.status ?? 200,
  );
}

financialRouter.get('/verify/bank-statements/:id', (c) => renderPage(c, c.req.param('id')));

// Post/redirect/get: a reload after linking never posts twice.
financialRouter.post('/verify/bank-statements/:id/link', async (c) => {
  const id = c.req.param('id');
  const form = BankStatementPageFormSchema.safeParse(await c.req.parseBody());
  if (!form.success) return renderPage(c, id, { status: 400, message: 'Choose one of the buttons on the page (action must be start, complete or upload).' });
  const result = actOnBankStatementPage(c.get('world'), id, form.data.action, form.data.bank);
  if (!result.ok) {
    if (result.status === 404) return c.html(bankStatementNotFoundPage(id), 404);
    return renderPage(c, id, { status: result.status, message: result.message });
  }
  explain(c, result.explanation);
  return c.redirect(`/verify/bank-statements/${encodeURIComponent(id)}${namespaceQuery(c)}`, 303);
});
