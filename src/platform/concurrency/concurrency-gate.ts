/**
 * A counting semaphore with a bounded queue: the platform's one gate for image operations (each holds up to
 * two 15 MB images, their base64 text and their decodes in memory), passed by http/image-concurrency.ts.
 */
export interface ConcurrencyLimits {
  /** Requests running at once. */
  active: number;
  /** Requests waiting for a slot; one more is refused. */
  queued: number;
}

export const DEFAULT_IMAGE_CONCURRENCY: ConcurrencyLimits = { active: 2, queued: 16 };

/** A counting semaphore with a bounded, first-come first-served queue. */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limits: ConcurrencyLimits) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with the slot's release once one is free; undefined at once when the queue is full too. */
  enter(): Promise<() => void> | undefined {
    if (this.running < this.limits.active) {
      this.running += 1;
      return Promise.resolve(this.release());
    }
    if (this.waiting.length >= this.limits.queued) return undefined;
    return new Promise((resolve) => this.waiting.push(() => resolve(this.release())));
  }

  /** Hands the slot to the first waiting request, or frees it; a second call does nothing. */
  private release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}
