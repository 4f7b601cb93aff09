/**
 * The QA console (/console): server-rendered pages over the same service functions the control plane and
 * the API call, so a button here does exactly what the matching control-plane call does. consoleGuard
 * (src/platform/admin) signs people in and checks every form's origin and CSRF token; each write answers
 * 303 back to the page it came from, with `problem=` when the service refused it.
 */
import { Hono } from 'hono';
import { html } from 'hono/html';
import {
  changeClock,
  coverageReport,
  listRequests,
  organizationView,
  OutboxQuerySchema,
  requestEntry,
  resetSandbox,
  scenarioView,
  setOrganizationBalance,
  toggleScenario,
} from '../control/api.ts';
import { consoleReturnPath, csrfTokenOf, isAdminToken, startConsoleSession } from '../platform/http/admin-guard.ts';
import { DurationSchema } from '../platform/clock/virtual-clock.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { CONSOLE_ERROR_CODES } from './console.errors.ts';
import { clearOutbox, listMessages } from '../platform/outbox/outbox.ts';
import { type AppEnv, behaviourOn, publicUrlsOf } from '../platform/http/context.ts';
import type { World } from '../platform/namespaces/world.ts';
import {
  buildSessionUrl,
  CONTROL_OUTCOMES,
  type ControlOutcome,
  displayStatus,
  driveSessionOutcome,
  sessionById,
  legalControlOutcomes,
  SESSION_STATUSES,
  SESSION_TYPES,
  sessionDetailsUrl,
  allSessions,
  sessionUploads,
  type StoredSession,
} from '../sessions/api.ts';
import { workflowRuns } from '../workflows/api.ts';
import { consoleHref, plainPage } from './console.layout.ts';
import { act, formText, notFound, renderPage } from './console.page.ts';
import { consoleRecordsRouter } from './records.router.ts';
import { coveragePage } from './coverage.view.ts';
import { driftPage } from './drift.view.ts';
import { shadowOf } from '../drift/shadow.ts';
import { overviewPage } from './overview.view.ts';
import { requestDetail, requestRows, requestsPage } from './requests.view.ts';
import { scenariosPage } from './scenarios.view.ts';
import { outboxPage } from './outbox.view.ts';
import { storagePage } from './storage.view.ts';
import { storeStats } from '../platform/retention/stats.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { type SessionFilter, type SessionRow, sessionDetail, sessionsPage, type TimelineEntry } from './sessions.view.ts';

export const consoleRouter = new Hono<AppEnv>();
/** The console's pages, mounted like an area (app.ts). */
export const consoleModule: SandboxModule = { name: 'console', router: () => consoleRouter };
consoleRouter.route('/', consoleRecordsRouter);

const SESSIONS_PER_PAGE = 25;

// ─── Login ──────────────────────────────────────────────────────────────────────────────────────────

function loginPage(next: string, problem: string | undefined) {
  return plainPage(
    'Sign in — idv-sandbox console',
    html`<section class="card" style="max-width:28rem;margin:4rem auto">
<h1>idv-sandbox console</h1><p class="muted">This sandbox was started with an admin token. Sign in with it; the browser keeps a signed session, never the token.</p>
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
<form class="row" method="post" action="/console/login"><input type="hidden" name="next" value="${next}">
<label>Admin token<input type="password" name="token" autocomplete="current-password" autofocus required></label><button type="submit" class="primary">Sign in</button></form></section>`,
  );
}

consoleRouter.get('/console/login', (c) => c.html(loginPage(consoleReturnPath(c.req.query('next')), undefined)));
consoleRouter.post('/console/login', async (c) => {
  const token = c.get('platform').settings.adminToken;
  const form = await c.req.parseBody();
  const next = consoleReturnPath(formText(form, 'next') || undefined);
  if (token !== undefined) {
    let accepted: boolean;
    try {
      accepted = isAdminToken(c, formText(form, 'token'), token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429) throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.html(loginPage(next, error.message), 429);
    }
    if (!accepted) return c.html(loginPage(next, 'That is not the admin token this sandbox was started with.'), 401);
  }
  startConsoleSession(c, token === undefined ? 'visitor' : 'admin');
  return c.redirect(next, 303);
});

