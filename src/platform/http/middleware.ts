/**
 * The request pipeline, top to bottom:
 *   request context (id, namespace → world, request scenarios, explain header, journal, durability)
 *   → API-key guard on /v1 routes (auth → sandbox-write rule → rate limit → scenarios)
 *   → validation (zod, via the route) → handler.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { ApiError, errorBody, type ErrorFamily } from '../errors/api-error.ts';
import { codedError, PLATFORM_ERROR_CODES } from '../errors/error-codes.ts';
import { DEFAULT_NAMESPACE, NAMESPACE_PATTERN, type World } from '../namespaces/world.ts';
import { type FiredScenarioRule, journaledHeaders, keptQuery, sentJsonText } from '../request-log/request-log.ts';
import { admitNamespace, errorFamilyOf, explain, noteFiredRule, numberRequest, noteOutcome, type AppContext, type AppEnv } from './context.ts';
import type { Platform } from '../platform.ts';
import { ruleKinds } from '../scenarios/scenario.schema.ts';
import type { ScenarioEffect } from '../scenarios/scenarios.ts';
import type { Observation } from '../coverage/coverage.ts';
import { round } from '../numbers.ts';
import { StorageError } from '../store/store.ts';
import { receivedBody, requestHeader, requestHeaderLines, requestHeaders, sentBody, withHeaders } from './fast-paths.ts';
import type { InvalidKeyLimiter } from '../rate-limit/invalid-key-limiter.ts';

/** Paths that are not recorded in the request journal (the sandbox's own surfaces). */
const UNJOURNALED = /^\/(__sandbox|console|docs|openapi\.json|favicon\.ico|healthz)(\/|$)/;

/** Sets up the request's variables and, after the handler, the journal entry and durability wait. */
export function requestContext(platform: Platform) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    c.set('platform', platform);
    // principal, adminSession, errorFamily, errorCodes, refusesForFunds, answeredByScenario and the lists
    // (explanations, firedRules, outcomeFacts) read as undefined until set; requestScenarios is set with
    // the request's refusal below.

    // Most requests carry no query: Hono's search of one is not asked for.
    const hasQuery = c.req.url.includes('?');
    const namespace = requestHeader(c, 'x-sandbox-namespace') ?? (hasQuery ? c.req.query('namespace') : undefined) ?? DEFAULT_NAMESPACE;
    // A world must exist for the error handler even when the namespace is refused. A new namespace is a
    // visitor until the request is authenticated (admitNamespace): a request without a key creates none.
    const named = NAMESPACE_PATTERN.test(namespace) ? namespace : DEFAULT_NAMESPACE;
    c.set('world', platform.worlds.existing(named) ?? platform.worlds.visitor(named));
    const world = c.get('world');
    numberRequest(c);
    const startedAtMs = world.clock.now();
    const changesBefore = platform.store.changeCount;

    const refusal = requestRefusal(world, namespace, requestHeader(c, 'x-sandbox-scenario'));
    c.set('requestScenarios', typeof refusal === 'string' ? NO_SCENARIOS : refusal);
    try {
      if (typeof refusal === 'string') {
        explain(c, `400: ${refusal}`);
        c.res = c.json(errorBody('default', refusal), 400);
        return;
      }
      // While the disk is full, a write first retries the changes still waiting, and is refused if they fail.
      if (platform.store.problem && !READ_METHODS.has(c.req.method) && !(await saved(c, platform.store.durable()))) return;
      await next();
      // The answer leaves only once the writes it reports are on disk (a read with no append running has none).
      if (!platform.store.durableAlready(changesBefore)) await saved(c, platform.store.durable(changesBefore));
    } finally {
      // Runs for successes and for errors turned into responses by onError alike.
      const explanations = c.get('explanations');
      // The admitted world when the request created its namespace: the same object as the visitor, kept.
      const world = c.get('world');
      const explanation = explanations !== undefined && explanations.length > 0 ? explanations.join('; ') : undefined;
      if (c.res) {
        const added: Record<string, string> = { 'x-request-id': c.get('requestId') };
        const rateLimitHeaders = c.get('rateLimitHeaders');
        if (rateLimitHeaders !== undefined) Object.assign(added, rateLimitHeaders);
        if (explanation !== undefined) added['x-sandbox-explain'] = explanation;
        if (world.namespace !== DEFAULT_NAMESPACE) added['x-sandbox-namespace'] = world.namespace;
        const response = withHeaders(c.res, added);
        if (response !== c.res) {
          // Unset first: replacing a response copies the old one's headers into a Headers object.
          c.res = undefined;
          c.res = response;
        }
      }
      if (!UNJOURNALED.test(c.req.path)) {
        const limits = world.requestLog.limits;
        const sending = c.res ? sentBody(c.res, limits) : undefined;
        const sent = sending instanceof Promise ? await sending : sending;
        if (sent && sent.response !== c.res) {
          // Unset first: replacing a response copies it (reading its body again) to merge the headers.
          c.res = undefined;
          c.res = sent.response;
        }
        const receiving = receivedBody(c.req, requestHeader(c, 'content-length'), limits);
        const requestBody = receiving instanceof Promise ? await receiving : receiving;
        world.requestLog.add({
          requestId: c.get('requestId'),
          method: c.req.method,
          path: journaledPath(c.req.path),
          query: hasQuery ? keptQuery(c.req.query()) : NO_QUERY,
          headers: journaledHeaders(requestHeaderLines(c), () => requestHeaders(c)),
          requestBody,
          status: c.res?.status ?? 500,
          responseBody: sent?.body,
          explain: explanation,
          keyId: c.get('principal')?.keyId ?? null,
          scenarios: orNoScenarios(world.scenarios.effectiveNames(c.get('requestScenarios'))),
          firedRules: c.get('firedRules') ?? NO_FIRED_RULES,
          durationMs: round(performance.now() - started, 2),
          startedAtMs,
          finishedAtMs: world.clock.now(),
        });
        // Synchronous unless a class needs the body: an await of nothing would still cost a turn per request.
        const recorded = platform.coverage.recorder.enabled ? recordCoverage(c, world, requestBody) : undefined;
        if (recorded) await recorded;
      }
    }
  });
}

