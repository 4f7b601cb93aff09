import { type AppContext, fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { hostedPageGuard } from '../platform/http/hosted-pages.ts';
import { hostedPageUrl } from '../platform/secrets/page-tokens.ts';
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
} from './financial.service.ts';

export const financialRouter = newRouter()
  .openapi(createFinancialRoute, (c) => {
    return c.json(
      explained(c, requestBankStatements(c.get('world'), principalOf(c).organization, c.req.valid('json'), publicUrlsOf(c), fundsPolicyOf(c))),
      200,
    );
  })
  .openapi(listFinancialRoute, (c) => {
    const { nextToken, limit } = c.req.valid('query');
    return c.json(
      explained(
        c,
        readBankStatementList(c.get('world'), principalOf(c), {
          ...(nextToken === undefined ? {} : { nextToken }),
          ...(limit === undefined ? {} : { limit }),
          secret: c.get('platform').signingSecret,
        }),
      ),
      200,
    );
  })
  .openapi(listFinancialByExternalIdRoute, (c) => {
    const { externalId } = c.req.valid('param');
    const { nextToken, limit } = c.req.valid('query');
    return c.json(
      explained(
        c,
        readBankStatementList(c.get('world'), principalOf(c), {
          externalId,
          ...(nextToken === undefined ? {} : { nextToken }),
          ...(limit === undefined ? {} : { limit }),
          secret: c.get('platform').signingSecret,
        }),
      ),
      200,
    );
  })
  .openapi(getFinancialRoute, (c) => {
    return c.json(explained(c, readBankStatement(c.get('world'), principalOf(c), c.req.valid('param').id)), 200);
  });

// ---------------------------------------------------------------- the applicant's hosted page (no API key)

function renderPage(c: AppContext, id: string, error?: { status: 400 | 409; message: string }) {
  const world = c.get('world');
  const stored = findBankStatement(world, id);
  if (!stored) return c.html(bankStatementNotFoundPage(id), 404);
  const record = explained(c, bankStatementJson(world, stored));
  const path = `/verify/bank-statements/${encodeURIComponent(id)}`;
  return c.html(
    bankStatementPage({
      stored,
      record,
      organizationName: c.get('platform').keyRing.organizations.get(stored.organizationId)?.name ?? stored.organizationId,
      formAction: hostedPageUrl(`${path}/link`, id, world),
      selfPath: hostedPageUrl(path, id, world),
      nowIso: world.clock.iso(),
      ...(error === undefined ? {} : { error: error.message }),
    }),
    error?.status ?? 200,
  );
}

financialRouter.get('/verify/bank-statements/:id', hostedPageGuard(), (c) => renderPage(c, c.req.param('id')));

// Post/redirect/get: a reload after linking never posts twice.
financialRouter.post('/verify/bank-statements/:id/link', hostedPageGuard(), async (c) => {
  const id = c.req.param('id');
  const form = BankStatementPageFormSchema.safeParse(await c.req.parseBody());
  if (!form.success) return renderPage(c, id, { status: 400, message: 'Choose one of the buttons on the page (action must be start, complete or upload).' });
  const result = actOnBankStatementPage(c.get('world'), id, form.data.action, form.data.bank);
  if (!result.ok) {
    if (result.status === 404) return c.html(bankStatementNotFoundPage(id), 404);
    return renderPage(c, id, { status: result.status, message: result.message });
  }
  explained(c, result);
  return c.redirect(hostedPageUrl(`/verify/bank-statements/${encodeURIComponent(id)}`, id, c.get('world')), 303);
});
