import { newRouter } from '../platform/http/routing.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { CONTROL_ERROR_CODES } from './control.errors.ts';
import { type DriftReport, renderDriftReport } from '../drift/drift-report.ts';
import { shadowOf } from '../drift/shadow.ts';
import type { Platform } from '../platform/platform.ts';
import type { DRIFT_FORMATS } from './control.schemas.ts';
import { jobFateFor, publicUrlsOf, type AppContext } from '../platform/http/context.ts';
import { renderContext, renderReport } from '../platform/coverage/coverage-report.ts';
import { clearOutbox, listMessages } from '../platform/outbox/outbox.ts';
import { storeStats } from '../platform/retention/stats.ts';
import { loadStubbedOperations } from '../platform/scenarios/stub-answers.ts';
import {
  addScenarioRoute,
  catalogRoute,
  changeClockRoute,
  clearOutboxRoute,
  listOutboxRoute,
  clearCoverageRoute,
  coverageRoute,
  driftRoute,
  clearRequestsRoute,
  countRequestsRoute,
  findRequestsRoute,
  verifyRequestsRoute,
  createTestJobRoute,
  getClockRoute,
  getRequestRoute,
  listOrganizationsRoute,
  listRequestsRoute,
  listScenariosRoute,
  removeScenarioRoute,
  resetRoute,
  setBalanceRoute,
  toggleScenarioRoute,
  getRetentionRoute,
  setRetentionRoute,
  purgeRoute,
  statsRoute,
} from './control.routes.ts';
import {
  addScenario,
  catalogView,
  changeClock,
  clearCoverage,
  coverageReport,
  clockView,
  createTestJob,
  findRequests,
  listRequests,
  verifyRequests,
  organizationView,
  removeScenario,
  requestEntry,
  resetSandbox,
  scenarioView,
  setOrganizationBalance,
  toggleScenario,
} from './control.service.ts';

type DriftFormat = (typeof DRIFT_FORMATS)[number];

/** The shadow mode's report; refused (404) when the sandbox does not run in it. */
export function driftReport(platform: Platform): DriftReport {
  const shadow = shadowOf(platform);
  if (!shadow) throw codedError(CONTROL_ERROR_CODES, 'NOT_IN_SHADOW_MODE', {});
  return shadow.report();
}

const COVERAGE_CONTENT_TYPES = { markdown: 'text/markdown; charset=utf-8', junit: 'application/xml; charset=utf-8', html: 'text/html; charset=utf-8' } as const;

/** The report format an Accept header asks for (the first it names that a report comes in), else JSON. */
function formatAccepted(accept: string | undefined): DriftFormat {
  const wanted = (accept ?? '').toLowerCase();
  const formats = Object.entries(COVERAGE_CONTENT_TYPES).map(([format, type]) => [format, wanted.indexOf(type.split(';')[0] as string)] as const);
  return (formats.filter(([, at]) => at >= 0).sort((a, b) => a[1] - b[1])[0]?.[0] as DriftFormat | undefined) ?? 'json';
}

/** The namespace the caller named explicitly (header or query), if any. */
const namedNamespace = (c: AppContext) => c.req.header('x-sandbox-namespace') ?? c.req.query('namespace');

