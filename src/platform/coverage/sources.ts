/**
 * The platform's sources of outcome classes, each one small adapter over a table the code reads: the
 * OpenAPI route definitions (statuses per operation), the validation kinds, the refusals of the guard and
 * of billing, the scenario files (and the kinds of their rules), and the catalog's magic values and test
 * identifiers (rows that carry a structured trigger). Areas add theirs with `Coverage.addSource`, using
 * `codeSource` and `valueSource` for error-code and state tables.
 */
import type { ErrorCodeTable } from '../errors/error-codes.ts';
import type { CatalogEntry, CatalogSection, CatalogTrigger } from '../catalog/catalog.ts';
import { ruleKinds, SCENARIO_RULE_KINDS, type Behaviour, type Scenario } from '../scenarios/scenario.schema.ts';
import type { ClassSource, OperationInfo, OutcomeClass, SourceContext, TriggerRequest } from './outcome-class.ts';

/** A request to the operation with its documented example body (and a body laid over it). */
export function exampleRequest(
  context: SourceContext,
  operation: OperationInfo,
  changes: { path?: string; key?: string | null; body?: Record<string, unknown>; omit?: readonly string[]; headers?: Record<string, string> } = {},
): TriggerRequest {
  const example = typeof operation.exampleBody === 'object' && operation.exampleBody !== null ? (operation.exampleBody as Record<string, unknown>) : undefined;
  const body =
    changes.body === undefined && changes.omit === undefined
      ? operation.exampleBody
      : { ...Object.fromEntries(Object.entries(example ?? {}).filter(([member]) => !changes.omit?.includes(member))), ...changes.body };
  return {
    method: operation.method,
    path: changes.path ?? operation.path,
    key: changes.key === undefined ? (operation.takesApiKey ? context.keys.live : null) : changes.key,
    ...(changes.headers ? { headers: changes.headers } : {}),
    ...(body === undefined ? {} : { body }),
  };
}

// ─── statuses per operation (OpenAPI route definitions) ─────────────────────────────────────────────

/** A well-formed id no record has (ids are UUID v4), so the answer is 404 rather than 400. */
const NOT_FOUND_ID = '00000000-0000-4000-8000-000000000000';
/** Path parameters that are not ids take a valid value, so that the id is what is not found. */
const PATH_PARAMETER_VALUES: Record<string, string> = { step_id: 'ID_VERIFICATION' };

function pathNaming(path: string, id: string): string {
  return path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => PATH_PARAMETER_VALUES[name] ?? id);
}

/** A UUID: the examples were recorded on a fresh sandbox, so one in a body names a record (a session, an upload) of that run. */
const RECORD_ID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/i;

/** Whether the example body can be sent as it is to a fresh namespace (it names no record of its own run). */
function standalone(operation: OperationInfo): boolean {
  return !RECORD_ID.test(JSON.stringify(operation.exampleBody ?? null));
}

/** How to make an operation answer one of its documented statuses. */
function statusTrigger(context: SourceContext, operation: OperationInfo, status: number): OutcomeClass['trigger'] {
  const request = (changes: Parameters<typeof exampleRequest>[2]) => exampleRequest(context, operation, changes);
  const withHeader = (scenario: string) => request({ headers: { 'X-Sandbox-Scenario': scenario } });
  if (status < 300) {
    if (status !== operation.exampleStatus) return { how: `call it as its description in /openapi.json says gives ${status}` };
    return standalone(operation)
      ? { how: 'call it as documented (the example request of /openapi.json)', request: request({}) }
      : { how: 'call it as in the example of /openapi.json, with the ids of records (sessions, uploads) your run created' };
  }
  switch (status) {
    case 400:
      return operation.exampleBody === undefined
        ? { how: 'send a path or query parameter that fails validation' }
        : { how: 'send a body that fails validation (here: a JSON array instead of an object)', request: { ...request({}), body: [] } };
    case 401:
      return { how: 'send a revoked API key (sk_live_revoked) or none', request: request({ key: context.keys.revoked }) };
    case 402: {
      const how = 'call it with the key of an organization whose balance is 0 (sk_live_broke)';
      return standalone(operation) ? { how, request: request({ key: context.keys.broke }) } : { how };
    }
    case 403:
      return operation.method === 'GET'
        ? { how: "read another organization's resource (key sk_live_other) or send no key where the spec says 403" }
        : { how: 'write with a sandbox key (sk_test_demo)', request: request({ key: context.keys.sandbox }) };
    case 404:
      return operation.path.includes('{')
        ? { how: `name an id that does not exist (${NOT_FOUND_ID})`, request: request({ path: pathNaming(operation.path, NOT_FOUND_ID) }) }
        : { how: 'name a resource in the body that does not exist' };
    case 409:
      return { how: 'call it on a resource whose state does not allow it (a terminal session, a step out of order)' };
    case 413:
      return { how: 'send a body over the limit (1 MB; 15 MB per image on image operations)' };
    case 415:
      return { how: 'send the body as text/plain instead of application/json' };
    case 429:
      return { how: 'scenario rate-limited for this request (or more than 35 requests in a second with one key)', request: withHeader('rate-limited') };
    case 500:
      return { how: 'scenario server-error for this request', request: withHeader('server-error') };
    case 503:
      return { how: 'scenario flaky (1 in 5) or carrier-unavailable, or the provider-unavailable magic value of the operation' };
    default:
      return { how: `make the operation answer ${status} (see its description in /openapi.json)` };
  }
}

