import { z } from '@hono/zod-openapi';
import { controlRoute, ErrorSchema, jsonBody, jsonResponse, NamespaceQuerySchema } from '../platform/http/routing.ts';
import {
  BalanceBodySchema,
  CatalogSchema,
  ClockChangeSchema,
  ClockStateSchema,
  CoverageClearedSchema,
  CoverageQuerySchema,
  CoverageReportSchema,
  DriftQuerySchema,
  DriftReportSchema,
  OutboxClearedSchema,
  OutboxPageSchema,
  OutboxQuerySchema,
  OrganizationParamsSchema,
  OrganizationViewSchema,
  RequestIdParamsSchema,
  RequestLogEntrySchema,
  RequestLogQuerySchema,
  RequestLogSchema,
  RequestCountSchema,
  RequestMatchesSchema,
  RequestPatternSchema,
  RequestVerificationSchema,
  VerificationFailedSchema,
  VerificationHeldSchema,
  ResetBodySchema,
  ResetResponseSchema,
  ScenarioListSchema,
  ScenarioNameParamsSchema,
  ScenarioRemovedSchema,
  ScenarioViewSchema,
  TestJobBodySchema,
  RetentionViewSchema,
  RetentionChangeSchema,
  PurgeResultSchema,
  StoreStatsSchema,
} from './control.schemas.ts';
import { ScenarioSchema } from '../platform/scenarios/scenario.schema.ts';
import { AsyncJobSchema } from '../async-jobs/api.ts';

const json = jsonResponse;

export const resetRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/reset',
  operationId: 'sandboxReset',
  summary: 'Reset to the fixtures',
  description:
    'Resets data, clock, request journal, rate limits and scenarios. With a namespace (header or query) only that namespace; without, every namespace.',
  request: { query: NamespaceQuerySchema, body: { content: { 'application/json': { schema: ResetBodySchema } } } },
  responses: { 200: json(ResetResponseSchema, 'What was reset') },
});

export const getClockRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/clock',
  operationId: 'sandboxGetClock',
  summary: 'Read the virtual clock',
  request: { query: NamespaceQuerySchema },
  responses: { 200: json(ClockStateSchema, 'The clock') },
});

export const changeClockRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/clock',
  operationId: 'sandboxChangeClock',
  summary: 'Advance, set or freeze the virtual clock',
  request: { query: NamespaceQuerySchema, body: jsonBody(ClockChangeSchema) },
  responses: { 200: json(ClockStateSchema, 'The clock after the change') },
});

export const listScenariosRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/scenarios',
  operationId: 'sandboxListScenarios',
  summary: 'List scenarios and which are active',
  request: { query: NamespaceQuerySchema },
  responses: { 200: json(ScenarioListSchema, 'Scenarios') },
});

export const toggleScenarioRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/scenarios/{name}/{action}',
  operationId: 'sandboxToggleScenario',
  summary: 'Activate or deactivate a scenario for the namespace',
  request: {
    query: NamespaceQuerySchema,
    params: ScenarioNameParamsSchema.extend({
      action: z.enum(['activate', 'deactivate']).openapi({ param: { name: 'action', in: 'path' } }),
    }),
  },
  responses: { 200: json(ScenarioViewSchema, 'The scenario'), 404: json(ErrorSchema, 'Unknown scenario') },
});

export const addScenarioRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/scenarios',
  operationId: 'sandboxAddScenario',
  summary: 'Add a scenario to the namespace at run time',
  description: 'Same format as the files in scenarios/. The scenario exists in this namespace only (until its reset) and starts inactive.',
  request: { query: NamespaceQuerySchema, body: jsonBody(ScenarioSchema) },
  responses: { 201: json(ScenarioViewSchema, 'The new scenario'), 409: json(ErrorSchema, 'A scenario of that name exists') },
});

