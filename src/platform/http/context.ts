/**
 * What every handler can reach: the platform (shared by all namespaces) and the request's own variables
 * (its world, principal, error family, explanations).
 */
import type { Context } from 'hono';
import type { AdminSession } from '../admin/admin-sessions.ts';
import type { Principal } from '../auth/organizations.ts';
import type { FundsPolicy } from '../billing/billing.ts';
import type { ErrorFamily } from '../errors/api-error.ts';
import type { JobFate } from '../jobs/jobs.ts';
import type { World } from '../namespaces/world.ts';
import { publicUrls, type Platform, type PublicUrls } from '../platform.ts';
import type { Behaviour } from '../scenarios/scenario.schema.ts';
import type { FiredScenarioRule } from '../request-log/request-log.ts';
import { keptAnswers } from '../kept-answers.ts';
import { requestHeader } from './fast-paths.ts';
import { hexHashParts } from '../random/random.ts';

export interface RequestVariables {
  platform: Platform;
  world: World;
  requestId: string;
  principal: Principal | undefined;
  /** The console session, on console routes. */
  adminSession: AdminSession | undefined;
  /** Unset: `default`. */
  errorFamily: ErrorFamily | undefined;
  /** The route's error `code` by status, for errors that carry none of their own (apiRoute's guard.errorCodes). */
  errorCodes: Partial<Record<number, string>> | undefined;
  /** Reasons for X-Sandbox-Explain (`explain`); unset until the first. */
  explanations: string[] | undefined;
  /** Scenarios named in the request's X-Sandbox-Scenario header. */
  requestScenarios: readonly string[];
  /** Scenario rules and behaviours that acted on this request (for the journal); unset until the first. */
  firedRules: FiredScenarioRule[] | undefined;
  /** The answer is a scenario's `respond` (a fault QA asked for, at any status it chose). */
  answeredByScenario: boolean | undefined;
  /**
   * Why the answer is what it is, as facts the coverage recorder reads (`validation:invalid_type`,
   * `code:BOT_CADENCE_INVALID`, `refusal:rate`): the structured side of X-Sandbox-Explain. Unset until the first.
   */
  outcomeFacts: string[] | undefined;
  /**
   * The documented operation (`GET /v1/sessions/{id}`) of the first route whose API-key guard ran: what
   * coverage counts the answer under, without looking the matched routes up again. Unset elsewhere.
   */
  operation: string | undefined;
  /** Whether the operation may answer 402 (its spec error list has it); unset outside /v1 routes. */
  refusesForFunds: boolean | undefined;
  /** The key's X-RateLimit-* headers, which every answer past the API-key guard carries; unset without rate limits. */
  rateLimitHeaders: Record<string, string> | undefined;
}

export interface AppEnv {
  Variables: RequestVariables;
}

export type AppContext = Context<AppEnv>;

/**
 * The request's lists (explanations, fired rules, outcome facts) are made on their first item: most requests
 * add to none or one of them, and every variable a request sets beyond eight makes Hono's map of them
 * grow (a new table of sixteen, some 500 bytes per request).
 */
type RequestList = 'explanations' | 'firedRules' | 'outcomeFacts';

function addTo<K extends RequestList>(c: AppContext, name: K, item: NonNullable<RequestVariables[K]>[number]): void {
  const list = c.get(name) as unknown[] | undefined;
  if (list === undefined) c.set(name, [item] as RequestVariables[K]);
  else list.push(item);
}

/** The error body family of the request's route (`errorFamily`, unset until a route's guard names another). */
export function errorFamilyOf(c: Context<AppEnv>): ErrorFamily {
  return c.get('errorFamily') ?? 'default';
}

/** Notes a fact about the answer for the coverage recorder (see `outcomeFacts`). */
export function noteOutcome(c: AppContext, fact: string): void {
  addTo(c, 'outcomeFacts', fact);
}

/** Notes a scenario rule or behaviour that acted on the request, for the journal. */
export function noteFiredRule(c: AppContext, rule: FiredScenarioRule): void {
  addTo(c, 'firedRules', rule);
}

/** Adds a reason to the X-Sandbox-Explain header (ASCII only: header values must be). */
export function explain(c: AppContext, reason: string): void {
  // A read of one id gives the same reason again and again: its ASCII form is kept.
  if (reason !== lastReason) {
    lastReason = reason;
    lastAsciiReason = NOT_PRINTABLE_ASCII.test(reason) ? reason.replace(NOT_PRINTABLE_ASCII_ALL, '?') : reason;
  }
  addTo(c, 'explanations', lastAsciiReason);
}

