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
import { ApiError } from '../errors/api-error.ts';
import type { Partition, Store } from '../store/store.ts';
import type { MessageCourier } from '../outbox/courier.ts';
import { DEFAULT_NAMESPACE, namespacedUrl } from './namespaced-url.ts';

export { DEFAULT_NAMESPACE, namespacedUrl } from './namespaced-url.ts';
/** Letters, digits, `_`, `.` and `-`, but never only dots (`.` and `..` read as directories to people and tools). */
export const NAMESPACE_PATTERN = /^(?!\.+$)[A-Za-z0-9_.-]{1,64}$/;

/**
 * Every link the sandbox hands out: a public base URL, a path, and the namespace (when not the default)
 * as `?namespace=`, so a link from a namespace works when followed as it is.
 */
export function sandboxLink(base: string, path: string, namespace: string | undefined): string {
  return namespacedUrl(`${base.replace(/\/+$/, '')}${path}`, namespace);
}

export interface WorldSettings {
  seed: number;
  /** The sandbox's private secret, which hosted-page tokens derive from. */
  secret: string;
  clock: ClockSetting;
  scenarios: readonly string[];
  rateLimits: RateLimits | null;
  requestLog: RequestLogLimits;
  /** At most this many namespaces at once; past it a new one is refused (507), never made room for. */
  maxNamespaces: number;
  /** `--smtp`: where outbox e-mails are also delivered. */
  courier?: MessageCourier;
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
  readonly courier: MessageCourier | undefined;
  /** Set by a reset: the namespace lives on in a new world, and late work (an SMTP answer) must not write here. */
  retired = false;
  private requestNumber = 0;
  private readonly secret: string;

  constructor(
    readonly namespace: string,
    readonly seed: number,
    settings: WorldSettings,
    data: Partition,
    registry: ScenarioRegistry,
  ) {
    this.secret = settings.secret;
    this.clock = new VirtualClock(settings.clock);
    this.requestLog = new RequestLog(settings.requestLog);
    this.rateLimiter = settings.rateLimits ? new RateLimiter(settings.rateLimits) : null;
    this.scenarios = new ScenarioState(registry, seed, namespace, settings.scenarios);
    this.data = data;
    this.courier = settings.courier;
    data.useClock(() => this.clock.now());
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
}

/**
 * The namespaces. Only an authenticated request (an API key, or the operator's control plane and console)
 * creates one (`admit`); any other request naming a new namespace is served by a visitor world that is
 * never kept and whose data refuses writes, so a flood of made-up names changes nothing. Past
 * `maxNamespaces` a new namespace is refused; none is ever evicted: a namespace leaves only by a reset.
 */
export class Worlds {
  /** Keyed by a Map, never a plain object: `__proto__` or `constructor` is a namespace like any other. */
  private readonly worlds = new Map<string, World>();
  private readonly seeds = new Map<string, number>();
  /** Requests served by visitor worlds, every namespace together: a visitor world lives for one request. */
  private visitorRequests = 0;

  constructor(
    private readonly settings: WorldSettings,
    private readonly store: Store,
    private readonly registry: ScenarioRegistry,
  ) {}

  /** The namespace's world, created if it does not exist yet (the embedding code and the operator's surfaces). */
  get(namespace: string = DEFAULT_NAMESPACE): World {
    return this.existing(namespace) ?? this.admit(this.visitor(namespace));
  }

  /** The world of a namespace that exists (in memory, or in the store: built again from its data), or undefined. */
  existing(namespace: string): World | undefined {
    const world = this.worlds.get(namespace);
    if (world) return world;
    if (namespace !== DEFAULT_NAMESPACE && !this.store.hasPartition(namespace)) return undefined;
    return this.keep(new World(namespace, this.seedOf(namespace), this.settings, this.store.partition(namespace), this.registry));
  }

  /** Whether `world` is its namespace's own world, not a visitor's. */
  keeps(world: World): boolean {
    return this.worlds.get(world.namespace) === world;
  }

  /**
   * What a request id is hashed from: the namespace and the request's number there, or for a visitor
   * world, which counts one request only (two first requests of a namespace would share its number 1),
   * the request's number among all visitors' requests.
   */
  requestNumber(world: World): (string | number)[] {
    if (this.keeps(world)) return [world.namespace, world.nextRequestNumber()];
    this.visitorRequests += 1;
    return [world.namespace, 'visitor', this.visitorRequests];
  }

  /** A world for a request that may not create its namespace: kept nowhere; a write to it is refused. */
  visitor(namespace: string): World {
    return new World(namespace, this.seedOf(namespace), this.settings, this.store.detachedPartition(namespace), this.registry);
  }

  /**
   * Makes a visitor world's namespace exist (the request was authenticated), or refuses it with a 507
   * past maxNamespaces. A world that exists already is returned as it is.
   */
  admit(world: World): World {
    const existing = this.existing(world.namespace);
    if (existing) return existing;
    const count = this.names().length;
    if (count >= this.settings.maxNamespaces) {
      throw new ApiError(
        507,
        `The sandbox holds ${count} namespaces, its limit (--max-namespaces ${this.settings.maxNamespaces}): namespace "${world.namespace}" was not created. Reset the namespaces you no longer need (POST /__sandbox/reset with X-Sandbox-Namespace) or start the sandbox with a higher --max-namespaces.`,
      );
    }
    world.data.attach();
    return this.keep(world);
  }

  /** The namespaces in memory now. */
  loaded(): World[] {
    return [...this.worlds.values()];
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
    this.store.dropPartition(namespace);
    const world = this.worlds.get(namespace);
    if (world) world.retired = true;
    this.worlds.delete(namespace);
    this.seeds.delete(namespace);
    if (seed !== undefined) this.seeds.set(namespace, seed);
  }

  private seedOf(namespace: string): number {
    return this.seeds.get(namespace) ?? this.settings.seed;
  }

  private keep(world: World): World {
    this.worlds.set(world.namespace, world);
    return world;
  }
}
