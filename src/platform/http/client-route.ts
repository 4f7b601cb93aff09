/** The route of an operation the real client calls and the spec does not describe (catalog/client-operations.ts). */
import { CLIENT_SOURCE, CLIENT_SOURCE_NOTE } from '../catalog/client-operations.ts';
import { apiRoute, type ApiRouteConfig } from './routing.ts';

/** An /v1 route the real client calls but the spec does not describe; `clientMethod` is its SDK method. */
export function clientRoute<R extends ApiRouteConfig>(clientMethod: string, config: R) {
  return apiRoute({
    ...config,
    description: config.description === undefined ? CLIENT_SOURCE_NOTE : `${config.description}\n\n${CLIENT_SOURCE_NOTE}`,
    'x-source': CLIENT_SOURCE,
    'x-client-method': clientMethod,
  });
}