// ─── Overview: clock, organizations, scenarios, namespaces, reset ───────────────────────────────────

const maskKey = (key: string) => `${/^[a-z]+_[a-z]+_/.exec(key)?.[0] ?? key.slice(0, 3)}••••${key.slice(-2)}`;

function sessionRow(stored: StoredSession, nowMs: number): SessionRow {
  const { record } = stored;
  return {
    id: record.id,
    organizationId: record.organization_id,
    type: record.type,
    status: displayStatus(record, nowMs),
    externalId: record.external_id,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
}

const newestFirst = (a: StoredSession, b: StoredSession) => b.record.created_at.localeCompare(a.record.created_at) || b.id.localeCompare(a.id);

consoleRouter.get('/console', (c) => {
  const platform = c.get('platform');
  const world = c.get('world');
  const now = world.clock.now();
  const organizations = [...platform.keyRing.organizations.values()].map((organization) => {
    const view = organizationView(platform, world, organization.id);
    return {
      ...view,
      keys: organization.keys.map((key) => {
        const usage = world.rateLimiter?.usage(key.id, now);
        return {
          keyId: key.id,
          kind: key.kind,
          masked: maskKey(key.key),
          ...(usage
            ? {
                usage: {
                  usedToday: usage.usedToday,
                  dailyQuota: usage.limits.dailyQuota,
                  tokensLeft: usage.tokensLeft,
                  burst: usage.limits.burst,
                  perSecond: usage.limits.perSecond,
                },
              }
            : {}),
        };
      }),
    };
  });
  return renderPage(
    c,
    `Namespace ${world.namespace}`,
    'overview',
    overviewPage({
      namespace: world.namespace,
      clock: world.clock.state(),
      organizations,
      activeScenarios: world.scenarios.activeNames(),
      // Names only: counting another namespace's records would load it (and reorder the namespaces' LRU).
      namespaces: platform.worlds.names(),
      sessions: allSessions(world)
        .sort(newestFirst)
        .slice(0, 10)
        .map((stored) => sessionRow(stored, now)),
      requests: world.requestLog.list().slice(-10).reverse(),
      csrf: csrfTokenOf(c),
    }),
  );
});

consoleRouter.post('/console/clock', async (c) => {
  const form = await c.req.parseBody();
  const world = c.get('world');
  const back = consoleHref('/console', world.namespace);
  const advanceText = formText(form, 'advance');
  const setText = formText(form, 'set');
  const freeze = formText(form, 'freeze');
  return act(c, back, () => {
    const advance = DurationSchema.safeParse(/^\d+$/.test(advanceText) ? Number(advanceText) : advanceText);
    if (advanceText !== '' && !advance.success) throw codedError(CONSOLE_ERROR_CODES, 'CONSOLE_DURATION_MALFORMED', { typed: advanceText });
    if (setText !== '' && Number.isNaN(Date.parse(setText))) throw codedError(CONSOLE_ERROR_CODES, 'CONSOLE_INSTANT_MALFORMED', { typed: setText });
    changeClock(world, {
      ...(advance.success ? { advance: advance.data } : {}),
      ...(setText !== '' ? { set: new Date(Date.parse(setText)).toISOString() } : {}),
      ...(freeze === 'true' || freeze === 'false' ? { freeze: freeze === 'true' } : {}),
    });
  });
});

consoleRouter.post('/console/reset', async (c) => {
  const form = await c.req.parseBody();
  const namespace = c.get('world').namespace;
  const back = consoleHref('/console', namespace);
  return act(
    c,
    back,
    async () => {
      if (formText(form, 'confirm') !== namespace) throw codedError(CONSOLE_ERROR_CODES, 'CONSOLE_RESET_NOT_CONFIRMED', { namespace });
      await resetSandbox(c.get('platform'), namespace, undefined);
    },
    `Namespace ${namespace} is back to the fixtures.`,
  );
});

consoleRouter.post('/console/organizations/:id/balance', async (c) => {
  const form = await c.req.parseBody();
  const world = c.get('world');
  const text = formText(form, 'balance');
  return act(c, consoleHref('/console', world.namespace), () => {
    if (!/^\d{1,15}$/.test(text)) throw codedError(CONSOLE_ERROR_CODES, 'CONSOLE_BALANCE_MALFORMED', { typed: text });
    setOrganizationBalance(c.get('platform'), world, c.req.param('id'), Number(text));
  });
});

// ─── Coverage ───────────────────────────────────────────────────────────────────────────────────────

consoleRouter.get('/console/coverage', async (c) => {
  const world = c.get('world');
  const report = await coverageReport(c.get('platform'), world, publicUrlsOf(c).base, { scope: 'namespace' });
  return renderPage(c, 'Integration coverage', 'coverage', coveragePage(world.namespace, report));
});

// ─── Drift (shadow mode) ────────────────────────────────────────────────────────────────────────────

consoleRouter.get('/console/drift', (c) => renderPage(c, 'Drift from the upstream', 'drift', driftPage(shadowOf(c.get('platform'))?.report())));

// ─── Outbox ─────────────────────────────────────────────────────────────────────────────────────────

consoleRouter.get('/console/outbox', (c) => {
  const world = c.get('world');
  const back = consoleHref('/console/outbox', world.namespace);
  // The control plane's own query schema: the same filters, the same refusals.
  const query = OutboxQuerySchema.safeParse(Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== '')));
  if (!query.success) return c.redirect(`${back}&problem=${encodeURIComponent(query.error.issues[0]?.message ?? 'Invalid filter.')}`, 303);
  const { recipient, session, channel, limit, nextToken } = query.data;
  const filter = { recipient, sessionId: session, channel };
  try {
    const page = listMessages(world, filter, { limit, token: nextToken, secret: c.get('platform').signingSecret });
    return renderPage(
      c,
      'Outbox',
      'outbox',
      outboxPage({ namespace: world.namespace, filter, messages: page.items, nextToken: page.nextToken, csrf: csrfTokenOf(c) }),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return c.redirect(`${back}&problem=${encodeURIComponent(error.message)}`, 303);
  }
});

