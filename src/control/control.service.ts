/**
 * The control plane's verbs: what tests and QA use to drive the sandbox (reset, clock, scenarios,
 * journal, balances, catalog, test jobs). Each acts on one namespace's world.
 */
import type { z } from '@hono/zod-openapi';
import { clockRangeProblem, durationToMs } from '../platform/clock/virtual-clock.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { balanceOf, setBalance } from '../platform/billing/billing.ts';
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import type { OutcomeKind } from '../platform/coverage/outcome-class.ts';
import type { Platform } from '../platform/platform.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { JobFate } from '../platform/jobs/jobs.ts';
import type { Scenario } from '../platform/scenarios/scenario.schema.ts';
import { stubProblem } from '../platform/scenarios/stub-answers.ts';
import { describePattern, matchingEntries, nearMisses, type RequestPattern } from '../platform/request-log/request-matching.ts';
import { CONTROL_ERROR_CODES } from './control.errors.ts';
import { TEST_JOB_KIND } from './test-job.ts';
import type { ClockChangeSchema, RequestPatternSchema, RequestVerificationSchema, TestJobBodySchema } from './control.schemas.ts';

export { resetSandbox } from '../platform/namespaces/reset.ts';

export function clockView(world: World) {
  return { namespace: world.namespace, ...world.clock.state() };
}

/** (Un)freezes, sets, then advances the clock; a change that would leave CLOCK_RANGE is refused whole (400). */
export function changeClock(world: World, change: Partial<z.infer<typeof ClockChangeSchema>>) {
  const setTo = change.set === undefined ? undefined : Date.parse(change.set);
  const advanceBy = change.advance === undefined ? 0 : durationToMs(change.advance);
  const target = (setTo ?? world.clock.now()) + advanceBy;
  const outOfRange = clockRangeProblem(target);
  if (outOfRange) {
    throw codedError(CONTROL_ERROR_CODES, 'CLOCK_OUT_OF_RANGE', { target, problem: outOfRange });
  }
  // Freezing first makes `set` exact: a frozen clock does not move between the two.
  if (change.freeze !== undefined) world.clock.freeze(change.freeze);
  if (setTo !== undefined) world.clock.set(setTo);
  if (advanceBy !== 0) world.clock.advance(advanceBy);
  return clockView(world);
}

export function scenarioView(world: World, name: string) {
  const scenario = world.scenarios.get(name);
  if (!scenario) throw codedError(CONTROL_ERROR_CODES, 'SCENARIO_UNKNOWN', { name, known: world.scenarios.names() });
  return {
    name: scenario.name,
    description: scenario.description,
    active: world.scenarios.isActive(name),
    origin: world.scenarios.isAdded(name) ? ('runtime' as const) : ('file' as const),
    behaviours: scenario.behaviours,
    behaviourFires: Object.fromEntries(scenario.behaviours.map((behaviour) => [behaviour, world.scenarios.fireCount(name, behaviour)])),
    rules: scenario.rules.map((rule, index) => ({ ...rule, fired: world.scenarios.fireCount(name, index) })),
  };
}

export function toggleScenario(world: World, name: string, action: 'activate' | 'deactivate') {
  scenarioView(world, name);
  if (action === 'activate') world.scenarios.activate(name);
  else world.scenarios.deactivate(name);
  return scenarioView(world, name);
}

/** Adds a scenario (already validated against the file schema) to the namespace, inactive; its 2xx stubs must fit their operations. */
export function addScenario(platform: Platform, world: World, scenario: Scenario) {
  const stubs = stubProblem(scenario, platform.operations);
  if (stubs) throw codedError(CONTROL_ERROR_CODES, 'SCENARIO_INVALID', { problem: stubs });
  if (world.scenarios.get(scenario.name)) {
    throw codedError(CONTROL_ERROR_CODES, 'SCENARIO_NAME_TAKEN', { name: scenario.name });
  }
  world.scenarios.add(scenario);
  return scenarioView(world, scenario.name);
}

export function removeScenario(world: World, name: string) {
  scenarioView(world, name);
  if (!world.scenarios.isAdded(name)) {
    throw codedError(CONTROL_ERROR_CODES, 'SCENARIO_FROM_FILE', { name });
  }
  world.scenarios.remove(name);
  return { removed: name };
}

/** The journal's entries; `key` is a key id or the API key itself, mapped to its id. */
export function listRequests(platform: Platform, world: World, filter: { method?: string; path?: string; status?: number; key?: string }) {
  const { key, ...rest } = filter;
  const keyId = key === undefined ? undefined : (platform.keyRing.identify(key)?.keyId ?? key);
  return { namespace: world.namespace, requests: world.requestLog.list({ ...rest, keyId }) };
}

/** A pattern of the control plane (`key` an API key or its id) as the journal matches it. */
function journalPattern(platform: Platform, { key, ...pattern }: z.infer<typeof RequestPatternSchema>): RequestPattern {
  return { ...pattern, ...(key === undefined ? {} : { keyId: platform.keyRing.identify(key)?.keyId ?? key }) };
}

