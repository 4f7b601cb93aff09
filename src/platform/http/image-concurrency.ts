/**
 * Image operations hold up to two 15 MB images, their base64 text and their decodes in memory (about
 * 200 MB each at the limit), so only a few run at once: the rest wait in a bounded queue before their body
 * is read (a waiting request holds its socket, not its images), and past the queue the answer is 429 with
 * Retry-After, the status the spec gives image operations for "back off and retry". One gate serves every
 * image route, found in the OpenAPI registry as for the body limits, which are checked in the same middleware.
 */
import type { Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../errors/api-error.ts';
import type { RouteFamilies } from './body-limits.ts';
import type { AppContext, AppEnv } from './context.ts';
import type { ConcurrencyGate } from '../concurrency/concurrency-gate.ts';

/** Seconds a refused image request is told to wait. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Runs every request whose route takes images inside one slot of `gate`, body reading included, and limits
 * every request's body (`RouteFamilies.bodyLimits`) inside it: the body limit reads a chunked body whole.
 * One middleware for both, so every request looks its route up once and crosses one layer. A request whose
 * operation decodes images calls `imageArriving` first, before its wait and its body: the image engine
 * readies a thread meanwhile. Not an upload, which stores its image: readying a thread there moved the pool's
 * start (some 25 ms) into the first upload and the thread's into the calls after it, on a busy core.
 */
export function limitImageConcurrency(families: RouteFamilies, gate: ConcurrencyGate, imageArriving: () => void) {
  const limitBody = families.bodyLimits();
  // Not async where it only passes the request on: every request crosses it.
  return createMiddleware<AppEnv>((c, next) => {
    const route = families.imageRouteOf(c.req.method, c.req.path);
    if (route === undefined) return limitBody(c, 0, next);
    if (route.decodesImages) imageArriving();
    const { images } = route;
    if (images === 0) return limitBody(c, 0, next);
    // What the body limit returns is taken as Hono takes a middleware's (`next()` gives the context itself).
    return inImageSlot(c, () => limitBody(c, images, next).then((res) => void (res && !c.finalized && (c.res = res))), gate);
  });
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