consoleRouter.post('/console/outbox/clear', (c) => {
  const world = c.get('world');
  return act(c, consoleHref('/console/outbox', world.namespace), () => clearOutbox(world), 'The outbox is empty.');
});
// ─── Storage ────────────────────────────────────────────────────────────────────────────────────────

consoleRouter.get('/console/storage', async (c) => {
  const { store, retention } = c.get('platform');
  const model = { namespace: c.get('world').namespace, stats: await storeStats(store, retention), csrf: csrfTokenOf(c) };
  return renderPage(c, 'Storage', 'storage', storagePage(model));
});

consoleRouter.post('/console/storage/purge', (c) =>
  act(c, consoleHref('/console/storage', c.get('world').namespace), () => c.get('platform').retention.purge(), 'Purged what retention drops.'),
);

// ─── Scenarios ──────────────────────────────────────────────────────────────────────────────────────

consoleRouter.get('/console/scenarios', (c) => {
  const world = c.get('world');
  return renderPage(
    c,
    'Scenarios',
    'scenarios',
    scenariosPage(
      world.namespace,
      world.scenarios.names().map((name) => scenarioView(world, name)),
      csrfTokenOf(c),
    ),
  );
});

consoleRouter.post('/console/scenarios/:name/:action{activate|deactivate}', (c) => {
  const world = c.get('world');
  return act(c, consoleHref('/console/scenarios', world.namespace), () =>
    toggleScenario(world, c.req.param('name'), c.req.param('action') as 'activate' | 'deactivate'),
  );
});

// ─── Sessions ───────────────────────────────────────────────────────────────────────────────────────

function matchesFilter(record: StoredSession['record'], status: string, filter: SessionFilter): boolean {
  const createdDay = record.created_at.slice(0, 10);
  return (
    (!filter.organization || record.organization_id === filter.organization) &&
    (!filter.status || status === filter.status) &&
    (!filter.type || record.type === filter.type) &&
    (!filter.external_id || record.external_id === filter.external_id) &&
    (!filter.created_from || createdDay >= filter.created_from) &&
    (!filter.created_to || createdDay <= filter.created_to)
  );
}

