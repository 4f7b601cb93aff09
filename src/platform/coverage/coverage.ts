/**
 * Integration coverage: which outcome classes (outcome-class.ts) the responses of each namespace fell
 * into, per API key. On by default, so recording stays cheap: classes are indexed once by operation and
 * status, by fact and by operation for the few recognised from the request body; a request's JSON text is
 * kept with it only when its operation has such classes, and parsed only when one of them could match (its
 * status and key kind fit). Answers are never read back: what they report (a session's status) comes as a
 * fact the handler noted.
 *
 * Coverage outlives POST /__sandbox/reset (a suite resets between tests and wants the whole run's
 * coverage); DELETE /__sandbox/coverage clears it.
 */
import { routingKeyOf } from '../operations/declared-operations.ts';
import { buildReport, type ClassHits, type CoverageReport } from './coverage-report.ts';
import type { ClassSource, OperationInfo, OutcomeClass, OutcomeKind, SourceContext } from './outcome-class.ts';
import { type JournalAnswer, RecordIds } from './record-ids.ts';

/** What the recorder is told about one answered request. */
export interface Observation {
  requestId: string;
  keyId: string | null;
  keyKind: string | undefined;
  /** The classes of the documented operation that answered (`POST /v1/sessions`), if any (`Coverage.operationOf`). */
  operation: OperationClasses | undefined;
  /** Instead, before the catalog exists: the operation's name (from its route's guard), looked up when it is counted… */
  operationName?: string;
  /** …or, when no guard named it, the Hono routes that matched. */
  routes?: readonly { method: string; path: string }[];
  path: string;
  status: number;
  /** Facts the pipeline noted while answering (`validation:invalid_type`, `refusal:rate`, `scenario:slow`…). */
  facts: readonly string[];
  /** The request's JSON text, when its operation `readsBody` (or, before the catalog exists, may). */
  body?: string;
  /** Only these facts count (a control-plane move, `recordFacts`): no operation, status or path. */
  factsOnly?: true;
}

type RequestRecognizer = Extract<OutcomeClass['recognizer'], { by: 'request' }>;

/** A class recognised from the request, by its number in the catalog. */
interface RequestEntry {
  index: number;
  recognizer: RequestRecognizer;
  /** The body members it needs, names without `_` or case (bodies take uat_type and uatType alike). */
  members: readonly (readonly [string, unknown])[] | undefined;
}

/**
 * The classes of one documented operation, indexed for recognition: found once per matched route, so a
 * request only looks up its status, and its path or body when the operation has classes recognised by them.
 */
export interface OperationClasses {
  readonly name: string;
  /** Status → class number. */
  readonly byStatus: ReadonlyMap<number, number>;
  /** Classes recognised from the request on any path, and on one path (a sandbox id's read). */
  readonly anyPath: readonly RequestEntry[];
  readonly byPath: ReadonlyMap<string, readonly RequestEntry[]>;
  /** Whether any of them is told apart by body members (then the body is read). */
  readonly readsBody: boolean;
}