export const statusSource: ClassSource = {
  name: 'OpenAPI route definitions',
  classes: (context) =>
    [...context.operations.values()].flatMap((operation) =>
      operation.statuses.map((status) => ({
        id: `status ${operation.name} ${status}`,
        kind: 'status' as const,
        operation: operation.name,
        title: `${operation.name} answers ${status}`,
        trigger: statusTrigger(context, operation, status),
        recognizer: { by: 'status' as const, operation: operation.name, status },
      })),
    ),
};

// ─── validation kinds ───────────────────────────────────────────────────────────────────────────────

/**
 * The kinds of validation failure a 400 can report (the first problem's zod issue code, or malformed
 * JSON), each with a request that gives it.
 */
export const VALIDATION_KINDS: readonly { kind: string; how: string; operation: string; body?: Record<string, unknown>; raw?: string }[] = [
  { kind: 'malformed_json', how: 'a body that is not JSON', operation: 'POST /v1/screening/phone-trust', raw: '{"phone":' },
  {
    kind: 'invalid_type',
    how: 'a member of the wrong type (a number where a string is expected)',
    operation: 'POST /v1/screening/phone-trust',
    body: { phone: 7700900003 },
  },
  {
    kind: 'invalid_value',
    how: 'a value outside an enum',
    operation: 'POST /v1/screening/phone-trust',
    body: { phone: '+447700900003', sensitivity: 'extreme' },
  },
  { kind: 'too_small', how: 'a string or number below its minimum', operation: 'POST /v1/credit-check/soft', body: { firstName: '' } },
  {
    kind: 'custom',
    how: 'a value breaking a field rule (an invalid phone number)',
    operation: 'POST /v1/screening/phone-trust',
    body: { phone: 'not a phone' },
  },
];

export const validationSource: ClassSource = {
  name: 'validation kinds',
  classes: (context) =>
    VALIDATION_KINDS.map(({ kind, how, operation: name, body, raw }) => {
      const operation = context.operations.get(name);
      // A body member laid over the documented example, so that it is the first problem found.
      const request = operation && raw === undefined ? exampleRequest(context, operation, { body }) : undefined;
      return {
        id: `validation ${kind}`,
        kind: 'validation' as const,
        title: `a 400 for ${how}`,
        trigger: { how: `${how}, e.g. on ${name}${raw === undefined ? '' : `: ${raw}`}`, ...(request ? { request } : {}) },
        recognizer: { by: 'fact' as const, fact: `validation:${kind}` },
      };
    }),
};

// ─── refusals: rate limit, quota, funds, invalid keys ───────────────────────────────────────────────

export const REFUSALS: readonly { refusal: string; title: string; how: string }[] = [
  { refusal: 'rate', title: '429: more than 25 requests a second (burst 35) with one key', how: 'send 36 requests within one second with one key' },
  {
    refusal: 'quota',
    title: '429: the daily quota of 10,000 requests per key',
    how: 'send 10,001 requests with one key in one UTC day (advance the clock to go faster)',
  },
  {
    refusal: 'funds',
    title: "402: the organization's token balance is too low",
    how: 'call a billable operation with sk_live_broke, or PUT /__sandbox/organizations/{id}/balance to 0',
  },
  {
    refusal: 'invalid-keys',
    title: '429: too many wrong API keys from one address',
    how: 'send more than 30 requests with wrong keys in a minute from one address (over a socket)',
  },
];