consoleRouter.get('/console/sessions', (c) => {
  const world = c.get('world');
  const now = world.clock.now();
  const filter: SessionFilter = {
    organization: c.req.query('organization'),
    status: c.req.query('status'),
    type: c.req.query('type'),
    external_id: c.req.query('external_id'),
    created_from: c.req.query('created_from'),
    created_to: c.req.query('created_to'),
  };
  const rows = allSessions(world)
    .sort(newestFirst)
    .map((stored) => ({ stored, row: sessionRow(stored, now) }))
    .filter(({ stored, row }) => matchesFilter(stored.record, row.status, filter))
    .map(({ row }) => row);
  const pages = Math.max(1, Math.ceil(rows.length / SESSIONS_PER_PAGE));
  const page = Math.min(pages, Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1));
  return renderPage(
    c,
    'Sessions',
    'sessions',
    sessionsPage({
      namespace: world.namespace,
      filter,
      rows: rows.slice((page - 1) * SESSIONS_PER_PAGE, page * SESSIONS_PER_PAGE),
      page,
      pages,
      total: rows.length,
      organizations: [...c.get('platform').keyRing.organizations.keys()],
      statuses: [...SESSION_STATUSES, 'EXPIRED'],
      types: SESSION_TYPES,
    }),
  );
});

