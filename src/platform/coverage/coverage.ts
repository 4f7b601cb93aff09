/**
 * Integration coverage: which outcome classes (outcome-class.ts) the responses of each namespace fell
 * into, per API key. On by default, so recording stays cheap: classes are indexed once by operation and
 * status, by fact and by operation for the few recognised from the request body; a request reads its body
 * only when its operation has such classes (the JSON the validator already parsed). Answers are never
 * read back: what they report (a session's status) comes as a fact the handler noted.
 *
 * Coverage outlives POST /__sandbox/reset (a suite resets between tests and wants the whole run's
 * coverage); DELETE /__sandbox/coverage clears it.
 */
import { buildReport, type CoverageReport } from './coverage-report.ts';
import type { ClassSource, OperationInfo, OutcomeClass, OutcomeKind, SourceContext } from './outcome-class.ts';

/** What the recorder is told about one answered request. */
export interface Observation {
  requestId: string;
  keyId: string | null;
  keyKind: string | undefined;
  /** The documented operation that answered (`POST /v1/sessions`), if any. */
  operation: string | undefined;
  path: string;
  status: number;
  /** Facts the pipeline noted while answering (`validation:invalid_type`, `refusal:rate`, `scenario:slow`…). */
  facts: readonly string[];
  requestBody(): Promise<unknown>;
}

interface HitStat {
  count: number;
  firstSeq: number;
  firstRequestId: string;
  lastSeq: number;
  lastRequestId: string;
}

/** Hits of one namespace: class id → key id (`-` for none) → counts. */
type NamespaceHits = Map<string, Map<string, HitStat>>;

type RequestRecognizer = Extract<OutcomeClass['recognizer'], { by: 'request' }>;

interface RequestEntry {
  id: string;
  recognizer: RequestRecognizer;
}

/** An operation's classes recognised from the request: those of any path, and those of one path (a sandbox id). */
interface RequestClasses {
  anyPath: RequestEntry[];
  byPath: Map<string, RequestEntry[]>;
}

/** The classes of one sandbox, indexed for recognition. */
export class CoverageCatalog {
  readonly classes: readonly OutcomeClass[];
  readonly byId: ReadonlyMap<string, OutcomeClass>;
  /** Operation → status → class: no key string is built per request. */
  private readonly byStatus = new Map<string, Map<number, string>>();
  private readonly byFact = new Map<string, string[]>();
  private readonly byRequest = new Map<string, RequestClasses>();

  constructor(
    readonly operations: ReadonlyMap<string, OperationInfo>,
    sources: readonly ClassSource[],
    context: SourceContext,
  ) {
    const byId = new Map<string, OutcomeClass>();
    for (const source of sources) {
      for (const outcome of source.classes(context)) if (!byId.has(outcome.id)) byId.set(outcome.id, outcome);
    }
    this.classes = [...byId.values()];
    this.byId = byId;
    for (const { id, recognizer } of this.classes) {
      if (recognizer.by === 'status') {
        let statuses = this.byStatus.get(recognizer.operation);
        if (!statuses) this.byStatus.set(recognizer.operation, (statuses = new Map()));
        statuses.set(recognizer.status, id);
      } else if (recognizer.by === 'fact') pushTo(this.byFact, recognizer.fact, id);
      else {
        let classes = this.byRequest.get(recognizer.operation);
        if (!classes) this.byRequest.set(recognizer.operation, (classes = { anyPath: [], byPath: new Map() }));
        if (recognizer.path === undefined) classes.anyPath.push({ id, recognizer });
        else pushTo(classes.byPath, recognizer.path, { id, recognizer });
      }
    }
  }

  /** Adds the classes these facts mark to `hit`. */
  classifyFacts(facts: readonly string[], hit: string[] = []): string[] {
    for (const fact of facts) {
      const ids = this.byFact.get(fact);
      if (ids) for (const id of ids) hit.push(id);
    }
    return hit;
  }

