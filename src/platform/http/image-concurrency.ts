/**
 * Image operations hold up to two 15 MB images, their base64 text and their decodes in memory (about
 * 200 MB each at the limit), so only a few run at once: the rest wait in a bounded queue before their body
 * is read (a waiting request holds its socket, not its images), and past the queue the answer is 429 with
 * Retry-After, the status the spec gives image operations for "back off and retry". One gate serves every
 * image route, found in the OpenAPI registry as for the body limits.
 */
import type { Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../errors/api-error.ts';
import type { RouteFamilies } from './body-limits.ts';
import type { AppContext, AppEnv } from './context.ts';

export interface ConcurrencyLimits {
  /** Requests running at once. */
  active: number;
  /** Requests waiting for a slot; one more is refused. */
  queued: number;
}

export const DEFAULT_IMAGE_CONCURRENCY: ConcurrencyLimits = { active: 2, queued: 16 };

/** Seconds a refused image request is told to wait. */
const RETRY_AFTER_SECONDS = 1;

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

/**
 * Runs every image route's request inside one slot of `gate`, body reading included: it goes before the
 * body limit, which reads a chunked body whole.
 */
export function limitImageConcurrency(families: RouteFamilies, gate: ConcurrencyGate) {
  // Not async where it only passes the request on: every request crosses it.
  return createMiddleware<AppEnv>((c, next) => (families.imagesOf(c.req.method, c.req.path) === 0 ? next() : inImageSlot(c, next, gate)));
}

async function inImageSlot(c: AppContext, next: Next, gate: ConcurrencyGate): Promise<void> {
  c.set('errorFamily', 'image');
  const entered = gate.enter();
  if (!entered) {
    const { active, queued } = gate.limits;
    throw new ApiError(
      429,
      `Too many image requests at once: ${active} are processed in parallel and ${queued} wait, the rest are refused. Retry after ${RETRY_AFTER_SECONDS} s, or send fewer image requests at the same time.`,
      {},
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    );
  }
  const release = await entered;
  try {
    await next();
  } finally {
    release();
  }
}
