/**
 * `--log-requests`: one line per request on stdout, for container logs:
 *   2026-01-15T09:30:00.000Z default POST /v1/screening/pep-sanctions 200 3.1ms req_… key_live_demo
 * The time is the namespace's virtual clock, like every other time the sandbox gives.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv, Platform } from '../http/context.ts';

export function requestLogLines(platform: Platform) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const world = c.get('world');
    const duration = (performance.now() - started).toFixed(1);
    platform.log.info(
      [
        world?.clock.iso(),
        world?.namespace,
        c.req.method,
        c.req.path,
        c.res.status,
        `${duration}ms`,
        c.get('requestId'),
        c.get('principal')?.keyId ?? '-',
      ].join(' '),
    );
  });
}
