/**
 * The control plane's verbs: what tests and QA use to drive the sandbox (reset, clock, scenarios,
 * journal, balances, catalog, test jobs). Each acts on one namespace's world.
 */
import type { z } from '@hono/zod-openapi';
import { clockRangeProblem, durationToMs } from '../platform/clock/virtual-clock.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { balanceOf, setBalance } from '../platform/billing/billing.ts';
import type { Platform } from '../platform/http/context.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { JobFate } from '../platform/jobs/jobs.ts';
import type { Scenario } from '../platform/scenarios/scenario.schema.ts';
import type { ClockChangeSchema, TestJobBodySchema } from './control.schemas.ts';

export const TEST_JOB_KIND = 'sandbox.echo';

/** Resets one namespace, or every namespace when none is named. */
export async function resetSandbox(platform: Platform, namespace: string | undefined, seed: number | undefined): Promise<string[]> {
  const names = namespace !== undefined ? [namespace] : platform.worlds.names();
  if (namespace === undefined) {
    platform.invalidKeys.clear();
    platform.adminTokenGuesses.clear();
  }
  for (const name of names) {
    platform.worlds.reset(name, seed);
    await platform.uploads.dropNamespace(name);
  }
  return names;
}

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
    throw new ApiError(
      400,
      `Invalid clock change: it would move the clock to ${Number.isFinite(target) ? `${target} ms since the epoch` : 'a date no clock can hold'}, but ${outOfRange}. Send a smaller "advance" or a "set" inside that range.`,
    );
  }
  // Freezing first makes `set` exact: a frozen clock does not move between the two.
  if (change.freeze !== undefined) world.clock.freeze(change.freeze);
  if (setTo !== undefined) world.clock.set(setTo);
  if (advanceBy !== 0) world.clock.advance(advanceBy);
  return clockView(world);
}

export function scenarioView(world: World, name: string) {
  const scenario = world.scenarios.get(name);
  if (!scenario) throw new ApiError(404, `Unknown scenario "${name}". Known: ${world.scenarios.names().join(', ')}.`);
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

/** Adds a scenario (already validated against the file schema) to the namespace, inactive. */
export function addScenario(world: World, scenario: Scenario) {
  if (world.scenarios.get(scenario.name)) {
    throw new ApiError(
      409,
      `A scenario named "${scenario.name}" exists in this namespace: choose another name, or DELETE /__sandbox/scenarios/${scenario.name} first if you added it.`,
    );
  }
  world.scenarios.add(scenario);
  return scenarioView(world, scenario.name);
}

export function removeScenario(world: World, name: string) {
  scenarioView(world, name);
  if (!world.scenarios.isAdded(name)) {
    throw new ApiError(409, `Scenario "${name}" comes from a file and cannot be removed; deactivate it with POST /__sandbox/scenarios/${name}/deactivate.`);
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

export function requestEntry(world: World, requestId: string) {
  const entry = world.requestLog.get(requestId);
  if (!entry) {
    throw new ApiError(
      404,
      `No request "${requestId}" in the journal of namespace "${world.namespace}": it may be older than the journal keeps, or in another namespace.`,
    );
  }
  return entry;
}

export function organizationView(platform: Platform, world: World, id: string) {
  const organization = platform.keyRing.organizations.get(id);
  if (!organization) {
    throw new ApiError(404, `Unknown organization "${id}". Known: ${[...platform.keyRing.organizations.keys()].join(', ')}.`);
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

export function catalogView(platform: Platform) {
  return {
    scenarios: platform.scenarios.all().map(({ name, description, behaviours }) => ({ name, description, behaviours })),
    fixtureKeys: platform.keyRing.fixtureKeys(),
    magicValues: platform.catalog.list('magicValues'),
    testIdentifiers: platform.catalog.list('testIdentifiers'),
    clientOperations: platform.catalog.list('clientOperations'),
    jobKinds: platform.jobs.kindNames(),
  };
}

export function createTestJob(platform: Platform, world: World, body: z.infer<typeof TestJobBodySchema>, scenarioFate: JobFate) {
  organizationView(platform, world, body.organizationId);
  const job = platform.jobs.create(world, { organizationId: body.organizationId, kind: TEST_JOB_KIND, input: body.input, fate: body.fate ?? scenarioFate });
  return platform.jobs.view(world, job).view;
}
