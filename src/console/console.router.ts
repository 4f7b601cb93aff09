/**
 * The QA console (/console): one server-rendered page (no JavaScript needed) showing the namespace's
 * clock, scenarios, organizations and request journal, with forms to toggle scenarios, move the clock
 * and reset. With an admin token, /console/login sets an HttpOnly cookie so the browser can stay in.
 */
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { durationToMs, DurationSchema } from '../platform/clock/virtual-clock.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { ADMIN_COOKIE, adminGuard, sameSecret } from '../platform/http/middleware.ts';
import { organizationView, resetSandbox, toggleScenario } from '../control/control.service.ts';
import { consolePage, loginPage } from './console.view.ts';

export const consoleRouter = new Hono<AppEnv>();

consoleRouter.get('/console/login', (c) => c.html(loginPage(undefined)));
consoleRouter.post('/console/login', async (c) => {
  const token = c.get('platform').adminToken;
  const form = await c.req.parseBody();
  const presented = typeof form.token === 'string' ? form.token : '';
  if (token !== undefined && !sameSecret(presented, token)) return c.html(loginPage('That token is not the admin token.'), 401);
  setCookie(c, ADMIN_COOKIE, presented, { httpOnly: true, sameSite: 'Strict', path: '/' });
  return c.redirect('/console', 303);
});

consoleRouter.use('/console', adminGuard());
consoleRouter.use('/console/*', adminGuard());

const back = (namespace: string) => `/console?namespace=${encodeURIComponent(namespace)}`;

consoleRouter.get('/console', (c) => {
  const platform = c.get('platform');
  const world = c.get('world');
  return c.html(
    consolePage({
      namespace: world.namespace,
      namespaces: platform.worlds.names(),
      clock: world.clock.state(),
      scenarios: platform.scenarios.all().map((s) => ({ name: s.name, description: s.description, active: world.scenarios.isActive(s.name) })),
      organizations: [...platform.keyRing.organizations.keys()].map((id) => organizationView(platform, world, id)),
      requests: world.requestLog.list().slice(-50).reverse(),
      urls: platform.urls,
    }),
  );
});

consoleRouter.post('/console/scenarios/:name/:action{activate|deactivate}', (c) => {
  toggleScenario(c.get('platform'), c.get('world'), c.req.param('name'), c.req.param('action') as 'activate' | 'deactivate');
  return c.redirect(back(c.get('world').namespace), 303);
});

consoleRouter.post('/console/clock', async (c) => {
  const form = await c.req.parseBody();
  const world = c.get('world');
  const advance = DurationSchema.safeParse(typeof form.advance === 'string' ? form.advance.trim() : '');
  if (advance.success) world.clock.advance(durationToMs(advance.data));
  if (form.freeze === 'true' || form.freeze === 'false') world.clock.freeze(form.freeze === 'true');
  return c.redirect(back(world.namespace), 303);
});

consoleRouter.post('/console/reset', async (c) => {
  await resetSandbox(c.get('platform'), c.get('world').namespace, undefined);
  return c.redirect(back(c.get('world').namespace), 303);
});
