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
    /** Answer with this status instead of running the endpoint; the body is the route's error shape. */
    respond: z
      .object({
        status: z.number().int().min(400).max(599),
        error: z.string().min(1),
        headers: z.record(z.string(), z.string()).default({}),
        /** Extra body members, e.g. `{ "code": "QUOTA_EXCEEDED" }`. */
        extras: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
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