export const removeScenarioRoute = controlRoute({
  method: 'delete',
  path: '/__sandbox/scenarios/{name}',
  operationId: 'sandboxRemoveScenario',
  summary: 'Remove a scenario added at run time',
  request: { query: NamespaceQuerySchema, params: ScenarioNameParamsSchema },
  responses: {
    200: json(ScenarioRemovedSchema, 'The scenario is gone'),
    404: json(ErrorSchema, 'Unknown scenario'),
    409: json(ErrorSchema, 'A scenario from a file cannot be removed'),
  },
});

export const listRequestsRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/requests',
  operationId: 'sandboxListRequests',
  summary: 'The request journal (oldest first)',
  request: { query: RequestLogQuerySchema },
  responses: { 200: json(RequestLogSchema, 'Journal entries') },
});

export const getRequestRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/requests/{id}',
  operationId: 'sandboxGetRequest',
  summary: 'One journal entry, whole (by its X-Request-Id)',
  request: { query: NamespaceQuerySchema, params: RequestIdParamsSchema },
  responses: { 200: json(RequestLogEntrySchema, 'The entry'), 404: json(ErrorSchema, 'No such entry in the namespace journal') },
});

export const findRequestsRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/requests/find',
  operationId: 'sandboxFindRequests',
  summary: 'Journal entries that match a pattern (oldest first)',
  description: 'Method, path glob, query and body members, status, key: every member given must match. Requests of the namespace only.',
  request: { query: NamespaceQuerySchema, body: jsonBody(RequestPatternSchema) },
  responses: { 200: json(RequestMatchesSchema, 'The matching entries') },
});

export const countRequestsRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/requests/count',
  operationId: 'sandboxCountRequests',
  summary: 'How many journal entries match a pattern',
  request: { query: NamespaceQuerySchema, body: jsonBody(RequestPatternSchema) },
  responses: { 200: json(RequestCountSchema, 'The count') },
});

export const verifyRequestsRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/requests/verify',
  operationId: 'sandboxVerifyRequests',
  summary: 'Assert how many requests matched a pattern',
  description:
    '200 when the count holds (default: at least 1); 409 with the count and the nearest requests that did not match, and what differed, when it does not.',
  request: { query: NamespaceQuerySchema, body: jsonBody(RequestVerificationSchema) },
  responses: { 200: json(VerificationHeldSchema, 'The expectation holds'), 409: json(VerificationFailedSchema, 'The expectation does not hold') },
});

export const clearRequestsRoute = controlRoute({
  method: 'delete',
  path: '/__sandbox/requests',
  operationId: 'sandboxClearRequests',
  summary: 'Empty the request journal',
  request: { query: NamespaceQuerySchema },
  responses: { 200: json(z.object({ cleared: z.number().int() }), 'How many entries were removed') },
});

export const listOrganizationsRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/organizations',
  operationId: 'sandboxListOrganizations',
  summary: 'Organizations, their key ids and balances',
  request: { query: NamespaceQuerySchema },
  responses: { 200: json(z.object({ organizations: z.array(OrganizationViewSchema) }), 'Organizations') },
});

export const setBalanceRoute = controlRoute({
  method: 'put',
  path: '/__sandbox/organizations/{id}/balance',
  operationId: 'sandboxSetBalance',
  summary: 'Set an organization’s token balance',
  request: { query: NamespaceQuerySchema, params: OrganizationParamsSchema, body: jsonBody(BalanceBodySchema) },
  responses: { 200: json(OrganizationViewSchema, 'The organization'), 404: json(ErrorSchema, 'Unknown organization') },
});

export const catalogRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/catalog',
  operationId: 'sandboxCatalog',
  summary: 'Every scenario, fixture key, magic value and test identifier',
  responses: { 200: json(CatalogSchema, 'The catalog') },
});

/** A report: JSON, or its Markdown, JUnit XML or HTML rendering (by `format`). */
const reportResponse = <S extends z.ZodType>(schema: S) => ({
  description: 'The report',
  content: {
    'application/json': { schema },
    'text/markdown': { schema: z.string() },
    'application/xml': { schema: z.string() },
    'text/html': { schema: z.string() },
  },
});

