/**
 * The QA console (/console): one server-rendered page (no JavaScript needed) showing the namespace's
 * clock, scenarios, organizations and request journal, with forms to toggle scenarios, move the clock
 * and reset. With an admin token, /console/login sets an HttpOnly cookie so the browser can stay in.
 */
import { Hono } from 'hono';
import { DurationSchema } from '../platform/clock/virtual-clock.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { csrfTokenOf, sameSecret, startConsoleSession } from '../platform/admin/admin-guard.ts';
import { changeClock, organizationView, resetSandbox, toggleScenario } from '../control/control.service.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { behaviourOn } from '../platform/http/context.ts';
import { bankStatementJson, findBankStatement } from '../financial/financial.store.ts';
import { findCreditTerms, toCreditTermsJson } from '../credit-terms/credit-terms.service.ts';
import { CONTROL_OUTCOMES, type ControlOutcome } from '../sessions/sessions.schemas.ts';
import { driveSessionOutcome } from '../sessions/sessions.service.ts';
import { findSession, sessions } from '../sessions/sessions.store.ts';
import { displayStatus } from '../sessions/session.machine.ts';
import { consolePage, loginPage, notFoundPage, recordPage } from './console.view.ts';

export const consoleRouter = new Hono<AppEnv>();

consoleRouter.get('/console/login', (c) => c.html(loginPage(undefined)));
consoleRouter.post('/console/login', async (c) => {
  const token = c.get('platform').adminToken;
  const form = await c.req.parseBody();
  const presented = typeof form.token === 'string' ? form.token : '';
  if (token !== undefined && !sameSecret(presented, token)) return c.html(loginPage('That token is not the admin token.'), 401);
  startConsoleSession(c, token === undefined ? 'visitor' : 'admin');
  return c.redirect('/console', 303);
});

const back = (namespace: string) => `/console?namespace=${encodeURIComponent(namespace)}`;

consoleRouter.get('/console', (c) => {
  const platform = c.get('platform');
  const world = c.get('world');
  return c.html(
    consolePage({
      namespace: world.namespace,
      namespaces: platform.worlds.names(),
      clock: world.clock.state(),
      scenarios: world.scenarios.names().map((name) => ({ name, description: world.scenarios.get(name)?.description ?? '', active: world.scenarios.isActive(name) })),
      organizations: [...platform.keyRing.organizations.keys()].map((id) => organizationView(platform, world, id)),
      requests: world.requestLog.list().slice(-50).reverse(),
      sessions: sessions(world)
        .all()
        .slice(-50)
        .reverse()
        .map(({ record }) => ({ id: record.id, organizationId: record.organization_id, type: record.type, status: displayStatus(record, world.clock.now()), createdAt: record.created_at })),
      urls: platform.urls,
      csrf: csrfTokenOf(c),
    }),
  );
});

consoleRouter.post('/console/scenarios/:name/:action{activate|deactivate}', (c) => {
  toggleScenario(c.get('world'), c.req.param('name'), c.req.param('action') as 'activate' | 'deactivate');
  return c.redirect(back(c.get('world').namespace), 303);
});

consoleRouter.post('/console/clock', async (c) => {
  const form = await c.req.parseBody();
  const world = c.get('world');
  const advance = DurationSchema.safeParse(typeof form.advance === 'string' ? form.advance.trim() : '');
  changeClock(world, {
    ...(advance.success ? { advance: advance.data } : {}),
    ...(form.freeze === 'true' || form.freeze === 'false' ? { freeze: form.freeze === 'true' } : {}),
  });
  return c.redirect(back(world.namespace), 303);
});

consoleRouter.post('/console/reset', async (c) => {
  await resetSandbox(c.get('platform'), c.get('world').namespace, undefined);
  return c.redirect(back(c.get('world').namespace), 303);
});

consoleRouter.get('/console/sessions/:id', (c) => {
  const world = c.get('world');
  const stored = findSession(world, c.req.param('id'));
  if (!stored) return c.html(notFoundPage('session', c.req.param('id'), world.namespace), 404);
  return c.html(
    recordPage({
      kind: 'Session',
      id: stored.id,
      namespace: world.namespace,
      status: displayStatus(stored.record, world.clock.now()),
      record: { session_record: stored.record, user: stored.user, sender_user: stored.senderUser },
      actions: [...CONTROL_OUTCOMES],
      problem: c.req.query('problem'),
      csrf: csrfTokenOf(c),
    }),
  );
});

consoleRouter.post('/console/sessions/:id/outcome', async (c) => {
  const world = c.get('world');
  const id = c.req.param('id');
  const form = await c.req.parseBody();
  const outcome = String(form.outcome ?? '');
  const page = `/console/sessions/${encodeURIComponent(id)}?namespace=${encodeURIComponent(world.namespace)}`;
  if (!(CONTROL_OUTCOMES as readonly string[]).includes(outcome)) return c.redirect(`${page}&problem=${encodeURIComponent(`Unknown outcome "${outcome}"`)}`, 303);
  try {
    await driveSessionOutcome(world, id, { outcome: outcome as ControlOutcome }, behaviourOn(c, 'auto-decline'), c.get('platform').uploads);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return c.redirect(`${page}&problem=${encodeURIComponent(error.message)}`, 303);
  }
  return c.redirect(page, 303);
});

consoleRouter.get('/console/bank-statements/:id', (c) => {
  const world = c.get('world');
  const record = findBankStatement(world, c.req.param('id'));
  if (!record) return c.html(notFoundPage('bank statement', c.req.param('id'), world.namespace), 404);
  const { body } = bankStatementJson(world, record);
  return c.html(recordPage({ kind: 'Bank statement', id: record.id, namespace: world.namespace, status: body.status, record: body, actions: [], csrf: csrfTokenOf(c) }));
});

// The admin_console link of POST /v1/credit-terms lands here.
consoleRouter.get('/console/credit-terms/:id', (c) => {
  const world = c.get('world');
  const stored = findCreditTerms(world, c.req.param('id'));
  if (!stored) return c.html(notFoundPage('credit terms request', c.req.param('id'), world.namespace), 404);
  const record = toCreditTermsJson(stored);
  return c.html(recordPage({ kind: 'Credit terms', id: record.id, namespace: world.namespace, status: record.status, record, actions: [], csrf: csrfTokenOf(c) }));
});
