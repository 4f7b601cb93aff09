/**
 * `--cors [origins]`: lets browser-based tools (an API explorer, a front end under development) call the
 * API from another origin. Off by default: the real API is server-to-server. Only the API and upload
 * targets answer cross-origin; the control plane and the console stay same-origin.
 */
import { cors } from 'hono/cors';
import type { CorsSetting } from '../platform.ts';

export const CORS_PATHS = ['/v1/*', '/uploads/*', '/openapi.json'] as const;

/** Headers a browser client may read: request id, explanation, namespace, rate limits, Retry-After. */
const EXPOSED = ['X-Request-Id', 'X-Sandbox-Explain', 'X-Sandbox-Namespace', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

export function corsMiddleware(setting: CorsSetting) {
  return cors({ origin: setting === '*' ? '*' : [...setting], exposeHeaders: EXPOSED, maxAge: 600 });
}

/** `--cors` alone (or `*`) allows any origin; otherwise a comma-separated list of origins. */
export function parseCorsSetting(value: string): CorsSetting {
  const origins = value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (origins.length === 0 || origins.includes('*')) return '*';
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new Error(`--cors origin "${origin}" is not an origin: use scheme://host[:port], e.g. http://localhost:3000`);
  }
  return origins;
}
