/**
 * Retention: records not written for longer than the limit (on their namespace's virtual clock) are
 * dropped, and so is a namespace none of whose records was written within it. The limit is the sandbox's
 * (`--retention DAYS`) unless the namespace sets its own through the control plane (kept in its `meta`
 * collection, so it lasts across restarts). Deletions go through the store like any write, hence are
 * journaled and survive a restart.
 *
 * A purge runs in short slices (WorkSlices) with the event loop free between them, so requests are
 * answered while it runs; a sweep starts one every SWEEP_INTERVAL_MS of real time (when listening).
 * The id counter and the namespace's settings (`meta`) go only with the whole namespace, never one by
 * one: ids must not repeat while records remain.
 */
import { WorkSlices } from '../background/work-slices.ts';
import type { Collection, Identified } from '../store/collection.ts';
import type { Store } from '../store/store.ts';
import type { Worlds } from '../namespaces/world.ts';

export const DAY_MS = 86_400_000;
/** Old records deleted together within a slice: deleting one costs tens of microseconds (its index keys, its journal line). */
const DELETE_BATCH = 64;
export const SWEEP_INTERVAL_MS = 60_000;

export const META = 'meta';
const SETTING_ID = 'retention';

interface RetentionSetting {
  id: typeof SETTING_ID;
  /** Days records are kept in this namespace; 0 keeps them forever. */
  days: number;
}

/** Where a namespace's limit comes from. */
export type RetentionSource = 'namespace' | 'sandbox' | 'none';

export interface RetentionView {
  namespace: string;
  /** The limit in force, in days; absent when records are kept forever. */
  days?: number;
  source: RetentionSource;
}

export interface PurgeOutcome {
  namespace: string;
  /** Records dropped (every record of a dropped namespace included). */
  records: number;
  /** The whole namespace was dropped: none of its records was written within the limit. */
  dropped: boolean;
}

/** What retention does beyond the store: what dropped records stand for outside it. */
export interface RetentionEffects {
  /** Drops a whole namespace (its data, world and uploaded files), as a reset does. */
  dropNamespace(namespace: string): Promise<void>;
  /** Records of `collection` were dropped: removes what they stand for outside the store (an upload's bytes). */
  dropped(namespace: string, collection: string, ids: readonly string[]): Promise<void>;
}

export class Retention {
  private running: Promise<PurgeOutcome[]> | null = null;
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    /** `--retention`: the sandbox's limit in days, or undefined to keep records forever. */
    readonly sandboxDays: number | undefined,
    private readonly store: Store,
    private readonly worlds: Worlds,
    private readonly effects: RetentionEffects,
  ) {}

  /** The limit in force for a namespace. */
  view(namespace: string): RetentionView {
    const own = this.ownSetting(namespace);
    if (own !== undefined) return own.days > 0 ? { namespace, days: own.days, source: 'namespace' } : { namespace, source: 'namespace' };
    return this.sandboxDays === undefined ? { namespace, source: 'none' } : { namespace, days: this.sandboxDays, source: 'sandbox' };
  }

  /** Sets the namespace's own limit (0: keep forever), or with null follows the sandbox's again. */
  setOwn(namespace: string, days: number | null): RetentionView {
    const meta = this.worlds.get(namespace).data.collection<RetentionSetting>(META);
    if (days === null) meta.delete(SETTING_ID);
    else meta.put({ id: SETTING_ID, days });
    return this.view(namespace);
  }

  /** Purges every namespace once; a purge asked for while one runs joins it. */
  purge(): Promise<PurgeOutcome[]> {
    this.running ??= this.purgeAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Purges every SWEEP_INTERVAL_MS (real time) while the process runs. */
  startSweeping(): void {
    this.sweep ??= setInterval(() => void this.purge(), SWEEP_INTERVAL_MS).unref();
  }

  async stop(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    await this.running?.catch(() => undefined);
  }

  private ownSetting(namespace: string): RetentionSetting | undefined {
    return this.store.hasPartition(namespace) ? this.store.partition(namespace).collection<RetentionSetting>(META).get(SETTING_ID) : undefined;
  }

  private async purgeAll(): Promise<PurgeOutcome[]> {
    const outcomes: PurgeOutcome[] = [];
    for (const namespace of this.store.namespaces()) {
      const days = this.view(namespace).days;
      if (days === undefined) continue;
      const outcome = await this.purgeNamespace(namespace, days * DAY_MS);
      if (outcome.records > 0 || outcome.dropped) outcomes.push(outcome);
    }
    return outcomes;
  }

  private async purgeNamespace(namespace: string, limitMs: number): Promise<PurgeOutcome> {
    const world = this.worlds.existing(namespace);
    if (!world) return { namespace, records: 0, dropped: false };
    const cutoff = world.clock.now() - limitMs;
    const partition = world.data;
    const slices = new WorkSlices();
    // First the newest write: a namespace left alone past the limit goes whole, in one journal line.
    let newest = Number.NEGATIVE_INFINITY;
    let total = 0;
    for (const collection of partition.filled()) {
      for (const id of collection.ids()) {
        total += 1;
        // A record of a store written before the stamps existed starts its time now, durably.
        const at = collection.writtenAt(id) ?? stampNow(collection, id);
        if (at !== undefined && at > newest) newest = at;
        if (slices.due()) await slices.next();
      }
    }
    if (total > 0 && newest < cutoff && this.store.hasPartition(namespace)) {
      await this.effects.dropNamespace(namespace);
      return { namespace, records: total, dropped: true };
    }
    let records = 0;
    for (const collection of partition.filled()) {
      if (collection.name === META) continue;
      // A slice's old records are all deleted before the event loop turns: none is written meanwhile.
      let old: string[] = [];
      // Deleted first, then released: a stop in between leaves bytes nothing points at, never a record without its bytes.
      const drop = async () => {
        records += collection.deleteMany(old);
        if (old.length > 0) await this.effects.dropped(namespace, collection.name, old);
        old = [];
      };
      for (const id of collection.ids()) {
        const at = collection.writtenAt(id);
        if (at !== undefined && at < cutoff) old.push(id);
        const due = slices.due();
        if (due || old.length === DELETE_BATCH) await drop();
        if (due) await slices.next();
      }
      await drop();
    }
    return { namespace, records, dropped: false };
  }
}

/** Writes a record again unchanged, which stamps it with the namespace's clock (and journals the stamp). */
function stampNow(collection: Collection<Identified>, id: string): number | undefined {
  const record = collection.get(id);
  if (record) collection.put(record);
  return collection.writtenAt(id);
}
