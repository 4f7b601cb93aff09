/**
 * 405 for a known path asked with the wrong method: the methods the app routes for a path, from the
 * app's own route table (so a new route is covered the moment it is mounted).
 */
import type { RouterRoute } from 'hono/types';

/** Hono path → RegExp: `:name{re}` keeps its pattern, `:name` is one segment, `*` anything. */
function routePattern(path: string): RegExp {
  const source = path
    .split(/(:[A-Za-z0-9_]+(?:\{[^}]*\})?|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return `(${/\{([^}]*)\}/.exec(part)?.[1] ?? '[^/]+'})`;
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** The methods routed for `path` (HEAD with GET, as Hono answers it), sorted; empty for an unknown path. */
export function allowedMethods(routes: readonly RouterRoute[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path.endsWith('*')) continue;
    if (!routePattern(route.path).test(path)) continue;
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}
