import { z } from '@hono/zod-openapi';
import { ErrorSchema, NamespaceQuerySchema } from '../platform/http/routing.ts';
import { DurationSchema } from '../platform/clock/virtual-clock.ts';
import { MESSAGE_CHANNELS, OutboxMessageSchema } from '../platform/outbox/outbox.schemas.ts';
import { mustBe } from '../platform/validation/request-fields.ts';
import { OUTCOME_KINDS } from '../platform/coverage/outcome-class.ts';

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
    requestBody: z.unknown().optional().openapi({
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

export const RequestPatternSchema = z
  .object({
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'method is an HTTP method such as GET or POST')
      .optional(),
    path: z
      .string()
      .startsWith('/', 'path starts with "/"')
      .optional()
      .openapi({ description: 'Exact path, or a glob: `*` one segment, `**` any number of segments (as in scenario rules).', example: '/v1/sessions/*' }),
    query: z.record(z.string(), z.string()).optional().openapi({ description: 'Query parameters the request had, with these values; others are ignored.' }),
    body: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description:
          'Members the JSON request body holds, at any depth; other members are ignored, arrays compare item by item. Matched against the journal’s copy (secrets redacted).',
        example: { firstName: 'Jane' },
      }),
    status: z.number().int().min(100).max(599).optional(),
    key: z.string().optional().openapi({ description: 'API key id (key_live_demo) or the API key itself, mapped to its id.' }),
  })
  .strict()
  .openapi('SandboxRequestPattern');

export const RequestVerificationSchema = RequestPatternSchema.extend({
  count: z.number().int().min(0).optional().openapi({ description: 'Exactly this many matching requests.' }),
  atLeast: z.number().int().min(0).optional(),
  atMost: z.number().int().min(0).optional(),
})
  .strict()
  .refine((expectation) => expectation.count === undefined || (expectation.atLeast === undefined && expectation.atMost === undefined), {
    message: 'give "count", or "atLeast" and/or "atMost", not both',
  })
  .refine((expectation) => expectation.atLeast === undefined || expectation.atMost === undefined || expectation.atLeast <= expectation.atMost, {
    message: '"atLeast" is above "atMost": no count satisfies both',
  })
  .openapi('SandboxRequestVerification', { description: 'A request pattern and how many requests should match it (default: at least 1).' });

export const RequestCountSchema = z.object({ namespace: z.string(), count: z.number().int() }).openapi('SandboxRequestCount');

export const RequestMatchesSchema = RequestCountSchema.extend({ requests: z.array(RequestLogEntrySchema) }).openapi('SandboxRequestMatches');

const NearMissSchema = z.object({
  requestId: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  differences: z.array(z.string()).openapi({ description: 'What differs from the pattern, one sentence each.' }),
});

export const VerificationHeldSchema = RequestCountSchema.extend({ expected: z.string().openapi({ example: 'exactly 3' }) }).openapi('SandboxVerificationHeld');

export const VerificationFailedSchema = ErrorSchema.extend({
  namespace: z.string(),
  count: z.number().int(),
  expected: z.string(),
  nearMisses: z.array(NearMissSchema).openapi({ description: 'The journal’s requests nearest the pattern (fewest differences, newest first), at most 3.' }),
}).openapi('SandboxVerificationFailed');
const OutcomeKindSchema = z.enum(OUTCOME_KINDS);

export const CoverageQuerySchema = z.object({
  namespace: z.string().optional().openapi({ description: 'Namespace whose coverage to report (same as the X-Sandbox-Namespace header).' }),
  scope: z.enum(['namespace', 'all']).default('namespace').openapi({ description: '`all`: every namespace together (what --coverage-out writes).' }),
  key: z.string().optional().openapi({ description: 'Only the requests of this API key (the key or its key id).' }),
  kind: OutcomeKindSchema.optional().openapi({ description: 'Only the classes of this kind (`scenario`, `magic-value`, `error-code`…).' }),
  format: z.enum(['json', 'markdown', 'junit', 'html']).default('json'),
});

export const CoverageReportSchema = z
  .object({
    namespace: z.string().openapi({ description: 'The namespace, or `*` for every namespace together.' }),
    keyId: z.string().optional(),
    classes: z.number().int(),
    hitCount: z.number().int(),
    percent: z.number(),
    areas: z
      .array(z.object({ area: z.string(), classes: z.number().int(), hit: z.number().int(), percent: z.number() }))
      .openapi({ description: 'Per area of the API (`/v1/<area>/…`), then `every operation` (validation, refusals, scenarios)' }),
    operations: z.array(z.object({ operation: z.string(), classes: z.number().int(), hit: z.number().int(), percent: z.number() })),
    hit: z.array(
      z.object({
        id: z.string(),
        kind: OutcomeKindSchema,
        area: z.string(),
        operation: z.string().optional(),
        title: z.string(),
        count: z.number().int(),
        firstRequestId: z
          .string()
          .nullable()
          .openapi({ description: "The first request's id in the journal; null when it was answered before the namespace's last reset" }),
        lastRequestId: z
          .string()
          .nullable()
          .openapi({ description: "The last request's id in the journal; null when it was answered before the namespace's last reset" }),
        byKey: z.record(z.string(), z.number().int()),
      }),
    ),
    missed: z.array(
      z.object({
        id: z.string(),
        kind: OutcomeKindSchema,
        area: z.string(),
        operation: z.string().optional(),
        title: z.string(),
        how: z.string(),
        curl: z.string().optional(),
      }),
    ),
  })
  .openapi('SandboxCoverageReport');

