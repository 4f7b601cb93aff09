/**
 * Wrong API keys are counted per client address (the socket's, never a header a client can forge):
 * past `perMinute` in a minute, the address's next wrong keys answer 429 with Retry-After until the
 * minute ends. Valid keys are never limited here (CI suites share 127.0.0.1 with their own 401 tests), a
 * missing or revoked key is not a guess and is not counted. The minute runs on the default namespace's
 * clock: one count for the address whatever namespace it names, and a frozen clock keeps a test exact.
 */

export const DEFAULT_INVALID_KEYS_PER_MINUTE = 30;
/** Wrong admin tokens (bearer or console login) one address may send in a minute: a token is a password, so fewer. */
export const ADMIN_TOKEN_GUESSES_PER_MINUTE = 10;

const WINDOW_MS = 60_000;
/** Addresses remembered at once; past it the oldest window is forgotten, so memory stays bounded. */
const MAX_ADDRESSES = 10_000;

interface Window {
  startedAtMs: number;
  failures: number;
}

export class InvalidKeyLimiter {
  private readonly windows = new Map<string, Window>();

  /** `perMinute` 0 turns the limit off. */
  constructor(readonly perMinute: number) {}

  /** Counts a wrong key from `address`; the seconds to wait when it is over the limit. */
  fail(address: string, nowMs: number): { retryAfterSeconds: number } | undefined {
    if (this.perMinute === 0) return undefined;
    let window = this.windows.get(address);
    if (!window || nowMs < window.startedAtMs || nowMs >= window.startedAtMs + WINDOW_MS) {
      this.windows.delete(address);
      if (this.windows.size >= MAX_ADDRESSES) this.windows.delete(this.windows.keys().next().value as string);
      this.windows.set(address, (window = { startedAtMs: nowMs, failures: 0 }));
    }
    window.failures += 1;
    if (window.failures <= this.perMinute) return undefined;
    return { retryAfterSeconds: Math.max(1, Math.ceil((window.startedAtMs + WINDOW_MS - nowMs) / 1000)) };
  }

  /** Forgets every count (a global reset). */
  clear(): void {
    this.windows.clear();
  }
}