/** Whether the store's changes are on disk; if not, the answer becomes the 507 that says why and what to do. */
async function saved(c: AppContext, durable: Promise<void>): Promise<boolean> {
  try {
    await durable;
    return true;
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    explain(c, `507: ${error.message}`);
    c.res = undefined;
    c.res = c.json(errorBody(errorFamilyOf(c), error.message), 507);
    return false;
  }
}

/**
 * Tells the coverage recorder which operation answered what, and the facts noted on the way; `journaled`
 * is the request body as the journal kept it.
 */
function recordCoverage(c: AppContext, world: World, journaled: unknown): Promise<void> | undefined {
  const coverage = c.get('platform').coverage;
  const noted = c.get('outcomeFacts') ?? NOTHING_NOTED;
  const fired = c.get('firedRules');
  let facts = noted;
  if (fired !== undefined) {
    const withRules = [...noted];
    for (const { scenario, rule: ruleIndex } of fired) {
      withRules.push(`scenario:${scenario}`);
      const rule = ruleIndex === undefined ? undefined : world.scenarios.get(scenario)?.rules[ruleIndex];
      for (const kind of rule ? ruleKinds(rule) : ['behaviour']) withRules.push(`scenario-kind:${kind}`);
    }
    facts = withRules;
  }
  // Before the catalog exists (the areas are evaluated on first use), the operation's name (or the matched
  // routes) is kept to be looked up when it is counted, and the body too, since its operation may tell
  // classes apart by it.
  const ready = coverage.ready;
  const principal = c.get('principal');
  const operationName = c.get('operation');
  // Every member given at once: observations of one shape, which the recorder compares with the one before.
  const observation: Observation = {
    requestId: c.get('requestId'),
    keyId: principal?.keyId ?? null,
    keyKind: principal?.kind,
    operation: ready ? (coverage.operationNamed(operationName) ?? coverage.operationOf(matchedRoutes(c))) : undefined,
    operationName: ready ? undefined : operationName,
    routes: ready || operationName !== undefined ? undefined : matchedRoutes(c),
    path: c.req.path,
    status: c.res?.status ?? 500,
    facts,
    body: undefined,
    factsOnly: undefined,
  };
  // Only the classes of a few operations are told apart by body members. The journal keeps a JSON body's
  // text as sent unless it is long (an image as base64): that one is read again from the text Hono kept.
  // A request that brought no body (a GET sent with a JSON content type, as many clients send every call)
  // is not read: reading it made the adapter build a full Request per call, at twice a read's CPU, and
  // after each full collection the runtime's finalizers for those Requests held the server for 30-120 ms.
  if (ready ? observation.operation?.readsBody : true) {
    observation.body = sentJsonText(journaled);
    if (observation.body === undefined && journaled !== undefined && /json/i.test(requestHeader(c, 'content-type') ?? '')) {
      return c.req.text().then(
        (text) => coverage.record(world.namespace, { ...observation, body: text }),
        () => coverage.record(world.namespace, observation),
      );
    }
  }
  coverage.record(world.namespace, observation);
  return undefined;
}