export const refusalSource: ClassSource = {
  name: 'rate-limit and billing refusals',
  classes: (context) =>
    REFUSALS.map(({ refusal, title, how }) => {
      const broke = refusal === 'funds' ? context.operations.get('POST /v1/screening/phone-trust') : undefined;
      return {
        id: `refusal ${refusal}`,
        kind: 'refusal' as const,
        title,
        trigger: { how, ...(broke ? { request: exampleRequest(context, broke, { key: context.keys.broke }) } : {}) },
        recognizer: { by: 'fact' as const, fact: `refusal:${refusal}` },
      };
    }),
};

// ─── scenarios and the kinds of their rules ─────────────────────────────────────────────────────────

/** The operation where a behaviour acts on one request (auto-decline acts when a session finishes: no one request). */
const BEHAVIOUR_OPERATIONS: Record<Behaviour, string | undefined> = {
  'async-jobs-fail': 'POST /v1/screening/adverse-media',
  'async-jobs-stuck': 'POST /v1/screening/adverse-media',
  'auto-decline': undefined,
};

/** An operation a scenario's first rule applies to, to send its header with. */
function operationFor(context: SourceContext, scenario: Scenario): OperationInfo | undefined {
  const rule = scenario.rules[0];
  const all = [...context.operations.values()].filter((o) => o.takesApiKey);
  if (!rule) {
    const behaviour = scenario.behaviours[0];
    const name = behaviour === undefined ? undefined : BEHAVIOUR_OPERATIONS[behaviour];
    return name === undefined ? undefined : context.operations.get(name);
  }
  const pattern = new RegExp(`^${rule.match.path.replaceAll('**', '\u0000').replaceAll('*', '[^/]+').replaceAll('\u0000', '.*')}$`);
  const fits = (o: OperationInfo) => (!rule.match.methods || rule.match.methods.includes(o.method as never)) && pattern.test(o.path);
  return all.find((o) => fits(o) && o.name === 'POST /v1/screening/phone-trust') ?? all.find(fits);
}

export const scenarioSource: ClassSource = {
  name: 'scenario files',
  classes: (context) => {
    const byScenario = context.scenarios.map((scenario) => {
      const operation = operationFor(context, scenario);
      const request = operation ? exampleRequest(context, operation, { headers: { 'X-Sandbox-Scenario': scenario.name } }) : undefined;
      return {
        id: `scenario ${scenario.name}`,
        kind: 'scenario' as const,
        title: scenario.description,
        trigger: { how: `header X-Sandbox-Scenario: ${scenario.name} (or activate it in the namespace)`, ...(request ? { request } : {}) },
        recognizer: { by: 'fact' as const, fact: `scenario:${scenario.name}` },
      };
    });
    const byKind = SCENARIO_RULE_KINDS.map(({ kind, title, example }) => {
      const shipped = context.scenarios.find(
        (s) => s.rules.some((rule) => ruleKinds(rule).includes(kind)) || (kind === 'behaviour' && s.behaviours.length > 0),
      );
      return {
        id: `scenario-kind ${kind}`,
        kind: 'scenario-kind' as const,
        title,
        trigger: {
          how: shipped
            ? `any scenario with such a rule, e.g. header X-Sandbox-Scenario: ${shipped.name}`
            : `add a scenario with such a rule (POST /__sandbox/scenarios ${JSON.stringify(example)}) and send a request it matches`,
        },
        recognizer: { by: 'fact' as const, fact: `scenario-kind:${kind}` },
      };
    });
    return [...byScenario, ...byKind];
  },
};

// ─── catalog rows with a structured trigger (magic values, test identifiers, uat types) ─────────────

const CATALOG_KINDS: Partial<Record<CatalogSection, 'magic-value' | 'test-identifier'>> = { magicValues: 'magic-value', testIdentifiers: 'test-identifier' };

export const catalogSource: ClassSource = {
  name: 'catalog (magic values and test identifiers)',
  classes: (context) =>
    (Object.entries(CATALOG_KINDS) as [CatalogSection, 'magic-value' | 'test-identifier'][]).flatMap(([section, kind]) =>
      context.catalogEntries(section).flatMap((entry) => catalogEntryClass(context, entry, kind) ?? []),
    ),
};