  /** The classes one answered request fell into. */
  async classify(observation: Observation): Promise<string[]> {
    const hit: string[] = [];
    const { operation, status } = observation;
    if (operation !== undefined) {
      const byStatus = this.byStatus.get(operation)?.get(status);
      if (byStatus) hit.push(byStatus);
    }
    this.classifyFacts(observation.facts, hit);
    const requestClasses = operation === undefined ? undefined : this.byRequest.get(operation);
    if (!requestClasses) return hit;
    const candidates =
      requestClasses.byPath.size === 0
        ? requestClasses.anyPath
        : [...requestClasses.anyPath, ...(requestClasses.byPath.get(safeDecode(observation.path)) ?? [])];
    if (candidates.length === 0) return hit;
    // A sandbox id's read (the path is the value) needs no body: only body members make one be read.
    const body = candidates.some(({ recognizer }) => recognizer.body !== undefined) ? await observation.requestBody() : undefined;
    for (const { id, recognizer } of candidates) if (requestMatches(recognizer, observation, body)) hit.push(id);
    return hit;
  }
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Whether the request fits a recognizer of its operation (and path: the index has matched that). */
function requestMatches(recognizer: RequestRecognizer, observation: Observation, body: unknown): boolean {
  if (recognizer.status === undefined ? observation.status >= 400 : observation.status !== recognizer.status) return false;
  if (recognizer.keyKind !== undefined && observation.keyKind !== recognizer.keyKind) return false;
  if (recognizer.body === undefined) return true;
  if (typeof body !== 'object' || body === null) return false;
  // Bodies take a member in snake_case or camelCase (uat_type, uatType): compare names without either.
  const members = new Map(Object.entries(body).map(([member, value]) => [memberKey(member), value]));
  return Object.entries(recognizer.body).every(([member, value]) => sameValue(members.get(memberKey(member)), value));
}

function memberKey(name: string): string {
  return name.replaceAll('_', '').toLowerCase();
}

function safeDecode(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Magic values compare as the services compare them: strings without case or surrounding spaces. */
function sameValue(sent: unknown, expected: unknown): boolean {
  if (typeof sent === 'string' && typeof expected === 'string') return sent.trim().toLowerCase() === expected.trim().toLowerCase();
  return JSON.stringify(sent) === JSON.stringify(expected);
}

export interface ClassHits {
  count: number;
  firstRequestId: string;
  lastRequestId: string;
  /** Counts per key id (`-` for requests without a known key). */
  byKey: Record<string, number>;
}

/** Hits per namespace, kept for the life of the process (or until cleared). */
export class CoverageRecorder {
  private readonly namespaces = new Map<string, NamespaceHits>();
  private sequence = 0;

  constructor(readonly enabled: boolean) {}

  record(namespace: string, classIds: readonly string[], requestId: string, keyId: string | null): void {
    if (classIds.length === 0) return;
    let hits = this.namespaces.get(namespace);
    if (!hits) {
      hits = new Map();
      this.namespaces.set(namespace, hits);
    }
    this.sequence += 1;
    const key = keyId ?? '-';
    for (const id of classIds) {
      let byKey = hits.get(id);
      if (!byKey) {
        byKey = new Map();
        hits.set(id, byKey);
      }
      const stat = byKey.get(key);
      if (stat) {
        stat.count += 1;
        stat.lastSeq = this.sequence;
        stat.lastRequestId = requestId;
      } else {
        byKey.set(key, { count: 1, firstSeq: this.sequence, firstRequestId: requestId, lastSeq: this.sequence, lastRequestId: requestId });
      }
    }
  }

  clear(namespace?: string): void {
    if (namespace === undefined) this.namespaces.clear();
    else this.namespaces.delete(namespace);
  }

  namespaceNames(): string[] {
    return [...this.namespaces.keys()];
  }

  /** Hits of one namespace (or of all when none is named), optionally of one key id only. */
  hits(namespace: string | undefined, keyId?: string): Map<string, ClassHits> {
    const sources = namespace === undefined ? [...this.namespaces.values()] : [this.namespaces.get(namespace) ?? new Map()];
    const merged = new Map<string, { count: number; first: [number, string]; last: [number, string]; byKey: Record<string, number> }>();
    for (const hits of sources) {
      for (const [id, byKey] of hits) {
        for (const [key, stat] of byKey) {
          if (keyId !== undefined && key !== keyId) continue;
          const entry = merged.get(id) ?? {
            count: 0,
            first: [stat.firstSeq, stat.firstRequestId] as [number, string],
            last: [stat.lastSeq, stat.lastRequestId] as [number, string],
            byKey: {} as Record<string, number>,
          };
          entry.count += stat.count;
          entry.byKey[key] = (entry.byKey[key] ?? 0) + stat.count;
          if (stat.firstSeq < entry.first[0]) entry.first = [stat.firstSeq, stat.firstRequestId];
          if (stat.lastSeq > entry.last[0]) entry.last = [stat.lastSeq, stat.lastRequestId];
          merged.set(id, entry);
        }
      }
    }
    return new Map(
      [...merged].map(([id, entry]) => [id, { count: entry.count, firstRequestId: entry.first[1], lastRequestId: entry.last[1], byKey: entry.byKey }]),
    );
  }
}

/** An entry of the OpenAPI registry (routes, schemas, parameters…). */
interface RegistryDefinition {
  type: string;
  route?: { method: string; path: string; operationId?: string; summary?: string; responses: Record<string | number, unknown>; security?: unknown[] };
}

/** The fixture keys triggers send (fixtures/organizations.json). */
export const TRIGGER_KEYS: SourceContext['keys'] = {
  live: 'sk_live_demo',
  sandbox: 'sk_test_demo',
  broke: 'sk_live_broke',
  revoked: 'sk_live_revoked',
  other: 'sk_live_other',
};

/** The platform's coverage: the sources registered, the catalog built from them, and the hits. */
export class Coverage {
  private readonly sources: ClassSource[];
  private built: CoverageCatalog | undefined;
  /** `METHOD /hono/:path` → `METHOD /openapi/{path}` of the /v1 operations. */
  private readonly routes = new Map<string, string>();
  private readonly operationByRoute = new WeakMap<object, string | null>();
  readonly recorder: CoverageRecorder;

  constructor(enabled: boolean, sources: readonly ClassSource[]) {
    this.sources = [...sources];
    this.recorder = new CoverageRecorder(enabled);
  }

  /** Registers a table's adapter (areas call it in their module setup). */
  addSource(source: ClassSource): void {
    this.sources.push(source);
  }

  /** Learns the /v1 operations once every route is mounted, then builds the catalog from every source. */
  learn(
    definitions: readonly RegistryDefinition[],
    examples: Record<string, { request?: unknown; status?: number }>,
    context: Omit<SourceContext, 'operations' | 'keys'>,
  ): void {
    const operations = new Map<string, OperationInfo>();
    for (const { type, route } of definitions) {
      if (type !== 'route' || !route?.operationId || !route.path.startsWith('/v1/')) continue;
      const method = route.method.toUpperCase();
      const name = `${method} ${route.path}`;
      this.routes.set(`${method} ${route.path.replaceAll(/\/{(.+?)}/g, '/:$1')}`, name);
      operations.set(name, {
        name,
        operationId: route.operationId,
        method,
        path: route.path,
        summary: route.summary ?? '',
        statuses: Object.keys(route.responses)
          .map(Number)
          .filter(Number.isInteger)
          .sort((a, b) => a - b),
        exampleBody: examples[route.operationId]?.request,
        exampleStatus: examples[route.operationId]?.status,
        takesApiKey: (route.security ?? []).length > 0,
      });
    }
    this.built = new CoverageCatalog(operations, this.sources, { ...context, operations, keys: TRIGGER_KEYS });
  }

  get catalog(): CoverageCatalog {
    if (!this.built) throw new Error('coverage catalog used before the app was built');
    return this.built;
  }

  /** The documented /v1 operation of a matched Hono route (`method`, `path` as Hono registered it). */
  operationOf(matched: readonly { method: string; path: string }[]): string | undefined {
    for (const route of matched) {
      // Hono hands back the same route objects on every request: each is looked up once.
      let name = this.operationByRoute.get(route);
      if (name === undefined) this.operationByRoute.set(route, (name = this.routes.get(`${route.method} ${route.path}`) ?? null));
      if (name !== null) return name;
    }
    return undefined;
  }

  /** The report of one namespace, or of every namespace together when none is named (`*`); optionally of one kind of class. */
  report(scope: { namespace?: string; keyId?: string; kind?: OutcomeKind; baseUrl: string }): CoverageReport {
    const classes = scope.kind === undefined ? this.catalog.classes : this.catalog.classes.filter((outcome) => outcome.kind === scope.kind);
    return buildReport(classes, this.recorder.hits(scope.namespace, scope.keyId), {
      namespace: scope.namespace ?? '*',
      ...(scope.keyId === undefined ? {} : { keyId: scope.keyId }),
      baseUrl: scope.baseUrl,
    });
  }

  async record(namespace: string, observation: Observation): Promise<void> {
    if (!this.recorder.enabled) return;
    const classIds = await this.catalog.classify(observation);
    this.recorder.record(namespace, classIds, observation.requestId, observation.keyId);
  }

  /**
   * Records facts noted on a control-plane request, which the pipeline does not record (its statuses are
   * not the service's): a session move QA drove there is one the suite made its code meet.
   */
  recordFacts(namespace: string, facts: readonly string[], requestId: string): void {
    if (!this.recorder.enabled) return;
    this.recorder.record(namespace, this.catalog.classifyFacts(facts), requestId, null);
  }
}
