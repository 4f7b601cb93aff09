/**
 * Which operation of the sandbox a recorded request is: its method and route template, matched against
 * the route table the areas declare (src/routes.generated.ts). The control plane is left out: the real
 * service has none, and a recording must not drive the sandbox's own controls.
 */
import { ROUTE_TABLE } from '../routes.generated.ts';

export interface Operation {
  method: string;
  /** The route template, OpenAPI style: `/v1/sessions/{id}`. */
  template: string;
}

interface Route extends Operation {
  segments: readonly string[];
  literals: number;
}

const isParameter = (segment: string) => segment.startsWith(':');

const ROUTES: readonly Route[] = Object.values(ROUTE_TABLE)
  .flatMap((area) => area.routes)
  .filter(([, path]) => !path.startsWith('/__sandbox'))
  .map(([method, path]) => {
    const segments = path.split('/').filter(Boolean);
    return {
      method,
      template: `/${segments.map((s) => (isParameter(s) ? `{${s.slice(1)}}` : s)).join('/')}`,
      segments,
      literals: segments.filter((s) => !isParameter(s)).length,
    };
  });

/** The operation serving `method path`, the most literal route winning (`/v1/financial/externalId/{x}` over `/v1/financial/{id}`). */
export function operationOf(method: string, path: string): Operation | undefined {
  const segments = path.split('/').filter(Boolean);
  let best: Route | undefined;
  for (const route of ROUTES) {
    if (route.method !== method || route.segments.length !== segments.length) continue;
    if (!route.segments.every((s, i) => isParameter(s) || s === segments[i])) continue;
    if (!best || route.literals > best.literals) best = route;
  }
  return best && { method: best.method, template: best.template };
}

export const operationName = (operation: Operation) => `${operation.method} ${operation.template}`;