/** The classes of one sandbox, numbered and indexed for recognition. */
export class CoverageCatalog {
  /** Every class; its index is its number, which the recorder counts by. */
  readonly classes: readonly OutcomeClass[];
  readonly byId: ReadonlyMap<string, OutcomeClass>;
  private readonly byOperation = new Map<string, BuildingOperation>();
  private readonly byFact = new Map<string, number[]>();

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
    const operation = (name: string) => {
      let classes = this.byOperation.get(name);
      if (!classes) this.byOperation.set(name, (classes = { name, byStatus: new Map(), anyPath: [], byPath: new Map(), readsBody: false }));
      return classes;
    };
    this.classes.forEach(({ recognizer }, index) => {
      if (recognizer.by === 'status') operation(recognizer.operation).byStatus.set(recognizer.status, index);
      else if (recognizer.by === 'fact') pushTo(this.byFact, recognizer.fact, index);
      else {
        const members = recognizer.body && Object.entries(recognizer.body).map(([member, value]) => [memberKey(member), value] as const);
        const entry = { index, recognizer, members };
        const classes = operation(recognizer.operation);
        if (members !== undefined) classes.readsBody = true;
        if (recognizer.path === undefined) classes.anyPath.push(entry);
        else pushTo(classes.byPath, recognizer.path, entry);
      }
    });
  }

  /** The classes of a documented operation (`POST /v1/sessions`), if it has any. */
  operation(name: string): OperationClasses | undefined {
    return this.byOperation.get(name);
  }

  /** Adds the numbers of the classes these facts mark to `hit`. */
  classifyFacts(facts: readonly string[], hit: number[]): void {
    for (let i = 0; i < facts.length; i += 1) {
      const indexes = this.byFact.get(facts[i] as string);
      if (indexes) for (const index of indexes) hit.push(index);
    }
  }

  /** The classes of the request recognised on its path, none when its operation has none. */
  pathClasses(observation: Observation): readonly RequestEntry[] {
    const byPath = observation.operation?.byPath;
    return byPath === undefined || byPath.size === 0 ? NONE : (byPath.get(safeDecode(observation.path)) ?? NONE);
  }

  /** Adds the numbers of the classes one answered request fell into to `hit`. */
  classify(observation: Observation, pathClasses: readonly RequestEntry[], hit: number[]): void {
    const { operation, status } = observation;
    if (operation !== undefined) {
      const index = operation.byStatus.get(status);
      if (index !== undefined) hit.push(index);
    }
    this.classifyFacts(observation.facts, hit);
    if (operation === undefined) return;
    const sent = new SentMembers(observation.body);
    for (const entry of operation.anyPath) if (requestMatches(entry, observation, sent)) hit.push(entry.index);
    for (const entry of pathClasses) if (requestMatches(entry, observation, sent)) hit.push(entry.index);
  }
}

/** `OperationClasses` while the catalog fills it. */
interface BuildingOperation extends OperationClasses {
  byStatus: Map<number, number>;
  anyPath: RequestEntry[];
  byPath: Map<string, RequestEntry[]>;
  readsBody: boolean;
}

const NONE: readonly RequestEntry[] = [];
/**
 * Runs of alike answers waiting to be counted at most (the first observation of each is held meanwhile); a
 * run grows without counting, so a request repeated many times (a load test, a suite's loop) costs one
 * comparison with the one before, not a count or a fold every PENDING_LIMIT requests.
 */
export const PENDING_LIMIT = 64;
/** Before the catalog exists: distinct answers folded at most, and the characters of their keys (bodies included). */
export const FOLD_LIMIT = 1024;
const FOLD_CHARS = 1 << 20;

/** Alike answers folded before the catalog existed: one of them, and their run. */
interface FoldedAnswers {
  namespace: string;
  observation: Observation;
  run: RequestRun;
}

/** Alike answers in a row, waiting to be counted: the first of them (and its generation), how many, and the last's. */
interface WaitingRun {
  namespace: string;
  observation: Observation;
  firstGeneration: number;
  count: number;
  lastRequestId: string;
  lastGeneration: number;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Whether two answers fall into the same classes (`Coverage.foldKey` tells them apart by the same members). */
function alikeAnswers(a: Observation, b: Observation): boolean {
  return (
    a.status === b.status &&
    a.path === b.path &&
    a.operation === b.operation &&
    a.operationName === b.operationName &&
    a.keyId === b.keyId &&
    a.keyKind === b.keyKind &&
    a.factsOnly === b.factsOnly &&
    a.body === b.body &&
    sameList(a.routes, b.routes) &&
    sameList(a.facts, b.facts)
  );
}

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** A request body's top-level members by `memberKey`, parsed from its JSON text when first asked for. */
class SentMembers {
  private members: Map<string, unknown> | undefined | null = null;

  constructor(private readonly text: string | undefined) {}

  get(): Map<string, unknown> | undefined {
    if (this.members === null) this.members = this.text === undefined ? undefined : parseMembers(this.text);
    return this.members;
  }
}

function parseMembers(text: string): Map<string, unknown> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof body === 'object' && body !== null ? new Map(Object.entries(body).map(([member, value]) => [memberKey(member), value])) : undefined;
}