/** The class of a catalog row; rows whose trigger is a picture or a range (no single request) have none. */
export function catalogEntryClass(context: SourceContext, entry: CatalogEntry, kind: 'magic-value' | 'test-identifier'): OutcomeClass | undefined {
  const trigger = entry.trigger;
  const operation = trigger ? context.operations.get(trigger.operation) : undefined;
  if (!trigger || !operation) return undefined;
  const key = trigger.key === undefined ? undefined : context.keys[trigger.key];
  return {
    id: `${kind} ${trigger.operation} ${entry.input}`,
    kind,
    operation: trigger.operation,
    title: `${entry.input} -> ${entry.outcome}`,
    trigger: {
      how: `${entry.endpoint}: ${entry.input}`,
      request: exampleRequest(context, operation, { path: trigger.path, key, body: trigger.body, omit: trigger.omit }),
    },
    recognizer: {
      by: 'request',
      operation: trigger.operation,
      ...(trigger.path === undefined ? {} : { path: trigger.path }),
      ...(trigger.body === undefined ? {} : { body: trigger.body }),
      ...(trigger.key === undefined ? {} : { keyKind: trigger.key }),
      ...(trigger.status === undefined ? {} : { status: trigger.status }),
    },
  };
}

// ─── adapters for area tables ───────────────────────────────────────────────────────────────────────

/** A row of an error-code table: the code, its status, and how to get it (a trigger when one request does). */
export interface ErrorCodeRow {
  code: string;
  status: number;
  how: string;
  trigger?: CatalogTrigger;
}

/** How to get the codes of an area's error-code table that its bodies name (`bodyCode`). */
export type CodeTriggers<T extends ErrorCodeTable> = { [C in keyof T]?: { how: string; trigger?: CatalogTrigger } };

/** The rows of an error-code table that have a trigger: code and status read from the table. */
export function tableCodes<T extends ErrorCodeTable>(table: T, triggers: CodeTriggers<T>): ErrorCodeRow[] {
  return Object.keys(triggers).flatMap((code) => {
    const how = triggers[code];
    return how === undefined ? [] : [{ code, status: (table[code] as ErrorCodeTable[string]).status, ...how }];
  });
}

/** An error-code table: each code a class, recognised from the `code` of the error body. */
export function codeSource(name: string, codes: readonly ErrorCodeRow[]): ClassSource {
  return {
    name,
    classes: (context) =>
      codes.map(({ code, status, how, trigger }) => {
        const operation = trigger ? context.operations.get(trigger.operation) : undefined;
        const key = trigger?.key === undefined ? undefined : context.keys[trigger.key];
        return {
          id: `error-code ${code}`,
          kind: 'error-code' as const,
          title: `${status} with code ${code}`,
          trigger: { how, ...(operation ? { request: exampleRequest(context, operation, { path: trigger?.path, key, body: trigger?.body }) } : {}) },
          recognizer: { by: 'fact' as const, fact: `code:${code}` },
        };
      }),
  };
}

/** A state an operation's answers report (session statuses, job phases), one class per value. */
export interface ValueTable {
  name: string;
  operation: string;
  /** Where the answer carries it: `status`, `session_record.status`. */
  member: string;
  values: readonly string[];
}

/**
 * The fact a handler notes (`noteOutcome`) when its answer reports `value`: cheaper than reading the body
 * back. One text per table and value (a polled read notes the same one on every request), so the coverage
 * recorder compares it with the answer before's by reference instead of joining and comparing new text.
 */
export function valueFact(table: Pick<ValueTable, 'operation' | 'member'>, value: string): string {
  let texts = valueFactTexts.get(table);
  if (texts === undefined) valueFactTexts.set(table, (texts = new Map()));
  let text = texts.get(value);
  if (text === undefined) {
    text = `value:${table.operation} ${table.member}=${value}`;
    if (texts.size < VALUE_FACTS_KEPT) texts.set(value, text);
  }
  return text;
}

/** Values kept per table: a table's values are a handful of statuses or kinds; any past these are made each time. */
const VALUE_FACTS_KEPT = 64;
const valueFactTexts = new WeakMap<object, Map<string, string>>();

/** The classes of a value table, with how to meet each value. */
export function valueSource(table: ValueTable, how: (value: string, context: SourceContext) => { how: string; request?: TriggerRequest }): ClassSource {
  return {
    name: table.name,
    classes: (context) =>
      table.values.map((value) => ({
        id: `response-value ${table.operation} ${table.member}=${value}`,
        kind: 'response-value' as const,
        operation: table.operation,
        title: `${table.operation} answers ${table.member} ${value}`,
        trigger: how(value, context),
        recognizer: { by: 'fact' as const, fact: valueFact(table, value) },
      })),
  };
}

export const PLATFORM_SOURCES: readonly ClassSource[] = [statusSource, validationSource, refusalSource, scenarioSource, catalogSource];