/** The requests of the namespace's journal that match the pattern, oldest first. */
export function findRequests(platform: Platform, world: World, pattern: z.infer<typeof RequestPatternSchema>) {
  const requests = matchingEntries(world.requestLog.list(), journalPattern(platform, pattern));
  return { namespace: world.namespace, count: requests.length, requests };
}

/** 200 when as many requests matched as expected (default: at least one); else 409 with the nearest misses. */
export function verifyRequests(platform: Platform, world: World, verification: z.infer<typeof RequestVerificationSchema>) {
  const { count: exactly, atLeast, atMost, ...rest } = verification;
  const pattern = journalPattern(platform, rest);
  const entries = world.requestLog.list();
  const count = matchingEntries(entries, pattern).length;
  const low = exactly ?? atLeast ?? (atMost === undefined ? 1 : 0);
  const high = exactly ?? atMost ?? Number.POSITIVE_INFINITY;
  const expected =
    exactly !== undefined
      ? `exactly ${exactly}`
      : [low > 0 ? `at least ${low}` : '', high < Number.POSITIVE_INFINITY ? `at most ${high}` : ''].filter(Boolean).join(' and ');
  if (count >= low && count <= high) return { namespace: world.namespace, count, expected };
  const misses = nearMisses(entries, pattern, 3);
  const nearest = misses[0];
  throw codedError(
    CONTROL_ERROR_CODES,
    'REQUESTS_NOT_AS_EXPECTED',
    {
      expected,
      expectedCount: exactly ?? (low > 0 ? low : high),
      pattern: describePattern(pattern),
      namespace: world.namespace,
      count,
      nearest: nearest && `${nearest.method} ${nearest.path} (${nearest.requestId}): ${nearest.differences.join('; ')}`,
    },
    { namespace: world.namespace, count, expected, nearMisses: misses },
  );
}

export function requestEntry(world: World, requestId: string) {
  const entry = world.requestLog.get(requestId);
  if (!entry) {
    throw codedError(CONTROL_ERROR_CODES, 'REQUEST_NOT_IN_JOURNAL', { requestId, namespace: world.namespace });
  }
  return entry;
}

export function organizationView(platform: Platform, world: World, id: string) {
  const organization = platform.keyRing.organizations.get(id);
  if (!organization) {
    throw codedError(CONTROL_ERROR_CODES, 'ORGANIZATION_UNKNOWN', { id, known: [...platform.keyRing.organizations.keys()] });
  }
  return {
    id: organization.id,
    name: organization.name,
    balance: balanceOf(world, organization),
    keys: organization.keys.map((key) => ({ keyId: key.id, kind: key.kind })),
  };
}

export function setOrganizationBalance(platform: Platform, world: World, id: string, balance: number) {
  organizationView(platform, world, id);
  setBalance(world, id, balance);
  return organizationView(platform, world, id);
}

function withoutTrigger({ trigger: _trigger, ...entry }: CatalogEntry): CatalogEntry {
  return entry;
}

export async function catalogView(platform: Platform) {
  return {
    scenarios: platform.scenarios.all().map(({ name, description, behaviours }) => ({ name, description, behaviours })),
    fixtureKeys: platform.keyRing.fixtureKeys(),
    // Triggers are the coverage report's (GET /__sandbox/coverage shows each as a request).
    magicValues: (await platform.catalog.list('magicValues')).map(withoutTrigger),
    testIdentifiers: (await platform.catalog.list('testIdentifiers')).map(withoutTrigger),
    clientOperations: (await platform.catalog.list('clientOperations')).map(withoutTrigger),
    jobKinds: platform.jobs.kindNames(),
  };
}

/** The coverage report of the namespace (or of every namespace), optionally of one key (the key or its id). */
export async function coverageReport(
  platform: Platform,
  world: World,
  baseUrl: string,
  query: { scope: 'namespace' | 'all'; key?: string; kind?: OutcomeKind },
) {
  await platform.coverage.whenReady();
  const keyId = query.key === undefined ? undefined : (platform.keyRing.identify(query.key)?.keyId ?? query.key);
  // The curls of a report of every namespace call the default one.
  const namespace =
    query.scope === 'all' ? { journal: platform.worlds.get().requestLog.list() } : { namespace: world.namespace, journal: world.requestLog.list() };
  return platform.coverage.report({ ...namespace, keyId, kind: query.kind, baseUrl });
}

export async function clearCoverage(platform: Platform, world: World, scope: 'namespace' | 'all') {
  await platform.coverage.whenReady();
  const cleared = scope === 'all' ? platform.coverage.namespaceNames() : [world.namespace];
  platform.coverage.clear(scope === 'all' ? undefined : world.namespace);
  return { cleared };
}

export function createTestJob(platform: Platform, world: World, body: z.infer<typeof TestJobBodySchema>, scenarioFate: JobFate) {
  organizationView(platform, world, body.organizationId);
  const job = platform.jobs.create(world, { organizationId: body.organizationId, kind: TEST_JOB_KIND, input: body.input, fate: body.fate ?? scenarioFate });
  return platform.jobs.view(world, job).value;
}
