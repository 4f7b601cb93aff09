import { type AppContext, explain, fundsPolicyOf, principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { hostedPageGuard } from '../platform/http/hosted-pages.ts';
import { hostedPageUrl } from '../platform/secrets/page-tokens.ts';
import { buildSessionUrl, sessionById } from '../sessions/api.ts';
import { PARENT_CONNECT_EVENTS, type ParentConnectEvent } from './age-verification.machine.ts';
import {
  createAgeVerificationRoute,
  getBoundariesRoute,
  getParentConnectRoute,
  listParentConnectRoute,
  parentConnectEventRoute,
} from './age-verification.routes.ts';
import {
  actOnParentConnect,
  type ParentInviteContext,
  createAgeVerification,
  listParentConnect,
  parentConnectRequests,
  readBoundaries,
  readParentConnect,
  toParentConnectJson,
} from './age-verification.service.ts';
import { parentConnectNotFoundPage, parentConnectPage } from './parent-connect-page.view.ts';

export const ageVerificationRouter = newRouter()
  .openapi(createAgeVerificationRoute, (c) => {
    const { body, explanation } = createAgeVerification(c.get('world'), principalOf(c).organization, c.req.valid('json'), publicUrlsOf(c), fundsPolicyOf(c));
    explain(c, explanation);
    return c.json(body, 200);
  })
  .openapi(listParentConnectRoute, (c) => c.json(listParentConnect(c.get('world'), principalOf(c), c.req.valid('query'), c.get('platform').signingSecret), 200))
  .openapi(getParentConnectRoute, (c) => c.json(readParentConnect(c.get('world'), principalOf(c), c.req.valid('param').id), 200))
  .openapi(getBoundariesRoute, (c) => c.json(readBoundaries(c.get('world'), principalOf(c), c.req.valid('param').id), 200))
  .openapi(parentConnectEventRoute, (c) => {
    const { record, explanation } = actOnParentConnect(c.get('world'), c.req.valid('param').id, c.req.valid('json'), parentInviteContext(c));
    explain(c, explanation);
    return c.json(record, 200);
  });

// ---------------------------------------------------------------- hosted pages (no API key)

/** The age-verification session_url: the session's own hosted page does the verifying. */
ageVerificationRouter.get('/verify/deep-age/:id', hostedPageGuard(), (c) => {
  const stored = sessionById(c.get('world'), c.req.param('id'));
  if (!stored || stored.record.type !== 'age-verification')
    return c.json({ error: `There is no age verification session ${c.req.param('id')} in this namespace.` }, 404);
  const url = new URL(
    buildSessionUrl(publicUrlsOf(c).verify, stored.id, stored.record.organization_id, stored.record.redirect_url, {
      scope: c.get('world'),
    }),
  );
  return c.redirect(url.pathname + url.search, 302);
});

const parentInviteContext = (c: AppContext): ParentInviteContext => ({
  verifyUrl: publicUrlsOf(c).verify,
  organizations: c.get('platform').keyRing.organizations,
});

function renderPage(c: AppContext, id: string, error?: { status: 400 | 409; message: string }) {
  const stored = parentConnectRequests(c.get('world')).get(id);
  if (!stored) return c.html(parentConnectNotFoundPage(id), 404);
  const record = toParentConnectJson(stored, c.get('world').clock.now());
  const page = parentConnectPage({
    record,
    formAction: hostedPageUrl(`/verify/parent-connect/${encodeURIComponent(id)}/events`, id, c.get('world')),
    nowIso: c.get('world').clock.iso(),
    ...(error ? { error: error.message } : {}),
  });
  return c.html(page, error?.status ?? 200);
}

ageVerificationRouter.get('/verify/parent-connect/:id', hostedPageGuard(), (c) => renderPage(c, c.req.param('id')));

/** The page's form: the event button, b_<key> per restriction, accept_eula. */
ageVerificationRouter.post('/verify/parent-connect/:id/events', hostedPageGuard(), async (c) => {
  const id = c.req.param('id');
  const stored = parentConnectRequests(c.get('world')).get(id);
  if (!stored) return c.html(parentConnectNotFoundPage(id), 404);
  const form = await c.req.parseBody();
  const event = String(form.event ?? '');
  if (!(PARENT_CONNECT_EVENTS as readonly string[]).includes(event))
    return renderPage(c, id, { status: 400, message: 'Choose one of the buttons on the page.' });
  const boundaries: Record<string, boolean | number | string> = {};
  if (event === 'give_consent' || event === 'update_boundaries') {
    for (const restriction of stored.platform_restrictions) {
      const raw = form[`b_${restriction.key}`];
      if (restriction.type === 'toggle') boundaries[restriction.key] = raw !== undefined;
      else if (typeof raw === 'string' && raw !== '') boundaries[restriction.key] = restriction.type === 'select' ? raw : Number(raw);
    }
  }
  try {
    const { explanation } = actOnParentConnect(
      c.get('world'),
      id,
      {
        event: event as ParentConnectEvent,
        boundaries,
        accept_eula: form.accept_eula !== undefined,
      },
      parentInviteContext(c),
    );
    explain(c, `hosted page: ${explanation}`);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 409)) return renderPage(c, id, { status: error.status, message: error.message });
    throw error;
  }
  return c.redirect(hostedPageUrl(`/verify/parent-connect/${encodeURIComponent(id)}`, id, c.get('world')), 303);
});
