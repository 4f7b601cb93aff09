/**
 * Operations the service's own TypeScript client calls that the API spec does not describe. They are
 * declared with `clientRoute` (http/client-route.ts) instead of `apiRoute`, which marks them the same way everywhere they are
 * listed: in /openapi.json (`x-source: real-client` and `x-client-method`, plus a sentence in the
 * description), in GET /__sandbox/catalog (`clientOperations`) and in docs/reference.md's table generated from it.
 * One list per area (its routes) feeds all three, so the listing cannot drift from what is mounted.
 */
import type { CatalogEntry } from './catalog.ts';

export const CLIENT_SOURCE = 'real-client';

export const CLIENT_SOURCE_NOTE =
  "Not in the API spec: the service's own TypeScript client calls it, and the sandbox answers with the shapes that client accepts.";

interface ClientRouteLike {
  method: string;
  path: string;
  summary?: string;
  'x-client-method'?: unknown;
}

/** Catalog rows (section `clientOperations`) for routes made with `clientRoute`. */
export function clientOperationEntries(routes: readonly ClientRouteLike[]): CatalogEntry[] {
  return routes.map((route) => ({
    endpoint: `${route.method.toUpperCase()} ${route.path}`,
    input: String(route['x-client-method']),
    outcome: route.summary ?? '',
    description: 'real client (not in the API spec)',
  }));
}
