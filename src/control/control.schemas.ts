import { z } from '@hono/zod-openapi';
import { DurationSchema } from '../platform/clock/virtual-clock.ts';

export const NamespaceQuerySchema = z.object({
  namespace: z.string().optional().openapi({ description: 'Namespace to act on (same as the X-Sandbox-Namespace header).' }),
});

export const ResetBodySchema = z
  .object({
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
  })
  .strict()
  .openapi('SandboxResetRequest');

export const ResetResponseSchema = z.object({ reset: z.array(z.string()), seed: z.number().int().optional() }).openapi('SandboxResetResponse');

export const ClockStateSchema = z.object({ namespace: z.string(), mode: z.enum(['real', 'frozen']), now: z.string() }).openapi('SandboxClock');

export const ClockChangeSchema = z
  .object({
    advance: DurationSchema.optional().openapi({ description: 'Move the clock forward: "90s", "15m", "2h", "1d", "250ms" or milliseconds.', example: '90s' }),
    set: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z' }).optional(),
    freeze: z.boolean().optional(),
  })
  .strict()
  .refine((change) => change.advance !== undefined || change.set !== undefined || change.freeze !== undefined, {
    message: 'send at least one of "advance", "set" or "freeze"',
  })
  .openapi('SandboxClockChange');

export const ScenarioNameParamsSchema = z.object({
  name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'rate-limited' }),
});

export const ScenarioViewSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    active: z.boolean(),
    origin: z
      .enum(['file', 'runtime'])
      .openapi({ description: 'file: shipped or from --scenarios-dir; runtime: added to this namespace with POST /__sandbox/scenarios.' }),
    behaviours: z.array(z.string()),
    behaviourFires: z.record(z.string(), z.number().int()).openapi({ description: 'How often each behaviour acted on a request since activation.' }),
    rules: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: 'The rules as in the file, each with `fired`: how often it acted on a request since activation.' }),
  })
  .openapi('SandboxScenario');

export const ScenarioRemovedSchema = z.object({ removed: z.string() }).openapi('SandboxScenarioRemoved');

export const ScenarioListSchema = z.object({ namespace: z.string(), scenarios: z.array(ScenarioViewSchema) }).openapi('SandboxScenarioList');

export const RequestLogQuerySchema = NamespaceQuerySchema.extend({
  method: z.string().optional(),
  path: z.string().optional().openapi({ description: 'Exact path, or a prefix ending in *.' }),
  status: z.coerce.number().int().min(100).max(599).optional(),
  key: z.string().optional().openapi({ description: 'API key id (key_live_demo) or the API key itself (sk_live_demo), which is mapped to its id.' }),
});

export const RequestIdParamsSchema = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'req_0f3a9c1e2b4d5a6c7e8f' }),
});

export const RequestLogEntrySchema = z
  .object({
    requestId: z.string(),
    method: z.string(),
    path: z.string(),
    query: z.record(z.string(), z.string()),
    headers: z.record(z.string(), z.string()).openapi({ description: 'Request headers; x-api-key, Authorization and cookies are never stored.' }),
    requestBody: z
      .unknown()
      .optional()
      .openapi({
        description:
          'JSON bodies as values, text as a string, files and binary bodies as a summary; long strings shortened, secrets and upload signatures redacted.',
      }),
    status: z.number().int(),
    responseBody: z.unknown().optional(),
    explain: z.string().optional().openapi({ description: 'The X-Sandbox-Explain header of the response.' }),
    keyId: z.string().nullable(),
    scenarios: z.array(z.string()).openapi({ description: 'Scenarios active for the request.' }),
    firedRules: z
      .array(z.object({ scenario: z.string(), rule: z.number().int().optional(), effect: z.string() }))
      .openapi({ description: 'Scenario rules (index in the scenario) and behaviours that acted on the request.' }),
    durationMs: z.number(),
    startedAt: z.string(),
    finishedAt: z.string(),
  })
  .openapi('SandboxRequestLogEntry');

export const RequestLogSchema = z.object({ namespace: z.string(), requests: z.array(RequestLogEntrySchema) }).openapi('SandboxRequestLog');

export const OrganizationParamsSchema = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'org_demo' }),
});

export const BalanceBodySchema = z
  .object({ balance: z.number().int().min(0).max(1_000_000_000) })
  .strict()
  .openapi('SandboxBalanceChange');

export const OrganizationViewSchema = z
  .object({ id: z.string(), name: z.string(), balance: z.number().int(), keys: z.array(z.object({ keyId: z.string(), kind: z.string() })) })
  .openapi('SandboxOrganization');

export const CatalogEntrySchema = z.object({
  endpoint: z.string(),
  input: z.string(),
  outcome: z.string(),
  description: z.string().optional(),
});

export const CatalogSchema = z
  .object({
    scenarios: z.array(z.object({ name: z.string(), description: z.string(), behaviours: z.array(z.string()) })),
    fixtureKeys: z.array(z.object({ key: z.string(), keyId: z.string(), kind: z.string(), organizationId: z.string(), organizationName: z.string() })),
    magicValues: z.array(CatalogEntrySchema),
    testIdentifiers: z.array(CatalogEntrySchema),
    clientOperations: z
      .array(CatalogEntrySchema)
      .openapi({ description: 'Operations the real client calls that the API spec does not describe: endpoint, client method (input), summary (outcome).' }),
    jobKinds: z.array(z.string()),
  })
  .openapi('SandboxCatalog');

export const TestJobBodySchema = z
  .object({
    organizationId: z.string().default('org_demo'),
    input: z.record(z.string(), z.unknown()).default({}).openapi({ description: 'Echoed back as the job result.' }),
    fate: z
      .enum(['normal', 'fail', 'stuck'])
      .optional()
      .openapi({ description: 'Default: from the active scenarios (async-jobs-fail, async-jobs-stuck), else normal.' }),
  })
  .strict()
  .openapi('SandboxTestJobRequest');
