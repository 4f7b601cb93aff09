/**
 * Background work (a retention purge, the store's statistics, a snapshot cache's index keys and hash table)
 * runs in slices, the event loop turning between them so that requests are answered meanwhile. A slice
 * ends after SLICE_MS of work or a number of items (SLICE_ITEMS unless the walk says), whichever comes first.
 *
 * Time bounds a slice because libuv accepts one new connection per turn of the loop: while each turn also
 * runs a 12 ms slice, twenty clients connecting at once wait up to twenty turns (240 ms) for their first
 * answer. The count keeps the number of turns a walk takes independent of the machine's speed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export const SLICE_MS = 2;
export const SLICE_ITEMS = 500;
/** Items between two readings of the clock (one costs about as much as a cheap item). */
const CLOCK_EVERY = 16;

export class WorkSlices {
  private items = 0;
  private began = performance.now();

  /** `maxItems`: more for a walk whose items take well under a microsecond each. */
  constructor(private readonly maxItems = SLICE_ITEMS) {}

  /** Counts one item done; true when the slice is over (then await `next()`). */
  due(): boolean {
    this.items += 1;
    return this.items >= this.maxItems || (this.items % CLOCK_EVERY === 0 && performance.now() - this.began >= SLICE_MS);
  }

  /** Lets the event loop turn (requests, new connections), then begins the next slice. */
  async next(): Promise<void> {
    await nextTurn();
    this.items = 0;
    this.began = performance.now();
  }
}