export const controlRouter = newRouter()
  .openapi(resetRoute, async (c) => {
    // The body is optional: a bare POST resets with the configured seed.
    const seed = (c.req.valid('json') as { seed?: number } | undefined)?.seed;
    const reset = await resetSandbox(c.get('platform'), namedNamespace(c), seed);
    return c.json({ reset, ...(seed !== undefined ? { seed } : {}) }, 200);
  })
  .openapi(getClockRoute, (c) => c.json(clockView(c.get('world')), 200))
  .openapi(changeClockRoute, (c) => c.json(changeClock(c.get('world'), c.req.valid('json')), 200))
  .openapi(listScenariosRoute, (c) => {
    const world = c.get('world');
    return c.json({ namespace: world.namespace, scenarios: world.scenarios.names().map((name) => scenarioView(world, name)) }, 200);
  })
  .openapi(addScenarioRoute, async (c) => {
    const scenario = c.req.valid('json');
    // Its 2xx stubs are checked against the responses of the operations they answer for: their areas'.
    await loadStubbedOperations([scenario], c.get('platform').operations);
    return c.json(addScenario(c.get('platform'), c.get('world'), scenario), 201);
  })
  .openapi(removeScenarioRoute, (c) => c.json(removeScenario(c.get('world'), c.req.valid('param').name), 200))
  .openapi(toggleScenarioRoute, (c) => {
    const { name, action } = c.req.valid('param');
    return c.json(toggleScenario(c.get('world'), name, action), 200);
  })
  .openapi(listRequestsRoute, (c) => {
    const { method, path, status, key } = c.req.valid('query');
    return c.json(listRequests(c.get('platform'), c.get('world'), { method, path, status, key }), 200);
  })
  .openapi(getRequestRoute, (c) => c.json(requestEntry(c.get('world'), c.req.valid('param').id) as never, 200))
  .openapi(findRequestsRoute, (c) => c.json(findRequests(c.get('platform'), c.get('world'), c.req.valid('json')), 200))
  .openapi(countRequestsRoute, (c) => {
    const { namespace, count } = findRequests(c.get('platform'), c.get('world'), c.req.valid('json'));
    return c.json({ namespace, count }, 200);
  })
  .openapi(verifyRequestsRoute, (c) => c.json(verifyRequests(c.get('platform'), c.get('world'), c.req.valid('json')), 200))
  .openapi(clearRequestsRoute, (c) => c.json({ cleared: c.get('world').requestLog.clear() }, 200))
  .openapi(listOrganizationsRoute, (c) => {
    const platform = c.get('platform');
    const organizations = [...platform.keyRing.organizations.keys()].map((id) => organizationView(platform, c.get('world'), id));
    return c.json({ organizations }, 200);
  })
  .openapi(setBalanceRoute, (c) => c.json(setOrganizationBalance(c.get('platform'), c.get('world'), c.req.valid('param').id, c.req.valid('json').balance), 200))
  .openapi(catalogRoute, async (c) => c.json(await catalogView(c.get('platform')), 200))
  .openapi(coverageRoute, async (c) => {
    const { format, ...query } = c.req.valid('query');
    const base = publicUrlsOf(c).base;
    const report = await coverageReport(c.get('platform'), c.get('world'), base, query);
    if (format === 'json') return c.json(report, 200);
    return c.body(renderReport(report, format, renderContext(base, c.get('world').clock)), 200, { 'content-type': COVERAGE_CONTENT_TYPES[format] });
  })
  .openapi(driftRoute, (c) => {
    const format = c.req.valid('query').format ?? formatAccepted(c.req.header('accept'));
    const report = driftReport(c.get('platform'));
    if (format === 'json') return c.json(report, 200);
    const context = renderContext(publicUrlsOf(c).base, c.get('world').clock);
    return c.body(renderDriftReport(report, format, context), 200, { 'content-type': COVERAGE_CONTENT_TYPES[format] });
  })
  .openapi(clearCoverageRoute, async (c) => c.json(await clearCoverage(c.get('platform'), c.get('world'), c.req.valid('query').scope), 200))
  .openapi(createTestJobRoute, (c) => c.json(createTestJob(c.get('platform'), c.get('world'), c.req.valid('json'), jobFateFor(c)), 201))
  .openapi(listOutboxRoute, (c) => {
    const { recipient, session, channel, limit, nextToken } = c.req.valid('query');
    const world = c.get('world');
    const page = listMessages(world, { recipient, sessionId: session, channel }, { limit, token: nextToken, secret: c.get('platform').signingSecret });
    return c.json({ namespace: world.namespace, messages: page.items, nextToken: page.nextToken }, 200);
  })
  .openapi(clearOutboxRoute, (c) => {
    const world = c.get('world');
    return c.json({ namespace: world.namespace, cleared: clearOutbox(world) }, 200);
  })
  .openapi(getRetentionRoute, (c) => c.json(c.get('platform').retention.view(c.get('world').namespace), 200))
  .openapi(setRetentionRoute, (c) => c.json(c.get('platform').retention.setOwn(c.get('world').namespace, c.req.valid('json').days), 200))
  .openapi(purgeRoute, async (c) => c.json({ purged: await c.get('platform').retention.purge() }, 200))
  .openapi(statsRoute, async (c) => {
    const { store, retention } = c.get('platform');
    return c.json(await storeStats(store, retention), 200);
  });
