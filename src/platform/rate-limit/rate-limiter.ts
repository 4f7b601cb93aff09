/**
 * Per-key limits of the spec: a token bucket (25 requests/s sustained, burst 35) and a daily quota
 * (10,000, reset at UTC midnight). Both run on the namespace's virtual clock, so a frozen clock never
 * refills the bucket and a test can step over midnight.
 */

export interface RateLimits {
  perSecond: number;
  burst: number;
  dailyQuota: number;
}

export const SPEC_RATE_LIMITS: RateLimits = { perSecond: 25, burst: 35, dailyQuota: 10_000 };

export type RateDecision =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; reason: 'rate' | 'quota'; retryAfterSeconds: number; headers: Record<string, string> };

interface KeyState {
  tokens: number;
  refilledAtMs: number;
  day: string;
  usedToday: number;
}

const DAY_MS = 86_400_000;

export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();

  constructor(readonly limits: RateLimits) {}

  /** Takes one token for `keyId` at `nowMs`. */
  take(keyId: string, nowMs: number): RateDecision {
    const day = new Date(nowMs).toISOString().slice(0, 10);
    let state = this.keys.get(keyId);
    if (!state) this.keys.set(keyId, (state = { tokens: this.limits.burst, refilledAtMs: nowMs, day, usedToday: 0 }));
    const elapsed = Math.max(0, nowMs - state.refilledAtMs);
    state.tokens = Math.min(this.limits.burst, state.tokens + (elapsed * this.limits.perSecond) / 1000);
    state.refilledAtMs = nowMs;
    if (state.day !== day) {
      state.day = day;
      state.usedToday = 0;
    }

    const nextMidnightMs = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
    if (state.usedToday >= this.limits.dailyQuota) {
      const retryAfterSeconds = Math.max(1, Math.ceil((nextMidnightMs - nowMs) / 1000));
      return { allowed: false, reason: 'quota', retryAfterSeconds, headers: this.headers(this.limits.dailyQuota, 0, nextMidnightMs, retryAfterSeconds) };
    }
    if (state.tokens < 1) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((1 - state.tokens) * 1000) / this.limits.perSecond / 1000));
      const resetMs = nowMs + retryAfterSeconds * 1000;
      return { allowed: false, reason: 'rate', retryAfterSeconds, headers: this.headers(this.limits.burst, 0, resetMs, retryAfterSeconds) };
    }
    state.tokens -= 1;
    state.usedToday += 1;
    const refillFullMs = nowMs + ((this.limits.burst - state.tokens) * 1000) / this.limits.perSecond;
    return { allowed: true, headers: this.headers(this.limits.burst, Math.floor(state.tokens), refillFullMs) };
  }

  /** What `keyId` has used by `nowMs`, without taking a token (the console's view): bucket tokens left and requests today. */
  usage(keyId: string, nowMs: number): { tokensLeft: number; usedToday: number; limits: RateLimits } {
    const state = this.keys.get(keyId);
    if (!state) return { tokensLeft: this.limits.burst, usedToday: 0, limits: this.limits };
    const refilled = state.tokens + (Math.max(0, nowMs - state.refilledAtMs) * this.limits.perSecond) / 1000;
    const today = new Date(nowMs).toISOString().slice(0, 10);
    return { tokensLeft: Math.floor(Math.min(this.limits.burst, refilled)), usedToday: state.day === today ? state.usedToday : 0, limits: this.limits };
  }

  private headers(limit: number, remaining: number, resetMs: number, retryAfterSeconds?: number): Record<string, string> {
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
    };
    if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
    return headers;
  }
}