/** A character a header value may not hold; tested first, as most reasons (new each create) have none. */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;
const NOT_PRINTABLE_ASCII_ALL = /[^\x20-\x7e]/g;

/** The last reason `explain` was given, and its ASCII form. */
let lastReason: string | undefined;
let lastAsciiReason = '';

/** The public URLs of the origins clients used lately: every read that links builds them. */
const urlsByOrigin = keptAnswers<PublicUrls>(256);

/** A Host header that is only a host name or IP literal and an optional port (never reflected otherwise). */
const PLAIN_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The public URLs links are built on: --public-url when given; else the origin the client used (the
 * request's Host), so links work through a Docker port map or a proxy; without a usable Host (an
 * in-process `app.request`), the listening address.
 */
export function publicUrlsOf(c: AppContext): PublicUrls {
  const platform = c.get('platform');
  const host = requestHeader(c, 'host');
  if (!platform.settings.urlsFromRequestHost || host === undefined) return platform.urls;
  const url = c.req.url;
  // The Host and scheme of the request before are the usual case: no test, key or lookup to redo.
  const last = lastOrigin;
  if (last !== undefined && last.host === host && url.startsWith(last.scheme)) return last.urls;
  if (!PLAIN_HOST.test(host)) return platform.urls;
  const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
  const origin = `${scheme}//${host}`;
  const urls = urlsByOrigin(origin, () => publicUrls(origin));
  if (scheme !== '') lastOrigin = { scheme, host, urls };
  return urls;
}

/** The plain Host, lower-case scheme (with its colon) and URLs of the last request `publicUrlsOf` built on. */
let lastOrigin: { scheme: string; host: string; urls: PublicUrls } | undefined;

/** The funds policy of the request's operation (set by its API-key guard). */
export function fundsPolicyOf(c: AppContext): FundsPolicy {
  return { refusesForFunds: c.get('refusesForFunds') !== false, explain: (reason) => explain(c, reason) };
}

/** The authenticated principal; the API-key guard guarantees it on /v1 routes. */
export function principalOf(c: AppContext): Principal {
  const principal = c.get('principal');
  if (!principal) throw new Error('route has no API-key guard');
  return principal;
}

/**
 * Whether a behaviour scenario is on for this request (namespace-wide or via the header). Asking is
 * acting on it: the scenario's behaviour counts as fired, in the journal and in its fire count.
 */
export function behaviourOn(c: AppContext, behaviour: Behaviour): boolean {
  const scenarios = c.get('world').scenarios;
  const scenario = scenarios.behaviourSource(behaviour, c.get('requestScenarios'));
  if (scenario === undefined) return false;
  scenarios.recordFire(scenario, behaviour);
  noteFiredRule(c, { scenario, effect: `behaviour ${behaviour}` });
  return true;
}

/** The fate of an async job created by this request, from the async-jobs-* scenarios. */
export function jobFateFor(c: AppContext): JobFate {
  if (behaviourOn(c, 'async-jobs-stuck')) return 'stuck';
  if (behaviourOn(c, 'async-jobs-fail')) return 'fail';
  return 'normal';
}

/**
 * The request is authenticated (an API key, or the operator's control plane and console): its namespace
 * may now be created. Until then a new namespace is only a visitor world that nothing keeps.
 */
export function admitNamespace(c: AppContext): void {
  const { worlds } = c.get('platform');
  if (worlds.keeps(c.get('world'))) return;
  c.set('world', worlds.admit(c.get('world')));
  // Numbered as a visitor until now: the request takes its number in the namespace it joins.
  numberRequest(c);
}

/** The request's id (X-Request-Id, the journal), from the signing secret and the request's number in its world. */
export function numberRequest(c: AppContext): void {
  const platform = c.get('platform');
  // Joined, not concatenated: one flat string of 24 characters. The journal keeps it for a thousand requests,
  // and `req_${hex.slice(0, 20)}` would keep a pair of string parts and the whole 64-character hash with it.
  c.set('requestId', ['req_', hexHashParts(platform.signingSecret, ...platform.worlds.requestNumber(c.get('world'))).slice(0, 20)].join(''));
}
