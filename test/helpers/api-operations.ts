/**
 * The /v1 operations of a sandbox's /openapi.json, for tests that walk every route (the route table, the
 * per-status walks), so a new route is covered by them without a line of its own.
 */
import type { TestSandbox } from './sandbox.ts';

export interface ApiOperation {
  /** `METHOD /path` as in the OpenAPI document. */
  name: string;
  operationId: string;
  method: string;
  /** The OpenAPI path with every {param} filled in. */
  url: string;
  /** The statuses the operation declares. */
  responses: string[];
  /** Whether it takes any input: a body, or path, query or header parameters. */
  takesInput: boolean;
  security: unknown;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface OpenApiOperation {
  operationId: string;
  responses: object;
  parameters?: unknown[];
  requestBody?: unknown;
  security?: unknown;
}

export async function apiOperations(sandbox: TestSandbox): Promise<ApiOperation[]> {
  const document = (await sandbox.call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, Partial<Record<string, OpenApiOperation>>> };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = item[method];
        if (!operation) return [];
        return [
          {
            name: `${method.toUpperCase()} ${path}`,
            operationId: operation.operationId,
            method: method.toUpperCase(),
            url: path.replace(/\{[^}]+\}/g, 'route-table-probe'),
            responses: Object.keys(operation.responses),
            takesInput: operation.requestBody !== undefined || (operation.parameters?.length ?? 0) > 0,
            security: operation.security,
          },
        ];
      }),
    );
}

/** Calls `operation` once on its probe URL, with an empty JSON body on writes. */
export function callOperation(
  sandbox: TestSandbox,
  operation: ApiOperation,
  options: { key?: string | null; headers?: Record<string, string>; namespace?: string } = {},
) {
  return sandbox.call(operation.method, operation.url, {
    ...options,
    ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { body: {} }),
  });
}
