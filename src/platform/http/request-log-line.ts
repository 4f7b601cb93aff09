/**
 * `--log-requests`: one line per request on stdout, for container logs. As text:
 *   2026-01-15T09:30:00.000Z default POST /v1/screening/pep-sanctions 200 3.1ms req_… key_live_demo
 * or, with `--log-format json`, one JSON object per line for log collectors:
 *   {"time":"2026-01-15T09:30:00.000Z","namespace":"default","method":"POST","path":"/v1/screening/pep-sanctions",
 *    "operation":"POST /v1/screening/pep-sanctions","status":200,"durationMs":3.1,"requestId":"req_…",
 *    "keyId":"key_live_demo","firedRules":[]}
 * The time is the namespace's virtual clock, like every other time the sandbox gives.
 */
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { AppContext, AppEnv } from './context.ts';
import type { Platform } from '../platform.ts';
import { round } from '../numbers.ts';

export function requestLogLines(platform: Platform) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const world = c.get('world');
    const durationMs = performance.now() - started;
    const keyId = c.get('principal')?.keyId ?? null;
    if (platform.settings.logFormat === 'json') {
      platform.log.info(
        JSON.stringify({
          time: world?.clock.iso(),
          namespace: world?.namespace,
          method: c.req.method,
          path: c.req.path,
          operation: operationOf(c),
          status: c.res.status,
          durationMs: round(durationMs, 2),
          requestId: c.get('requestId'),
          keyId,
          firedRules: c.get('firedRules') ?? [],
        }),
      );
      return;
    }
    platform.log.info(
      [world?.clock.iso(), world?.namespace, c.req.method, c.req.path, c.res.status, `${durationMs.toFixed(1)}ms`, c.get('requestId'), keyId ?? '-'].join(' '),
    );
  });
}

/** The route that answered, as the API reference names it (`GET /v1/sessions/{id}`), or null when none did (404). */
function operationOf(c: AppContext): string | null {
  const route = matchedRoutes(c)
    .filter(({ method, path }) => method !== 'ALL' && !path.endsWith('*'))
    .at(-1);
  return route ? `${route.method} ${route.path.replaceAll(/:(\w+)/g, '{$1}')}` : null;
}