/** Whether the request fits a class of its operation (and path: the index has matched that). */
function requestMatches({ recognizer, members }: RequestEntry, observation: Observation, sent: SentMembers): boolean {
  if (recognizer.status === undefined ? observation.status >= 400 : observation.status !== recognizer.status) return false;
  if (recognizer.keyKind !== undefined && observation.keyKind !== recognizer.keyKind) return false;
  if (members === undefined) return true;
  const body = sent.get();
  return body !== undefined && members.every(([member, value]) => sameValue(body.get(member), value));
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

/**
 * The hits of one key in one namespace, by class number: a request stores a count, a sequence number, its
 * id (a reference, no copy) and its namespace's reset generation per class it hit; the report puts them
 * together.
 */
class KeyHits {
  readonly counts: Uint32Array;
  readonly firstSeq: Float64Array;
  readonly lastSeq: Float64Array;
  readonly firstIds: string[];
  readonly lastIds: string[];
  readonly firstGeneration: Uint32Array;
  readonly lastGeneration: Uint32Array;

  constructor(size: number) {
    this.counts = new Uint32Array(size);
    this.firstSeq = new Float64Array(size);
    this.lastSeq = new Float64Array(size);
    this.firstIds = new Array<string>(size).fill('');
    this.lastIds = new Array<string>(size).fill('');
    this.firstGeneration = new Uint32Array(size);
    this.lastGeneration = new Uint32Array(size);
  }
}

/**
 * Requests counted together: how many, and the order, id and reset generation (of their namespace, when
 * each was answered) of the first and the last.
 */
interface RequestRun {
  count: number;
  firstSeq: number;
  firstRequestId: string;
  firstGeneration: number;
  lastSeq: number;
  lastRequestId: string;
  lastGeneration: number;
}

/** Hits per namespace and key, kept for the life of the process (or until cleared). */
export class CoverageRecorder {
  /** Namespace → key id (`-` for none) → hits. */
  private readonly namespaces = new Map<string, Map<string, KeyHits>>();
  /** Resets per namespace: a request id is the journal's only in the generation it was answered in. */
  private readonly generations = new Map<string, number>();
  private sequence = 0;
  /** How many classes the catalog numbers (set when it is built). */
  size = 0;

  constructor(readonly enabled: boolean) {}

  /** The order of the next `count` requests counted (or folded to be counted later): the first's. */
  nextSequence(count: number): number {
    const first = this.sequence + 1;
    this.sequence += count;
    return first;
  }

  /** Counts the classes numbered in `hit` for a run of alike requests, in whatever order runs come. */
  add(namespace: string, hit: readonly number[], keyId: string | null, run: RequestRun): void {
    if (hit.length === 0) return;
    let keys = this.namespaces.get(namespace);
    if (!keys) this.namespaces.set(namespace, (keys = new Map()));
    const key = keyId ?? '-';
    let hits = keys.get(key);
    if (!hits) keys.set(key, (hits = new KeyHits(this.size)));
    for (let i = 0; i < hit.length; i += 1) {
      const index = hit[i] as number;
      const count = hits.counts[index] ?? 0;
      if (count === 0 || run.firstSeq < (hits.firstSeq[index] as number)) {
        hits.firstSeq[index] = run.firstSeq;
        hits.firstIds[index] = run.firstRequestId;
        hits.firstGeneration[index] = run.firstGeneration;
      }
      hits.counts[index] = count + run.count;
      if (run.lastSeq > (hits.lastSeq[index] as number)) {
        hits.lastSeq[index] = run.lastSeq;
        hits.lastIds[index] = run.lastRequestId;
        hits.lastGeneration[index] = run.lastGeneration;
      }
    }
  }

  clear(namespace?: string): void {
    if (namespace === undefined) this.namespaces.clear();
    else this.namespaces.delete(namespace);
  }

  /** The namespace's reset generation now (what a request answered now is counted in). */
  generation(namespace: string): number {
    return this.generations.get(namespace) ?? 0;
  }

  /** The namespace was reset: its journal is empty and its request ids start again from the seed. */
  reset(namespace: string): void {
    this.generations.set(namespace, this.generation(namespace) + 1);
  }

  namespaceNames(): string[] {
    return [...this.namespaces.keys()];
  }

  /** Hits of one namespace (or of all when none is named), optionally of one key id only, by class id. */
  hits(classes: readonly OutcomeClass[], namespace: string | undefined, keyId?: string): Map<string, ClassHits> {
    const sources = namespace === undefined ? [...this.namespaces] : [[namespace, this.namespaces.get(namespace) ?? new Map<string, KeyHits>()] as const];
    const merged = new Map<number, { count: number; first: [number, string | null]; last: [number, string | null]; byKey: Record<string, number> }>();
    for (const [name, keys] of sources) {
      const current = this.generation(name);
      for (const [key, hits] of keys) {
        if (keyId !== undefined && key !== keyId) continue;
        hits.counts.forEach((count, index) => {
          if (count === 0) return;
          const first: [number, string | null] = [
            hits.firstSeq[index] as number,
            hits.firstGeneration[index] === current ? (hits.firstIds[index] as string) : null,
          ];
          const last: [number, string | null] = [
            hits.lastSeq[index] as number,
            hits.lastGeneration[index] === current ? (hits.lastIds[index] as string) : null,
          ];
          const entry = merged.get(index) ?? { count: 0, first, last, byKey: {} as Record<string, number> };
          entry.count += count;
          entry.byKey[key] = (entry.byKey[key] ?? 0) + count;
          if (first[0] < entry.first[0]) entry.first = first;
          if (last[0] > entry.last[0]) entry.last = last;
          merged.set(index, entry);
        });
      }
    }
    return new Map(
      [...merged].map(([index, entry]) => [
        (classes[index] as OutcomeClass).id,
        { count: entry.count, firstRequestId: entry.first[1], lastRequestId: entry.last[1], byKey: entry.byKey },
      ]),
    );
  }
}

/** An entry of the OpenAPI registry (routes, schemas, parameters…). */
interface RegistryDefinition {
  type: string;
  route?: RegisteredRoute;
}

interface RegisteredRoute {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  responses: Record<string | number, unknown>;
  security?: unknown[];
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
  /** Builds the catalog (set by `learn`). */
  private build: (() => CoverageCatalog) | undefined;
  /** `METHOD /hono/:path` → `METHOD /openapi/{path}` of the /v1 operations. */
  private readonly routes = new Map<string, string>();
  private readonly operationByRoute = new WeakMap<object, OperationClasses | null>();
  /** A number per matched Hono route, for `foldKey` (routes are the same objects on every request). */
  private readonly routeIds = new Map<object, number>();
  /** The class numbers of the request being counted (recording is synchronous once the body is read). */
  private readonly hit: number[] = [];
  /**
   * Answered requests not counted yet, as runs of alike answers in a row: counted together, in order, before
   * anything reads or clears the hits and whenever PENDING_LIMIT runs wait. Counted in one loop, a request
   * costs a fraction of what counting it amid its own handling did, a repeated one (a poll, a suite's loop)
   * only a comparison with the one before; few enough wait that they die young.
   */
  private pending: WaitingRun[] = [];
  /**
   * Before the catalog exists, waiting answers are folded by everything their classes depend on (`foldKey`)
   * instead of loading every area to count them: a suite that repeats the same few requests never loads
   * areas it does not call. Past FOLD_LIMIT distinct answers or FOLD_CHARS of keys, every area is loaded.
   */
  private readonly folded = new Map<string, FoldedAnswers>();
  private foldedChars = 0;
  private preparing: Promise<void> | undefined;
  readonly recorder: CoverageRecorder;

  /**
   * `prepare` makes what the catalog is built from known (every area loaded, its sources added, then
   * `learn`): given when the platform is built, run once, when the catalog is first needed. Until then
   * answers wait, unclassified.
   */
  constructor(
    enabled: boolean,
    sources: readonly ClassSource[],
    private readonly prepare: () => Promise<void> = () => Promise.reject(new Error('coverage catalog needed, and nothing loads its areas')),
  ) {
    this.sources = [...sources];
    this.recorder = new CoverageRecorder(enabled);
  }

  /** Registers a table's adapter (an area's capability, when every area is loaded). */
  addSource(source: ClassSource): void {
    this.sources.push(source);
  }

  /**
   * Learns the /v1 operations once every route is mounted; the catalog is built from every source when
   * first needed (the first /v1 answer or report), not during start-up, which it would lengthen by ~10 ms.
   * `examples` reads the operations' documented examples then.
   */
  learn(
    definitions: readonly RegistryDefinition[],
    examples: () => Record<string, { request?: unknown; status?: number }>,
    context: Omit<SourceContext, 'operations' | 'keys'>,
  ): void {
    const routes: RegisteredRoute[] = [];
    for (const { type, route } of definitions) {
      if (type !== 'route' || !route?.operationId || !route.path.startsWith('/v1/')) continue;
      routes.push(route);
      this.routes.set(routingKeyOf(route.method.toUpperCase(), route.path), `${route.method.toUpperCase()} ${route.path}`);
    }
    this.build = () => {
      const documented = examples();
      const operations = new Map<string, OperationInfo>();
      for (const route of routes) {
        const method = route.method.toUpperCase();
        const name = `${method} ${route.path}`;
        const operationId = route.operationId as string;
        operations.set(name, {
          name,
          operationId,
          method,
          path: route.path,
          summary: route.summary ?? '',
          statuses: Object.keys(route.responses)
            .map(Number)
            .filter(Number.isInteger)
            .sort((a, b) => a - b),
          exampleBody: documented[operationId]?.request,
          exampleStatus: documented[operationId]?.status,
          takesApiKey: (route.security ?? []).length > 0,
        });
      }
      return new CoverageCatalog(operations, this.sources, { ...context, operations, keys: TRIGGER_KEYS });
    };
  }

  /** Whether the catalog can be built now (every operation learnt). */
  get ready(): boolean {
    return this.built !== undefined || this.build !== undefined;
  }

  /** Makes the catalog buildable (loading what it is built from, once), then counts what waited. */
  async whenReady(): Promise<void> {
    if (this.ready) return;
    this.preparing ??= this.prepare();
    await this.preparing;
  }

  get catalog(): CoverageCatalog {
    if (!this.built) {
      if (!this.build) throw new Error('coverage catalog used before every area was loaded (await whenReady() first)');
      this.built = this.build();
      this.build = undefined;
      this.recorder.size = this.built.classes.length;
    }
    return this.built;
  }

  /** The classes of the documented /v1 operation named `METHOD /openapi/{path}`, if it has any. */
  operationNamed(name: string | undefined): OperationClasses | undefined {
    return name === undefined ? undefined : this.catalog.operation(name);
  }

  /** The classes of the documented /v1 operation of the matched Hono routes (`method`, `path` as Hono registered them). */
  operationOf(matched: readonly { method: string; path: string }[]): OperationClasses | undefined {
    for (const route of matched) {
      // Hono hands back the same route objects on every request: each is looked up once.
      let classes = this.operationByRoute.get(route);
      if (classes === undefined) {
        const name = this.routes.get(`${route.method} ${route.path}`);
        classes = name === undefined ? null : (this.catalog.operation(name) ?? null);
        this.operationByRoute.set(route, classes);
      }
      if (classes !== null) return classes;
    }
    return undefined;
  }

  /** The report of one namespace, or of every namespace together when none is named (`*`); optionally of one kind of class. */
  /** `journal`: the answers of the namespace the report's curls call, whose records fill their paths. */
  report(scope: { namespace?: string; keyId?: string; kind?: OutcomeKind; baseUrl: string; journal?: readonly JournalAnswer[] }): CoverageReport {
    this.countPending();
    const classes = scope.kind === undefined ? this.catalog.classes : this.catalog.classes.filter((outcome) => outcome.kind === scope.kind);
    return buildReport(classes, this.recorder.hits(this.catalog.classes, scope.namespace, scope.keyId), {
      namespace: scope.namespace ?? '*',
      ...(scope.keyId === undefined ? {} : { keyId: scope.keyId }),
      baseUrl: scope.baseUrl,
      recordIds: new RecordIds([...this.catalog.operations.values()], scope.journal ?? []),
    });
  }

  /** The namespaces with hits. */
  namespaceNames(): string[] {
    this.countPending();
    return this.recorder.namespaceNames();
  }

  /** A reset of the namespace: the ids of the requests it answered before leave the journal. */
  namespaceReset(namespace: string): void {
    this.recorder.reset(namespace);
  }

  /** Forgets the hits of one namespace, or of all. */
  clear(namespace?: string): void {
    this.countPending();
    this.recorder.clear(namespace);
  }

  /** Counts the classes an answered request fell into (soon: once PENDING_LIMIT runs wait, or before anything reads them). */
  record(namespace: string, observation: Observation): void {
    if (!this.recorder.enabled) return;
    const last = this.pending[this.pending.length - 1];
    const generation = this.recorder.generation(namespace);
    if (last !== undefined && last.namespace === namespace && alikeAnswers(last.observation, observation)) {
      last.count += 1;
      last.lastRequestId = observation.requestId;
      last.lastGeneration = generation;
      return;
    }
    this.pending.push({ namespace, observation, firstGeneration: generation, count: 1, lastRequestId: observation.requestId, lastGeneration: generation });
    if (this.pending.length < PENDING_LIMIT) return;
    if (this.ready) this.countPending();
    else if (!this.preparing && this.fold()) {
      // Loading every area is a few hundred ms: done once, when too many different answers wait.
      this.whenReady()
        .then(() => this.countPending())
        .catch(ignoreUntilAsked);
    }
  }

  /** The waiting runs, numbered in order (the recorder's sequence) and taken off the queue. */
  private takePending(): { namespace: string; observation: Observation; run: RequestRun }[] {
    const waiting = this.pending;
    this.pending = [];
    return waiting.map(({ namespace, observation, firstGeneration, count, lastRequestId, lastGeneration }) => {
      const firstSeq = this.recorder.nextSequence(count);
      return {
        namespace,
        observation,
        run: { count, firstSeq, firstRequestId: observation.requestId, firstGeneration, lastSeq: firstSeq + count - 1, lastRequestId, lastGeneration },
      };
    });
  }

  /** Folds the waiting answers into `folded`; whether it is full (the areas must be loaded to count them). */
  private fold(): boolean {
    for (const { namespace, observation, run } of this.takePending()) {
      const key = this.foldKey(namespace, observation);
      const alike = this.folded.get(key);
      if (alike === undefined) {
        this.folded.set(key, { namespace, observation, run });
        this.foldedChars += key.length;
      } else {
        alike.run.count += run.count;
        alike.run.lastSeq = run.lastSeq;
        alike.run.lastRequestId = run.lastRequestId;
        alike.run.lastGeneration = run.lastGeneration;
      }
    }
    return this.folded.size >= FOLD_LIMIT || this.foldedChars >= FOLD_CHARS;
  }

  /** What an answer's classes depend on (everything `count` reads but its request id), as one string. */
  private foldKey(namespace: string, observation: Observation): string {
    const { operationName, routes = [], facts } = observation;
    let operation = operationName ?? '';
    for (const route of routes) {
      let id = this.routeIds.get(route);
      if (id === undefined) this.routeIds.set(route, (id = this.routeIds.size + 1));
      operation += `${id},`;
    }
    return `${namespace}\n${observation.keyId}\n${observation.keyKind}\n${observation.factsOnly === true}\n${operation}\n${observation.status}\n${observation.path}\n${facts.join('\t')}\n${observation.body ?? ''}`;
  }

  private countPending(): void {
    for (const { namespace, observation, run } of this.folded.values()) this.count(namespace, this.resolved(observation), run);
    this.folded.clear();
    this.foldedChars = 0;
    if (this.pending.length === 0) return;
    for (const { namespace, observation, run } of this.takePending()) this.count(namespace, this.resolved(observation), run);
  }

  /** The observation with the classes of its operation, when it was made before the catalog existed. */
  private resolved(observation: Observation): Observation {
    if (observation.operationName !== undefined) observation.operation = this.operationNamed(observation.operationName);
    else if (observation.routes) observation.operation = this.operationOf(observation.routes);
    return observation;
  }

  /** Counts a run of alike answers (one answer, or many folded or in a row). */
  private count(namespace: string, observation: Observation, run: RequestRun): void {
    const hit = this.hit;
    hit.length = 0;
    if (observation.factsOnly) this.catalog.classifyFacts(observation.facts, hit);
    else this.catalog.classify(observation, this.catalog.pathClasses(observation), hit);
    this.recorder.add(namespace, hit, observation.keyId, run);
  }

  /**
   * Records facts noted on a control-plane request, which the pipeline does not record (its statuses are
   * not the service's): a session move QA drove there is one the suite made its code meet.
   */
  recordFacts(namespace: string, facts: readonly string[], requestId: string): void {
    this.record(namespace, { requestId, keyId: null, keyKind: undefined, operation: undefined, path: '', status: 0, facts, factsOnly: true });
  }
}

/**
 * Counting in the background must not end the process: a failed load of the areas is the area's own error,
 * met again by its next request and by whoever asks for the report (`whenReady`, the report's own count).
 */
const ignoreUntilAsked = () => undefined;
