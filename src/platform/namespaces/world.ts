/**
 * A world is the whole state of one namespace: its store partition, clock, id sequence, request journal,
 * rate-limit buckets and active scenarios. Requests pick their world with `X-Sandbox-Namespace`, so
 * parallel CI workers sharing one sandbox never see each other.
 */
import { VirtualClock, type ClockSetting } from '../clock/virtual-clock.ts';
import { uuidFrom } from '../random/random.ts';
import { pageToken } from '../secrets/page-tokens.ts';
import { RateLimiter, type RateLimits } from '../rate-limit/rate-limiter.ts';
import { RequestLog, type RequestLogLimits } from '../request-log/request-log.ts';
import { ScenarioState, type ScenarioRegistry } from '../scenarios/scenarios.ts';
import type { Partition, Store } from '../store/store.ts';

export const DEFAULT_NAMESPACE = 'default';
/** Letters, digits, `_`, `.` and `-`, but never only dots (`.` and `..` read as directories to people and tools). */
export const NAMESPACE_PATTERN = /^(?!\.+$)[A-Za-z0-9_.-]{1,64}$/;

/**
 * A link into a page or API of the sandbox, carrying `namespace=<ns>` outside the default namespace so
 * that following it lands in the same partition (browsers cannot send X-Sandbox-Namespace).
 */
/**
 * Every link the sandbox hands out: a public base URL, a path, and the namespace (when not the default)
 * as `?namespace=`, so a link from a namespace works when followed as it is.
 */
export function sandboxLink(base: string, path: string, namespace: string | undefined): string {
  return namespacedUrl(`${base.replace(/\/+$/, '')}${path}`, namespace);
}

export function namespacedUrl(url: string, namespace: string | undefined): string {
  if (namespace === undefined || namespace === DEFAULT_NAMESPACE) return url;
  return `${url}${url.includes('?') ? '&' : '?'}namespace=${encodeURIComponent(namespace)}`;
}

export interface WorldSettings {
  seed: number;
  /** The sandbox's private secret, which hosted-page tokens derive from. */
  secret: string;
  clock: ClockSetting;
  scenarios: readonly string[];
  rateLimits: RateLimits | null;
  requestLog: RequestLogLimits;
  /** At most this many namespaces at once; a new one evicts the least recently used (never the default). */
  maxNamespaces: number;
}

export const DEFAULT_MAX_NAMESPACES = 1000;

interface IdCounter {
  id: 'id-counter';
  next: number;
}

export class World {
  readonly clock: VirtualClock;
  readonly requestLog: RequestLog;
  readonly rateLimiter: RateLimiter | null;
  readonly scenarios: ScenarioState;
  readonly data: Partition;
  private requestNumber = 0;
  private readonly secret: string;

  constructor(
    readonly namespace: string,
    readonly seed: number,
    settings: WorldSettings,
    store: Store,
    registry: ScenarioRegistry,
  ) {
    this.secret = settings.secret;
    this.clock = new VirtualClock(settings.clock);
    this.requestLog = new RequestLog(settings.requestLog);
    this.rateLimiter = settings.rateLimits ? new RateLimiter(settings.rateLimits) : null;
    this.scenarios = new ScenarioState(registry, seed, namespace, settings.scenarios);
    this.data = store.partition(namespace);
  }

  /** The next id of this namespace: a UUID v4 fixed by the seed, the namespace and a persisted counter. */
  uuid(): string {
    const meta = this.data.collection<IdCounter>('meta');
    const n = meta.get('id-counter')?.next ?? 0;
    meta.put({ id: 'id-counter', next: n + 1 });
    return uuidFrom('id', this.seed, this.namespace, n);
  }

  /** The token a hosted page of record `id` needs in its link (see src/platform/secrets/page-tokens.ts). */
  pageToken(id: string): string {
    return pageToken(this.secret, this.namespace, id);
  }

  /** Numbers the namespace's requests (request ids), so ids repeat with the same traffic. */
  nextRequestNumber(): number {
    this.requestNumber += 1;
    return this.requestNumber;
  }

  nowIso(): string {
    return this.clock.iso();
  }
}

export class Worlds {
  /** In least-recently-used order: `get` moves a namespace to the end. */
  private readonly worlds = new Map<string, World>();
  private readonly seeds = new Map<string, number>();

  constructor(
    private readonly settings: WorldSettings,
    private readonly store: Store,
    private readonly registry: ScenarioRegistry,
    /** Told when a namespace is evicted to make room, so its uploads go with it. */
    private readonly onEvict: (namespace: string) => void = () => undefined,
  ) {}

  get(namespace: string = DEFAULT_NAMESPACE): World {
    let world = this.worlds.get(namespace);
    if (world) {
      this.worlds.delete(namespace);
    } else {
      this.makeRoomFor(namespace);
      world = new World(namespace, this.seeds.get(namespace) ?? this.settings.seed, this.settings, this.store, this.registry);
    }
    this.worlds.set(namespace, world);
    return world;
  }

  /** Namespaces that exist in memory or in the store. */
  names(): string[] {
    return [...new Set([DEFAULT_NAMESPACE, ...this.worlds.keys(), ...this.store.namespaces()])];
  }

  /**
   * Back to the fixtures: data, clock, journal, limits and scenarios of the namespace; optionally a new
   * seed. Its memory is freed: the namespace is built again, from the fixtures, when next used.
   */
  reset(namespace: string, seed?: number): void {
    this.drop(namespace);
    if (seed !== undefined) this.seeds.set(namespace, seed);
  }

  /** Evicts the least recently used namespaces (those only in the store first) until a new one fits. */
  private makeRoomFor(namespace: string): void {
    for (;;) {
      const names = this.names().filter((name) => name !== namespace);
      if (names.length < this.settings.maxNamespaces) return;
      const storeOnly = this.store.namespaces().find((name) => name !== DEFAULT_NAMESPACE && !this.worlds.has(name));
      const oldest = storeOnly ?? [...this.worlds.keys()].find((name) => name !== DEFAULT_NAMESPACE);
      if (oldest === undefined) return;
      this.drop(oldest);
      this.onEvict(oldest);
    }
  }

  private drop(namespace: string): void {
    this.store.dropPartition(namespace);
    this.worlds.delete(namespace);
    this.seeds.delete(namespace);
  }
}
