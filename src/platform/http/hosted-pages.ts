/**
 * The guard every hosted page (under /verify) and every form it posts goes through: the link must carry
 * the record's page token (src/platform/secrets/page-tokens.ts), and a form post must come from the page
 * itself, never from another origin. Refusals are small HTML pages, as the rest of the page family
 * answers; a missing or wrong token on a page view is a 404, as if the page did not exist.
 */
import { createMiddleware } from 'hono/factory';
import { html } from 'hono/html';
import { crossSiteRefusal } from './admin-guard.ts';
import { hostedPage } from '../hosted-pages/hosted-page-layout.ts';
import { isPageToken, PAGE_TOKEN_PARAM } from '../secrets/page-tokens.ts';
import { explain, type AppEnv } from './context.ts';

const READ_METHODS = new Set(['GET', 'HEAD']);

/** A refusal in the frame every hosted page wears. */
function refusalPage(title: string, message: string) {
  return hostedPage(title, html`<h1>${title}</h1>\n<p>${message}</p>`, 'idv-sandbox hosted page');
}

/** For a route with an `:id` parameter: the record whose token the link must carry. */
export function hostedPageGuard() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = c.req.param('id') ?? '';
    if (!isPageToken(c.req.query(PAGE_TOKEN_PARAM), c.get('world').pageToken(id))) {
      const reading = READ_METHODS.has(c.req.method);
      explain(c, `hosted page ${id}: the link's ${PAGE_TOKEN_PARAM} is ${c.req.query(PAGE_TOKEN_PARAM) === undefined ? 'missing' : 'wrong'}`);
      return c.html(
        refusalPage(
          reading ? 'Page not found' : 'Link not valid',
          `There is no page for this link. Open the link exactly as the API returned it (session_url or the page's link, with its ${PAGE_TOKEN_PARAM} parameter); a page of another sandbox namespace also needs its namespace parameter.`,
        ),
        reading ? 404 : 403,
      );
    }
    if (!READ_METHODS.has(c.req.method)) {
      const refusal = crossSiteRefusal(c, 'Hosted pages');
      if (refusal) {
        explain(c, `hosted page ${id}: cross-origin form post refused`);
        return c.html(refusalPage('Request refused', refusal), 403);
      }
    }
    return next();
  });
}
