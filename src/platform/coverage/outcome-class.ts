/**
 * An outcome class: one answer of the service a client's code may have to handle (a status of an
 * operation, an error code, a magic value's outcome, a scenario's fault, a session status…), with how to
 * make the sandbox give it and how to recognise a response that fell into it. Sources (one small adapter
 * per table the code reads) contribute classes; the coverage recorder counts the ones each response hit.
 */
import type { CatalogEntry, CatalogSection, FixtureKeyRole } from '../catalog/catalog.ts';
import type { Scenario } from '../scenarios/scenario.schema.ts';

/** The kinds of class (the report groups by them; ?kind= filters on them). */
export const OUTCOME_KINDS = [
  'status',
  'validation',
  'error-code',
  'refusal',
  'scenario',
  'scenario-kind',
  'magic-value',
  'test-identifier',
  'response-value',
  'ip-range',
  'image',
  'transition',
] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** A request that produces the class, ready to be sent (and printed as curl). */
export interface TriggerRequest {
  method: string;
  /** A concrete path; `{name}` placeholders are for the user to fill (an id the suite created). */
  path: string;
  /** The x-api-key to send; null sends none. */
  key: string | null;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Trigger {
  /** In a sentence: the input, the magic value or the scenario. */
  how: string;
  request?: TriggerRequest;
}

/**
 * What marks a response as one of the class:
 * - `status`: the operation answered this status;
 * - `fact`: the pipeline noted this fact while answering (`validation:invalid_type`, `code:X`, `refusal:rate`,
 *   `scenario:NAME`, `scenario-kind:delay`, `value:GET /v1/sessions/{id} session_record.status=VERIFIED`), from
 *   the structured reason behind X-Sandbox-Explain and what handlers note of their answers;
 * - `request`: the operation was called with these body members (or on this path, with this key kind) and
 *   answered a success, or the given status.
 */
export type Recognizer =
  | { by: 'status'; operation: string; status: number }
  | { by: 'fact'; fact: string }
  | { by: 'request'; operation: string; path?: string; body?: Record<string, unknown>; keyKind?: string; status?: number };

export interface OutcomeClass {
  /** Stable and readable: `status POST /v1/sessions 201`, `magic-value POST /v1/screening/phone-trust phone +447700900003`. */
  id: string;
  kind: OutcomeKind;
  /** The operation (`METHOD /openapi/path`) the class belongs to; none for classes of every operation. */
  operation?: string;
  title: string;
  trigger: Trigger;
  recognizer: Recognizer;
}

/** What a source needs to build its classes: the documented operations and their example requests. */
export interface OperationInfo {
  /** `POST /v1/sessions`. */
  name: string;
  operationId: string;
  method: string;
  /** The OpenAPI path, `/v1/sessions/{id}`. */
  path: string;
  summary: string;
  statuses: number[];
  /** The recorded example request body (fixtures/openapi-examples.json). */
  exampleBody?: unknown;
  /** The status the example request was answered with. */
  exampleStatus?: number;
  /** Whether the route takes an API key (the /v1 routes). */
  takesApiKey: boolean;
}

export interface SourceContext {
  operations: ReadonlyMap<string, OperationInfo>;
  scenarios: readonly Scenario[];
  catalogEntries(section: CatalogSection): CatalogEntry[];
  /** The fixture live key, the sandbox key… by kind, for triggers. */
  keys: Record<FixtureKeyRole, string>;
}

/**
 * One table's contribution. Adding a table the code reads (a new error-code table, say) to the coverage
 * catalog is one entry in the list of sources.
 */
export interface ClassSource {
  name: string;
  classes(context: SourceContext): OutcomeClass[];
}
