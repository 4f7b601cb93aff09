/**
 * The scenario file format (scenarios/*.json). A scenario is a named set of rules: which requests a
 * rule matches, and what it does to them (answer with a status, add latency), plus named behaviours
 * that resource areas read (e.g. `async-jobs-fail`).
 */
import { z } from 'zod';

export const BEHAVIOURS = {
  'async-jobs-fail': 'async jobs created while active end in status failed',
  'async-jobs-stuck': 'async jobs created while active stay in status processing forever',
  'auto-decline': 'sessions that finish end REJECTED with meta_data.declinedData (AI auto-decline)',
} as const;
export type Behaviour = keyof typeof BEHAVIOURS;

/** What a `respond` lacks or has too much of for its status class, if anything. */
function respondProblem(respond: { status: number; error?: string; body?: unknown; extras: Record<string, unknown> }) {
  const { status } = respond;
  if (status >= 300 && status < 400) return { field: 'status', message: 'a stub answers a 2xx (with "body") or a 4xx/5xx (with "error"), not a 3xx' };
  if (status < 300) {
    if (respond.body === undefined) return { field: 'body', message: `a ${status} answer needs "body": the operation's answer at that status` };
    if (respond.error !== undefined || Object.keys(respond.extras).length > 0)
      return {
        field: respond.error !== undefined ? 'error' : 'extras',
        message: `"error" and "extras" make error answers; a ${status} answer gives "body" alone`,
      };
    return undefined;
  }
  if (respond.body !== undefined) return { field: 'body', message: `"body" is for 2xx answers; a ${status} answer gives "error" (and "extras")` };
  if (respond.error === undefined) return { field: 'error', message: `a ${status} answer needs "error": the sentence the client shows` };
  return undefined;
}

const MethodSchema = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export const ScenarioRuleSchema = z
  .object({
    match: z
      .object({
        /** Omit for every method. */
        methods: z.array(MethodSchema).min(1).optional(),
        /** Glob on the path: `*` one segment, `**` any number of segments, e.g. `/v1/screening/**`. */
        path: z.string().startsWith('/', 'a path pattern starts with "/"').default('/v1/**'),
        /** Omit for every key kind. */
        keyKinds: z
          .array(z.enum(['live', 'sandbox']))
          .min(1)
          .optional(),
      })
      .strict()
      .default({ path: '/v1/**' }),
    /**
     * Answer with this status instead of running the endpoint: a 4xx/5xx with the route's error shape
     * (`error`, `extras`), or a 2xx with `body`, which must be what the operation answers at that status
     * (checked against its response schema when the scenario is loaded or added).
     */
    respond: z
      .object({
        status: z.number().int().min(200).max(599),
        error: z.string().min(1).optional(),
        /** The whole JSON body of a 2xx answer. */
        body: z.unknown().optional(),
        headers: z.record(z.string(), z.string()).default({}),
        /** Extra body members of an error, e.g. `{ "code": "QUOTA_EXCEEDED" }`. */
        extras: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .superRefine((respond, context) => {
        const problem = respondProblem(respond);
        if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
      })
      .optional(),
    /** Delay before the endpoint runs (or before the scenario's answer). */
    latencyMs: z.number().int().min(0).max(120_000).default(0),
    /** Only the first N matching requests are affected. */
    firstN: z.number().int().min(1).optional(),
    /** The first N matching requests pass untouched; the rule applies from the next one on. */
    afterN: z.number().int().min(0).default(0),
    /** Seeded: the same seed and the same request order affect the same requests. */
    probability: z.number().min(0).max(1).default(1),
  })
  .strict()
  .refine((rule) => rule.respond !== undefined || rule.latencyMs > 0, {
    message: 'a rule needs "respond" or a "latencyMs" above 0',
  });
export type ScenarioRule = z.infer<typeof ScenarioRuleSchema>;

/** What a rule does, as a client meets it: the kinds of fault a suite should have handled. */
export const SCENARIO_RULE_KINDS = [
  { kind: 'error', title: 'a scenario answers an error instead of the endpoint', example: { respond: { status: 503, error: 'Unavailable' } } },
  {
    kind: 'stub',
    title: 'a scenario answers a success of its own (a 2xx stub) instead of the endpoint',
    example: {
      match: { methods: ['GET'], path: '/v1/auth/verify' },
      respond: {
        status: 200,
        body: { valid: true, organization: { id: 'org_acme', name: 'Acme', status: 'active' }, key: { id: 'key_live_acme', kind: 'live' } },
      },
    },
  },
  { kind: 'delay', title: 'a scenario adds latency before the answer', example: { latencyMs: 1500 } },
  { kind: 'flaky', title: 'a scenario fails a seeded share of requests', example: { respond: { status: 503, error: 'Unavailable' }, probability: 0.2 } },
  {
    kind: 'fail-n-times',
    title: 'a scenario fails the first N requests, then lets them through',
    example: { respond: { status: 503, error: 'Unavailable' }, firstN: 2 },
  },
  { kind: 'after-n', title: 'a scenario lets N requests through, then fails', example: { respond: { status: 503, error: 'Unavailable' }, afterN: 2 } },
  {
    kind: 'behaviour',
    title: 'a scenario changes how the endpoint behaves (async jobs fail or stick, auto-decline)',
    example: { behaviours: ['async-jobs-fail'] },
  },
] as const;
export type ScenarioRuleKind = (typeof SCENARIO_RULE_KINDS)[number]['kind'];

/**
 * The kinds of a rule (a rule that answers an error to its first 2 requests with probability 0.5 is three).
 * A 2xx stub is a `stub`, never a failure: its firstN, afterN and probability say which requests it
 * answers, not which fail.
 */
export function ruleKinds(rule: ScenarioRule): ScenarioRuleKind[] {
  const kinds: ScenarioRuleKind[] = [];
  const fails = rule.respond !== undefined && rule.respond.status >= 300;
  if (rule.respond) kinds.push(fails ? 'error' : 'stub');
  if (rule.latencyMs > 0) kinds.push('delay');
  if (!fails) return kinds;
  if (rule.probability < 1) kinds.push('flaky');
  if (rule.firstN !== undefined) kinds.push('fail-n-times');
  if (rule.afterN > 0) kinds.push('after-n');
  return kinds;
}

export const ScenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a scenario name is kebab-case (a-z, 0-9, -), at most 64 characters'),
    description: z.string().min(1),
    rules: z.array(ScenarioRuleSchema).default([]),
    behaviours: z.array(z.enum(Object.keys(BEHAVIOURS) as [Behaviour, ...Behaviour[]])).default([]),
  })
  .strict()
  .refine((scenario) => scenario.rules.length > 0 || scenario.behaviours.length > 0, {
    message: 'a scenario needs at least one rule or behaviour',
  });
export type Scenario = z.infer<typeof ScenarioSchema>;
