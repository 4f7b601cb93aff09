import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLICE_ITEMS, SLICE_MS, WorkSlices } from '../../src/platform/background/work-slices.ts';

/** Items counted until `due` says the slice is over, each item taking `msEach` on the faked clock. */
function itemsInSlice(slices: WorkSlices, msEach: number, limit = 100_000): number {
  for (let items = 1; items <= limit; items++) {
    vi.advanceTimersByTime(msEach);
    if (slices.due()) return items;
  }
  return limit;
}

describe('background work slices', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a slice of quick items after SLICE_ITEMS of them, and of slow ones after SLICE_MS', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const slices = new WorkSlices();
    expect(itemsInSlice(slices, 0)).toBe(SLICE_ITEMS);
    await slices.next();
    // 0.125 ms an item: 16 of them (the clock is read every 16th) reach 2 ms, long before 500.
    expect(itemsInSlice(slices, SLICE_MS / 16)).toBe(16);
    await slices.next();
    // Items of a millisecond each: the first reading of the clock (the 16th item) ends the slice.
    expect(itemsInSlice(slices, 1)).toBe(16);
  });

  it('begins each slice afresh after the event loop turns, and takes its own item limit', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const slices = new WorkSlices(20_000);
    vi.advanceTimersByTime(SLICE_MS * 10);
    // The time before the first item counts: the first reading of the clock ends it.
    expect(itemsInSlice(slices, 0)).toBe(16);
    await slices.next();
    expect(itemsInSlice(slices, 0)).toBe(20_000);
  });

  it('lets requests waiting for the event loop run between two slices', async () => {
    const slices = new WorkSlices(3);
    const order: string[] = [];
    // Waiting already when the walk begins, as a request read from a socket is.
    setImmediate(() => order.push('request'));
    const walk = (async () => {
      for (let item = 1; item <= 6; item++) {
        order.push(`item ${item}`);
        if (slices.due()) await slices.next();
      }
    })();
    await walk;
    expect(order).toEqual(['item 1', 'item 2', 'item 3', 'request', 'item 4', 'item 5', 'item 6']);
  });
});