/**
 * The journal's query, fired rules and scenarios of a request that had none (most): one record and one list
 * each for all of them, never changed (as the journal's shared header records), so an entry the journal
 * holds does not hold empty objects of its own: a full journal of them is what most of a read's garbage
 * collection copies (a journal of one entry: 6-14 % less CPU per stored read).
 */
const NO_QUERY: Record<string, string> = {};
const NO_FIRED_RULES: FiredScenarioRule[] = [];
const NO_SCENARIO_NAMES: string[] = [];

/**
 * The path of the request before, journaled again when the next one asks for the same (a client polling one
 * resource): the journal then holds one string for them all, where each path is a slice holding its request's URL.
 */
let lastJournaledPath = '';
const journaledPath = (path: string) => (path === lastJournaledPath ? lastJournaledPath : (lastJournaledPath = path));
const orNoScenarios = (names: string[]) => (names.length === 0 ? NO_SCENARIO_NAMES : names);

/** No outcome fact: one list for all the requests that noted none, never changed. */
const NOTHING_NOTED: readonly never[] = Object.freeze([]);

/** The scenarios of a request that names none (most requests): one list for them all, never changed. */
const NO_SCENARIOS: readonly string[] = Object.freeze([]);

/** A message refusing the namespace or scenario headers, or the request's scenarios. */
function requestRefusal(world: World, namespace: string, scenarioHeader: string | undefined): string | readonly string[] {
  if (!NAMESPACE_PATTERN.test(namespace)) {
    return `Invalid X-Sandbox-Namespace "${namespace.slice(0, 80)}": use 1-64 letters, digits, "_", "." or "-", not only dots.`;
  }
  // Most requests name no scenario.
  if (scenarioHeader === undefined) return NO_SCENARIOS;
  const names = scenarioHeader
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !world.scenarios.get(name));
  if (unknown.length > 0) {
    return `Unknown scenario ${unknown.map((n) => `"${n.slice(0, 64)}"`).join(', ')} in X-Sandbox-Scenario. Known: ${world.scenarios.names().join(', ')}.`;
  }
  return names;
}

/**
 * The operations whose spec error list says "403 key missing" (api.md, per endpoint): every other /v1
 * operation answers 401 for a missing key. Families are path prefixes, so a new iGaming or AML route
 * inherits its family's status without its author having to know.
 */