/** What the record itself says happened, then every journalled request that named the session. */
function sessionTimeline(world: World, stored: StoredSession): TimelineEntry[] {
  const { record } = stored;
  const entries: TimelineEntry[] = [{ at: record.created_at, what: `created (${record.type}) for ${stored.user.email}` }];
  for (const attempt of record.meta_data?.failureData?.attempts ?? [])
    entries.push({ at: attempt.failedAt, what: `failed attempt: ${attempt.reason} on ${attempt.slot}` });
  if (record.submitted_at) entries.push({ at: record.submitted_at, what: 'submitted by the applicant' });
  if (record.status !== 'PENDING' || record.updated_at !== record.created_at)
    entries.push({ at: record.updated_at, what: `now ${record.status}, progress ${record.session_progress}` });
  if (record.expires_at) entries.push({ at: record.expires_at, what: record.expires_at <= world.clock.iso() ? 'expired' : 'expires' });
  for (const entry of world.requestLog.list()) {
    const created = (entry.responseBody as { id?: unknown } | undefined)?.id === record.id;
    if (!created && !entry.path.includes(record.id)) continue;
    entries.push({
      at: entry.startedAt,
      what: `${entry.method} ${entry.path} → ${entry.status}${entry.explain ? ` (${entry.explain})` : ''}`,
      requestId: entry.requestId,
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

consoleRouter.get('/console/sessions/:id', async (c) => {
  const world = c.get('world');
  const { attemptScriptOf } = await workflowRuns();
  const stored = sessionById(world, c.req.param('id'));
  if (!stored) return notFound(c, 'session', c.req.param('id'));
  const { record } = stored;
  const urls = publicUrlsOf(c);
  const now = world.clock.now();
  const status = displayStatus(record, now);
  const uploadPath = (uploadId: string) =>
    consoleHref(`/console/sessions/${encodeURIComponent(record.id)}/uploads/${encodeURIComponent(uploadId)}`, world.namespace);
  return renderPage(
    c,
    `Session ${record.id}`,
    'sessions',
    sessionDetail({
      namespace: world.namespace,
      id: record.id,
      status,
      organizationId: record.organization_id,
      type: record.type,
      facts: [
        ['Status', `${status} (progress ${record.session_progress})`],
        ['Organization', record.organization_id],
        ['Type', record.type],
        ['Applicant', `${stored.user.first_name} ${stored.user.last_name} <${stored.user.email}>`],
        ['External id', record.external_id ?? '—'],
        ['Workflow', record.workflow_id ?? '—'],
        ['Created', record.created_at],
        ['Updated', record.updated_at],
        ['Expires', record.expires_at ?? 'never'],
        ['Redirect URL', record.redirect_url ?? '—'],
      ],
      hostedPageUrl: buildSessionUrl(urls.verify, record.id, record.organization_id, record.redirect_url, { scope: world }),
      apiUrl: sessionDetailsUrl(urls.base, record.id, { scope: world }),
      // Reading whether auto-decline is on must not count as a fire: only the move itself fires it.
      legalOutcomes: legalControlOutcomes(record, now, world.scenarios.behaviourSource('auto-decline', []) !== undefined),
      analysis: record.analysis_data,
      metaData: record.meta_data,
      record: { session_record: record, user: stored.user, sender_user: stored.senderUser },
      timeline: sessionTimeline(world, stored),
      uploads: sessionUploads(world, record.id).map((upload) => ({
        slot: upload.slot ?? 'file',
        fileKey: upload.fileKey,
        contentType: upload.contentType,
        src: upload.uploadedAtMs === undefined ? undefined : uploadPath(upload.id),
      })),
      attemptScript: attemptScriptOf(world, record.id),
      csrf: csrfTokenOf(c),
    }),
  );
});

consoleRouter.post('/console/sessions/:id/attempt-script', async (c) => {
  const world = c.get('world');
  const id = c.req.param('id');
  const script = formText(await c.req.parseBody(), 'script');
  const back = consoleHref(`/console/sessions/${encodeURIComponent(id)}`, world.namespace);
  return act(
    c,
    back,
    async () => (await workflowRuns()).setAttemptScript(world, id, script === '' ? null : script),
    script === '' ? 'Attempt script removed.' : `Attempt script set: ${script}`,
  );
});

consoleRouter.get('/console/sessions/:id/uploads/:uploadId', async (c) => {
  const world = c.get('world');
  const stored = sessionById(world, c.req.param('id'));
  const upload = sessionUploads(world, c.req.param('id')).find((candidate) => candidate.id === c.req.param('uploadId'));
  if (!stored || !upload?.contentType.startsWith('image/')) return notFound(c, 'upload', c.req.param('uploadId'));
  try {
    const { bytes } = await c.get('platform').uploads.read(world, stored.record.organization_id, upload.fileKey);
    return c.body(new Uint8Array(bytes), 200, { 'content-type': upload.contentType, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return notFound(c, 'upload', c.req.param('uploadId'));
  }
});

consoleRouter.post('/console/sessions/:id/outcome', async (c) => {
  const world = c.get('world');
  const id = c.req.param('id');
  const form = await c.req.parseBody();
  const outcome = formText(form, 'outcome');
  const back = consoleHref(`/console/sessions/${encodeURIComponent(id)}`, world.namespace);
  return act(c, back, async () => {
    if (!(CONTROL_OUTCOMES as readonly string[]).includes(outcome))
      throw codedError(CONSOLE_ERROR_CODES, 'CONSOLE_OUTCOME_UNKNOWN', { typed: outcome, outcomes: CONTROL_OUTCOMES });
    await driveSessionOutcome(world, id, { outcome: outcome as ControlOutcome }, behaviourOn(c, 'auto-decline'), c.get('platform').uploads);
  });
});

// ─── Requests ───────────────────────────────────────────────────────────────────────────────────────

consoleRouter.get('/console/requests', (c) => {
  const world = c.get('world');
  const query = (name: string) => c.req.query(name) || undefined;
  const filter = { method: query('method'), path: query('path'), status: query('status'), key: query('key'), scenario: query('scenario') };
  const status = filter.status !== undefined && /^\d{3}$/.test(filter.status) ? Number(filter.status) : undefined;
  const { requests } = listRequests(c.get('platform'), world, {
    ...(filter.method ? { method: filter.method } : {}),
    ...(filter.path ? { path: filter.path } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(filter.key ? { key: filter.key } : {}),
  });
  const shown = requests.filter((entry) => filter.scenario === undefined || entry.firedRules.some((rule) => rule.scenario === filter.scenario)).reverse();
  if (c.req.query('rows') === '1') return c.html(requestRows(world.namespace, shown));
  return renderPage(c, 'Requests', 'requests', requestsPage(world.namespace, filter, shown, world.scenarios.names()));
});

consoleRouter.get('/console/requests/:id', (c) => {
  const world = c.get('world');
  try {
    return renderPage(c, 'Request', 'requests', requestDetail(world.namespace, requestEntry(world, c.req.param('id'))));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return notFound(c, 'request', c.req.param('id'));
  }
});