export const CoverageClearedSchema = z.object({ cleared: z.array(z.string()) }).openapi('SandboxCoverageCleared');

export const OutboxQuerySchema = NamespaceQuerySchema.extend({
  recipient: z
    .string()
    .min(1, { error: 'recipient must not be empty: give an e-mail address (any case) or an E.164 phone number, or omit it' })
    .optional()
    .openapi({ description: 'Only messages to this e-mail address (any case) or phone number.', example: 'jane.doe@example.com' }),
  session: z
    .string()
    .min(1, { error: 'session must not be empty: give the id of a session or request, or omit it' })
    .optional()
    .openapi({ description: 'Only messages about this session or request (its id).' }),
  channel: z.enum(MESSAGE_CHANNELS, { error: mustBe('channel', '"email" or "sms"') }).optional(),
  limit: z.coerce
    .number({ error: mustBe('limit', 'a whole number from 1 to 100') })
    .int({ error: mustBe('limit', 'a whole number from 1 to 100') })
    .min(1, { error: mustBe('limit', 'at least 1') })
    .max(100, { error: mustBe('limit', 'at most 100') })
    .default(50)
    .openapi({ type: 'integer', minimum: 1, maximum: 100, default: 50 }),
  nextToken: z.string().min(1, { error: 'nextToken must not be empty: omit it for the first page, or pass the nextToken of the previous answer' }).optional(),
});

export const OutboxPageSchema = z
  .object({
    namespace: z.string(),
    messages: z.array(OutboxMessageSchema).openapi({ description: 'Newest first.' }),
    nextToken: z.string().nullable().openapi({ description: 'Pass as nextToken (with the same filters) for the next page; null on the last page.' }),
  })
  .openapi('SandboxOutbox');

export const OutboxClearedSchema = z.object({ namespace: z.string(), cleared: z.number().int() }).openapi('SandboxOutboxCleared');
export const RetentionViewSchema = z
  .object({
    namespace: z.string(),
    days: z.number().int().optional().openapi({ description: 'Records not written for this many days are dropped; absent: kept forever.' }),
    source: z
      .enum(['namespace', 'sandbox', 'none'])
      .openapi({ description: 'namespace: set with PUT /__sandbox/retention; sandbox: --retention; none: neither, records are kept forever.' }),
  })
  .openapi('SandboxRetention');

export const RetentionChangeSchema = z
  .object({
    days: z
      .number()
      .int()
      .min(0)
      .max(36_500)
      .nullable()
      .openapi({ description: "This namespace's limit in days (0: keep forever); null follows --retention again.", example: 30 }),
  })
  .strict()
  .openapi('SandboxRetentionChange');

export const PurgeResultSchema = z
  .object({
    purged: z.array(
      z.object({
        namespace: z.string(),
        records: z.number().int().openapi({ description: 'Records dropped.' }),
        dropped: z.boolean().openapi({ description: 'The whole namespace was dropped: none of its records was written within its limit.' }),
      }),
    ),
  })
  .openapi('SandboxPurgeResult');

export const StoreStatsSchema = z
  .object({
    records: z.number().int(),
    bytes: z.number().int().openapi({ description: 'The records as JSON, in UTF-8 bytes.' }),
    namespaces: z.array(
      z.object({
        namespace: z.string(),
        records: z.number().int(),
        bytes: z.number().int(),
        oldestRecordAt: z.string().optional().openapi({ description: 'When the least recently written record was written, on the namespace clock.' }),
        retentionDays: z.number().int().optional().openapi({ description: 'The retention in force; absent when records are kept forever.' }),
        collections: z.array(z.object({ collection: z.string(), records: z.number().int(), bytes: z.number().int() })),
      }),
    ),
  })
  .openapi('SandboxStoreStats');

export const DRIFT_FORMATS = ['json', 'markdown', 'junit', 'html'] as const;

export const DriftQuerySchema = z.object({
  format: z
    .enum(DRIFT_FORMATS)
    .optional()
    .openapi({ description: 'The report format; without it, `Accept: text/markdown` (or application/xml, text/html) chooses, else JSON.' }),
});

const DriftDifferenceSchema = z.object({
  kind: z.enum(['status', 'content-type', 'header', 'missing', 'extra', 'type', 'null', 'value']),
  path: z.string().openapi({ description: '`status`, `content-type`, `header <name>`, or a JSON path with array positions as `[*]`.' }),
  recorded: z.string().openapi({ description: "The upstream's value where it is a status or an enum token, else its type (or a short hash)." }),
  sandbox: z.string(),
  exchanges: z.array(z.number().int()),
  guess: z.string().optional().openapi({ description: "The API reference's words, when the difference falls on a part it does not show." }),
});

export const DriftReportSchema = z
  .object({
    exchanges: z.number().int(),
    replayed: z.number().int(),
    matched: z.number().int(),
    onGuesses: z.number().int(),
    drift: z.boolean(),
    operations: z.array(
      z.object({ operation: z.string(), exchanges: z.number().int(), matched: z.number().int(), differences: z.array(DriftDifferenceSchema) }),
    ),
    unserved: z.array(z.object({ number: z.number().int(), method: z.string(), path: z.string() })),
  })
  .openapi('DriftReport');