const MISSING_KEY_FORBIDDEN: readonly { prefix: string; spec: string }[] = [
  { prefix: '/v1/screening/adverse-media', spec: 'POST /v1/screening/adverse-media: 403 key missing' },
  { prefix: '/v1/screening/phone-ownership', spec: 'POST /v1/screening/phone-ownership: 403 key missing' },
  { prefix: '/v1/screening/phone-trust', spec: 'POST /v1/screening/phone-trust: errors as for phone ownership' },
  { prefix: '/v1/async-jobs/', spec: 'GET /v1/async-jobs/{jobId}: 403 key missing' },
  { prefix: '/v1/igaming/', spec: 'iGaming self-exclusion operations: 403 key header missing' },
  { prefix: '/v1/aml/', spec: 'POST /v1/aml/bots/{bot_id}/monitored-users: 403 key missing' },
];

/** The status of a request without x-api-key on the route at `path` (an OpenAPI path such as /v1/async-jobs/{jobId}). */
export function missingKeyStatusFor(path: string): 401 | 403 {
  return MISSING_KEY_FORBIDDEN.some(({ prefix }) => path.startsWith(prefix)) ? 403 : 401;
}

export interface GuardPolicy {
  /** The documented operation, `METHOD /openapi/{path}` (set by `apiRoute`). */
  operation: string;
  /** Status for a request without x-api-key (from `missingKeyStatusFor`, set by `apiRoute`). */
  missingKeyStatus: 401 | 403;
  /** Whether the operation's spec error list has 402: only then may it refuse for funds (set by `apiRoute`). */
  refusesForFunds: boolean;
  /** Sandbox keys may call this mutating route (the AML enrolment). */
  allowSandboxWrites?: boolean;
  errorFamily?: ErrorFamily;
  /** The route family's error `code` by status, for errors that carry none (the workflow endpoints' list). */
  errorCodes?: Partial<Record<number, string>>;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The peer address of the request's socket; none in-process (`app.request`), where the caller is the embedding code. */
function clientAddress(c: AppContext): string | undefined {
  return c.env ? getConnInfo(c).remote.address : undefined;
}

/**
 * Counts a wrong secret (API key, admin token) from the client's address against `limiter`; past its limit
 * in the minute, throws 429 with Retry-After. In-process requests have no address and are not counted.
 */
export function countWrongGuess(c: AppContext, limiter: InvalidKeyLimiter, what: string, detail: string, coverageFact?: string): void {
  const address = clientAddress(c);
  const limited = address === undefined ? undefined : limiter.fail(address, c.get('platform').worlds.get(DEFAULT_NAMESPACE).clock.now());
  if (limited) {
    if (coverageFact !== undefined) noteOutcome(c, coverageFact);
    throw new ApiError(
      429,
      `Too many ${what} from your address: more than ${limiter.perMinute} in a minute. Retry after ${limited.retryAfterSeconds} s.`,
      { detail },
      { 'Retry-After': String(limited.retryAfterSeconds) },
    );
  }
}

/**
 * Authenticates the API key, applies the sandbox-write rule, the rate limit and the scenarios. Not an
 * async function: a request that meets no scenario rule (most) goes on with `next()`'s own promise, where
 * an async function would make one more and settle it a turn later; refusals throw, as they would reject.
 */
export function apiKeyGuard(policy: GuardPolicy) {
  return createMiddleware<AppEnv>((c, next) => {
    const platform = c.get('platform');
    // The first guard's, as coverage took the first documented route that matched.
    if (c.get('operation') === undefined) c.set('operation', policy.operation);
    // Set only when they change what is read (unset reads as `default` and as none): see `addTo` in context.ts.
    const family = policy.errorFamily ?? 'default';
    if (family !== errorFamilyOf(c)) c.set('errorFamily', family);
    if (policy.errorCodes !== c.get('errorCodes')) c.set('errorCodes', policy.errorCodes);
    c.set('refusesForFunds', policy.refusesForFunds);

    const presented = requestHeader(c, 'x-api-key');
    if (presented === undefined || presented.trim() === '') {
      throw new ApiError(policy.missingKeyStatus, 'Missing API key', {
        detail: 'Send your organization API key in the x-api-key header.',
      });
    }
    const principal = platform.keyRing.identify(presented);
    if (!principal) {
      countWrongGuess(
        c,
        platform.invalidKeys,
        'invalid API keys',
        'Fix the x-api-key header: valid keys are served meanwhile, only wrong ones are refused.',
        'refusal:invalid-keys',
      );
      throw new ApiError(401, 'Invalid API key', {
        detail: 'The x-api-key header does not hold a known API key. Check for typos or regenerate the key in the admin console.',
      });
    }
    if (principal.kind === 'revoked') {
      throw new ApiError(401, 'API key revoked', { detail: 'This API key was revoked. Use an active key of the organization.' });
    }
    c.set('principal', principal);
    admitNamespace(c);
    const world = c.get('world');

    if (principal.kind === 'sandbox' && !READ_METHODS.has(c.req.method) && !policy.allowSandboxWrites) {
      throw codedError(PLATFORM_ERROR_CODES, 'SANDBOX_KEY_READ_ONLY', undefined);
    }

    if (world.rateLimiter) {
      const decision = world.rateLimiter.take(principal.keyId, world.clock.now());
      if (!decision.allowed) {
        noteOutcome(c, `refusal:${decision.reason}`);
        const facts = { ...world.rateLimiter.limits, retryAfterSeconds: decision.retryAfterSeconds };
        throw codedError(PLATFORM_ERROR_CODES, decision.reason === 'rate' ? 'RATE_LIMITED' : 'DAILY_QUOTA_EXCEEDED', facts, {}, decision.headers);
      }
      // Added with the request id once the answer exists: Hono's c.header() before an answer makes a Headers
      // object, which loads undici on a process's first request (some 35 ms) and sends every answer down the
      // adapter's slower path.
      c.set('rateLimitHeaders', decision.headers);
    }

    const effects = world.scenarios.effectsFor({ method: c.req.method, path: c.req.path, keyKind: principal.kind }, c.get('requestScenarios'));
    // Most requests meet no scenario rule: straight on, without sorting out effects that are not there.
    if (effects.length === 0) return next();
    return withScenarioEffects(c, next, policy, effects);
  });
}

/** The scenario rules a request meets: their latency, then their answer, or on to the route. */
async function withScenarioEffects(c: AppContext, next: Next, policy: GuardPolicy, effects: readonly ScenarioEffect[]): Promise<Response | undefined> {
  const platform = c.get('platform');
  const world = c.get('world');
  const delays = effects.filter((effect) => effect.rule.latencyMs > 0);
  // A funds refusal only where the operation's spec lists 402, as for a real empty balance.
  const answer = effects.find((effect) => effect.rule.respond && (effect.rule.respond.status !== 402 || policy.refusesForFunds));
  const skipped = effects.find((effect) => effect.rule.respond?.status === 402 && !policy.refusesForFunds);
  for (const effect of effects.filter((e) => e.rule.latencyMs > 0 || e === answer)) {
    world.scenarios.recordFire(effect.scenario, effect.index);
    const acts = [effect.rule.latencyMs > 0 ? `latency ${effect.rule.latencyMs} ms` : '', effect === answer ? `respond ${effect.rule.respond?.status}` : ''];
    noteFiredRule(c, { scenario: effect.scenario, rule: effect.index, effect: acts.filter(Boolean).join(', ') });
  }
  const latency = delays.reduce((sum, effect) => sum + effect.rule.latencyMs, 0);
  if (latency > 0) {
    explain(c, `scenario ${delays.map((e) => e.scenario).join(',')}: +${latency} ms`);
    await platform.sleep(latency);
  }
  if (skipped) explain(c, `scenario ${skipped.scenario}: no 402 here, the spec lists none for this operation`);
  if (answer?.rule.respond) {
    explain(c, `scenario ${answer.scenario}`);
    const { status, error, body, headers, extras } = answer.rule.respond;
    c.set('answeredByScenario', true);
    // A 2xx stub's body was checked against the operation's response when the scenario came in.
    if (status < 300) return c.json(body as object, status as 200, headers);
    throw new ApiError(status as ApiError['status'], error as string, extras, headers);
  }
  await next();
}