export const coverageRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/coverage',
  operationId: 'sandboxCoverage',
  summary: 'Integration coverage: the outcome classes your requests met, and how to trigger the others',
  description:
    'Per namespace (or `scope=all`), optionally per API key. JSON, or `format=markdown` (a CI job summary), `format=junit` (one test case per class, the missed ones failing) or `format=html`. Coverage outlives POST /__sandbox/reset; DELETE clears it.',
  request: { query: CoverageQuerySchema },
  responses: {
    200: reportResponse(CoverageReportSchema),
  },
});

export const driftRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/drift',
  operationId: 'sandboxDrift',
  summary: 'Shadow mode: where this sandbox answered the forwarded requests otherwise than the upstream',
  description:
    'Only with `--shadow-upstream URL`: the drift report of every /v1 request forwarded so far (the report check-recording prints). JSON, or `format=markdown`, `junit` or `html` (or the matching Accept header).',
  request: { query: DriftQuerySchema },
  responses: {
    200: reportResponse(DriftReportSchema),
    404: json(ErrorSchema, 'The sandbox does not run in shadow mode'),
  },
});

export const clearCoverageRoute = controlRoute({
  method: 'delete',
  path: '/__sandbox/coverage',
  operationId: 'sandboxClearCoverage',
  summary: 'Forget the coverage of the namespace (or of every namespace with scope=all)',
  request: { query: CoverageQuerySchema.pick({ namespace: true, scope: true }) },
  responses: { 200: json(CoverageClearedSchema, 'The namespaces whose coverage was cleared') },
});

export const createTestJobRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/jobs',
  operationId: 'sandboxCreateTestJob',
  summary: 'Create a test async job (kind sandbox.echo) to exercise a polling client',
  request: { query: NamespaceQuerySchema, body: jsonBody(TestJobBodySchema) },
  responses: { 201: json(AsyncJobSchema, 'The new job'), 404: json(ErrorSchema, 'Unknown organization') },
});

export const listOutboxRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/outbox',
  operationId: 'sandboxListOutbox',
  summary: 'The messages the sandbox sent (invitations, codes), newest first',
  description:
    'Every e-mail and SMS the service would have sent in the namespace, each with the link it carries (the hosted page, with its token). Filters: recipient, session, channel; paged with limit and nextToken.',
  request: { query: OutboxQuerySchema },
  responses: { 200: json(OutboxPageSchema, 'One page of messages') },
});

export const clearOutboxRoute = controlRoute({
  method: 'delete',
  path: '/__sandbox/outbox',
  operationId: 'sandboxClearOutbox',
  summary: 'Empty the outbox of the namespace',
  request: { query: NamespaceQuerySchema },
  responses: { 200: json(OutboxClearedSchema, 'How many messages were removed') },
});

export const getRetentionRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/retention',
  operationId: 'sandboxGetRetention',
  summary: 'The retention in force in the namespace',
  request: { query: NamespaceQuerySchema },
  responses: { 200: json(RetentionViewSchema, 'The retention') },
});

export const setRetentionRoute = controlRoute({
  method: 'put',
  path: '/__sandbox/retention',
  operationId: 'sandboxSetRetention',
  summary: 'Set the namespace’s own retention (kept across restarts)',
  request: { query: NamespaceQuerySchema, body: jsonBody(RetentionChangeSchema) },
  responses: { 200: json(RetentionViewSchema, 'The retention now in force') },
});

export const purgeRoute = controlRoute({
  method: 'post',
  path: '/__sandbox/retention/purge',
  operationId: 'sandboxPurge',
  summary: 'Purge now what every namespace’s retention drops (a purge also runs every minute)',
  description:
    'Drops the records not written within their namespace’s limit on its virtual clock, and namespaces none of whose records was. Answers once the purge has run; requests are served meanwhile.',
  responses: { 200: json(PurgeResultSchema, 'What was dropped') },
});

export const statsRoute = controlRoute({
  method: 'get',
  path: '/__sandbox/stats',
  operationId: 'sandboxStats',
  summary: 'Records, bytes and the oldest record per namespace',
  responses: { 200: json(StoreStatsSchema, 'What the store holds') },
});
