import { type AppContext, fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { explained } from '../platform/http/explained.ts';
import { newRouter } from '../platform/http/routing.ts';
import { hostedPageGuard } from '../platform/http/hosted-pages.ts';
import { hostedPageUrl } from '../platform/secrets/page-tokens.ts';
import { creditTermsNotFoundPage, creditTermsPage } from './credit-terms-page.view.ts';
import { createCreditTermsRoute, getCreditTermsRoute, listCreditTermsByExternalIdRoute, listCreditTermsRoute } from './credit-terms.routes.ts';
import { CreditTermsPageFormSchema } from './credit-terms.schemas.ts';
import { actOnCreditTermsPage, createCreditTerms, findCreditTerms, listCreditTerms, readCreditTerms } from './credit-terms.service.ts';

/** What a sandbox key lists: credit terms have no synthetic records, and live ones are never shown to it (see readCreditTerms). */
const NO_CREDIT_TERMS = { creditTerms: [], nextToken: null };

export const creditTermsRouter = newRouter()
  .openapi(createCreditTermsRoute, (c) => {
    return c.json(explained(c, createCreditTerms(c.get('world'), principalOf(c).organization, c.req.valid('json'), publicUrlsOf(c), fundsPolicyOf(c))), 200);
  })
  .openapi(listCreditTermsRoute, (c) => {
    const { nextToken, limit } = c.req.valid('query');
    if (principalOf(c).kind === 'sandbox') return c.json(NO_CREDIT_TERMS, 200);
    return c.json(listCreditTerms(c.get('world'), principalOf(c).organization.id, { nextToken, limit, secret: c.get('platform').signingSecret }), 200);
  })
  .openapi(listCreditTermsByExternalIdRoute, (c) => {
    const { nextToken, limit } = c.req.valid('query');
    const { externalId } = c.req.valid('param');
    if (principalOf(c).kind === 'sandbox') return c.json(NO_CREDIT_TERMS, 200);
    return c.json(
      listCreditTerms(c.get('world'), principalOf(c).organization.id, { externalId, nextToken, limit, secret: c.get('platform').signingSecret }),
      200,
    );
  })
  .openapi(getCreditTermsRoute, (c) => c.json(readCreditTerms(c.get('world'), principalOf(c), c.req.valid('param').id), 200));

// ---------------------------------------------------------------- the business's hosted page (no API key)

/** The page's own path (or its form's), with its token and the namespace outside the default one. */
function pagePath(c: AppContext, id: string, suffix = ''): string {
  return hostedPageUrl(`/verify/credit-terms/${encodeURIComponent(id)}${suffix}`, id, c.get('world'));
}

function renderPage(c: AppContext, id: string, error?: { status: 400 | 409; message: string }) {
  const record = findCreditTerms(c.get('world'), id);
  if (!record) return c.html(creditTermsNotFoundPage(id), 404);
  const organizationName = c.get('platform').keyRing.organizations.get(record.organizationId)?.name ?? record.organizationId;
  const page = creditTermsPage({
    record,
    organizationName,
    formAction: pagePath(c, id, '/action'),
    nowIso: c.get('world').clock.iso(),
    ...(error ? { error: error.message } : {}),
  });
  return c.html(page, error?.status ?? 200);
}

creditTermsRouter.get('/verify/credit-terms/:id', hostedPageGuard(), (c) => renderPage(c, c.req.param('id')));

// Post/redirect/get: a reload never posts twice.
creditTermsRouter.post('/verify/credit-terms/:id/action', hostedPageGuard(), async (c) => {
  const id = c.req.param('id');
  const form = CreditTermsPageFormSchema.safeParse(await c.req.parseBody());
  if (!form.success) return renderPage(c, id, { status: 400, message: 'Choose one of the buttons on the page (action must be open, submit or decline).' });
  const result = actOnCreditTermsPage(c.get('world'), id, form.data.action);
  if (!result.ok)
    return result.status === 404 ? c.html(creditTermsNotFoundPage(id), 404) : renderPage(c, id, { status: result.status, message: result.message });
  explained(c, result);
  return c.redirect(pagePath(c, id), 303);
});
