/**
 * The virtual clock. Every timestamp, expiry, job progression, rate-limit window and daily quota reads
 * this clock, never the system time directly, so tests can freeze and advance it.
 *
 * Real mode: now = system time + offset. Frozen mode: now = a fixed instant. Advancing moves either.
 */
import { z } from 'zod';

export type ClockMode = 'real' | 'frozen';

/**
 * Where a virtual clock may stand: from the Unix epoch to 9000-01-01, so that every instant derived from
 * it (expiries up to a year, retention windows) still has a four-digit year and stays a valid Date.
 */
export const CLOCK_RANGE = { earliest: 0, latest: Date.UTC(9000, 0, 1) } as const;

/** Why an instant is outside CLOCK_RANGE (ISO dates in the message), or undefined when it is inside. */
export function clockRangeProblem(atMs: number): string | undefined {
  if (Number.isFinite(atMs) && atMs >= CLOCK_RANGE.earliest && atMs <= CLOCK_RANGE.latest) return undefined;
  return `the clock must stay between ${new Date(CLOCK_RANGE.earliest).toISOString()} and ${new Date(CLOCK_RANGE.latest).toISOString()}`;
}

/** The only place the sandbox reads the machine's time. */
export const systemTime = (): number => Date.now();

export interface ClockState {
  mode: ClockMode;
  now: string;
}

export class VirtualClock {
  private frozenAt: number | null;
  private offsetMs = 0;
  /** The last instant `iso` formatted, and its text. */
  private lastIsoMs = Number.NaN;
  private lastIso = '';

  constructor(
    initial: ClockSetting = { mode: 'real' },
    private readonly source: () => number = systemTime,
  ) {
    this.frozenAt = null;
    this.apply(initial);
  }

  /** Epoch milliseconds on the virtual clock. */
  now(): number {
    return this.frozenAt ?? this.source() + this.offsetMs;
  }

  /** ISO 8601 (UTC, with Z) on the virtual clock. */
  iso(atMs: number = this.now()): string {
    // A request asks for the same instant several times (a frozen clock, always): formatted once.
    if (atMs !== this.lastIsoMs) {
      this.lastIso = new Date(atMs).toISOString();
      this.lastIsoMs = atMs;
    }
    return this.lastIso;
  }

  get mode(): ClockMode {
    return this.frozenAt === null ? 'real' : 'frozen';
  }

  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
  }

  set(atMs: number): void {
    if (this.frozenAt !== null) this.frozenAt = atMs;
    else this.offsetMs = atMs - this.source();
  }

  freeze(frozen: boolean): void {
    if (frozen && this.frozenAt === null) this.frozenAt = this.now();
    if (!frozen && this.frozenAt !== null) {
      this.offsetMs = this.frozenAt - this.source();
      this.frozenAt = null;
    }
  }

  apply(setting: ClockSetting): void {
    if (setting.mode === 'frozen') {
      this.frozenAt = setting.at ?? this.now();
    } else {
      this.frozenAt = null;
      this.offsetMs = setting.at === undefined ? 0 : setting.at - this.source();
    }
  }

  state(): ClockState {
    return { mode: this.mode, now: this.iso() };
  }
}

/** How a clock starts: `real`, `frozen` (at start-up time) or `frozen@2026-01-01T00:00:00Z`. */
export interface ClockSetting {
  mode: ClockMode;
  at?: number;
}

/** Parses the `--clock` flag value. Throws with a message naming the accepted forms. */
export function parseClockSetting(value: string): ClockSetting {
  const match = /^(real|frozen)(?:@(.+))?$/.exec(value.trim());
  if (!match) throw new Error(`--clock must be "real", "frozen" or "frozen@<ISO 8601 instant>", got "${value}"`);
  const mode = match[1] as ClockMode;
  if (match[2] === undefined) return { mode };
  const at = Date.parse(match[2]);
  if (Number.isNaN(at)) throw new Error(`--clock instant "${match[2]}" is not an ISO 8601 date-time`);
  const outOfRange = clockRangeProblem(at);
  if (outOfRange) throw new Error(`--clock instant "${match[2]}" is out of range: ${outOfRange}`);
  return { mode, at };
}

/** "90s", "15m", "2h", "1d", "250ms" or a bare number of milliseconds. */
export const DurationSchema = z.union([
  z
    .number()
    .int()
    .min(-10 * 365 * 86_400_000)
    .max(10 * 365 * 86_400_000),
  z.string().regex(/^-?\d{1,15}(ms|s|m|h|d)$/, 'a duration such as "250ms", "90s", "15m", "2h" or "1d" (at most 15 digits)'),
]);

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function durationToMs(value: z.infer<typeof DurationSchema>): number {
  if (typeof value === 'number') return value;
  const match = /^(-?\d{1,15})(ms|s|m|h|d)$/.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
