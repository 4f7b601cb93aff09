/**
 * The two primitives every request calls several times: the virtual clock's ISO text (formatted once per
 * instant) and the hash that ids derive from (one update of the joined parts). Both must give exactly what
 * they gave before, or stored ids and transcripts would change from one version to the next.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/platform/clock/virtual-clock.ts';
import { hashParts, hexHashParts } from '../../src/platform/random/random.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the virtual clock’s ISO text', () => {
  it('follows the clock and any instant asked for, whatever was formatted before', () => {
    const clock = new VirtualClock({ mode: 'frozen', at: Date.parse('2026-01-15T09:30:00.000Z') });
    expect(clock.iso()).toBe('2026-01-15T09:30:00.000Z');
    expect(clock.iso()).toBe('2026-01-15T09:30:00.000Z');
    clock.advance(1);
    expect(clock.iso()).toBe('2026-01-15T09:30:00.001Z');
    expect(clock.iso(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(clock.iso()).toBe('2026-01-15T09:30:00.001Z');
    expect(() => clock.iso(Number.NaN)).toThrow(RangeError);
    expect(() => clock.iso(Number.NaN)).toThrow(RangeError);
  });
});

describe('hashParts', () => {
  it('hashes each part followed by a NUL, as it always has', () => {
    expect(hashParts('a', 1, 'é').toString('hex')).toBe(sha256('a\u00001\u0000é\u0000'));
    expect(hashParts().toString('hex')).toBe(sha256(''));
    expect(hashParts('').toString('hex')).toBe(sha256('\u0000'));
  });

  it('gives the same digest as hex text directly (request ids)', () => {
    for (const parts of [['a', 1, 'é'], [], ['secret', 'team-a', 41]] as (string | number)[][]) {
      expect(hexHashParts(...parts)).toBe(hashParts(...parts).toString('hex'));
    }
    expect(hexHashParts('a', 1, 'é')).toBe(sha256('a\u00001\u0000é\u0000'));
  });
});
