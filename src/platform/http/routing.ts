/**
 * How areas declare routes: `newRouter()` gives an OpenAPIHono whose validation failures become the
 * spec's 400 body, and `apiRoute()` adds the API-key guard, the security requirement and the shared
 * error responses to a `createRoute` definition, so every endpoint lands in /openapi.json the same way.
 */
import { OpenAPIHono, createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { Hook } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { ApiError, describeZodError, errorBody, type ErrorExtras } from '../errors/api-error.ts';
import { errorFamilyOf, explain, noteOutcome, type AppContext, type AppEnv } from './context.ts';
import { headersOffSocket } from './fast-paths.ts';
import { apiKeyGuard, missingKeyStatusFor, type GuardPolicy } from './middleware.ts';

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ example: 'Invalid request: body field "firstName" is required.' }),
    message: z.string().optional(),
    detail: z.string().optional().openapi({ description: 'On authentication failures: what to fix.' }),
    hints: z.array(z.string()).optional().openapi({ description: 'On image operations: how to fix the input.' }),
    code: z.string().optional().openapi({ description: 'A machine-readable code where the spec gives one (BOT_CADENCE_INVALID, QUOTA_EXCEEDED).' }),
  })
  .openapi('Error');

const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  noteOutcome(c, `validation:${result.error.issues[0]?.code ?? 'custom'}`);
  throw new ApiError(400, describeZodError(result.error, result.target));
};

export function newRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/** A JSON response entry of a route definition. */
export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
/** A required JSON request body (required, so a request without Content-Type is still validated). */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

const errorResponse = (description: string) => jsonResponse(ErrorSchema, description);

export const STANDARD_ERRORS = {
  401: errorResponse('API key missing, invalid or revoked; `detail` says what to fix.'),
  429: errorResponse('Rate limit (25/s, burst 35) or daily quota (10,000) exceeded; see Retry-After.'),
  500: errorResponse('Unexpected server error; safe to retry with backoff.'),
} as const;

/** Declared by every route that takes input (a body, path, query or header parameters). */
const INVALID_REQUEST_ERROR = {
  400: errorResponse('The request is malformed or fails validation; `error` names the field and the fix.'),
} as const;

/** Declared by every write a sandbox key may not make (spec: Authentication 4). */
const SANDBOX_WRITE_ERROR = {
  403: errorResponse('A sandbox key used for a write (a live key is needed), or a resource of another organization.'),
} as const;

/** 413 on every method but GET: the body limit reads whatever body such a request carries (a GET's is never read). */
const bodyTooLargeError = (method: string, description: string): Record<number, ReturnType<typeof errorResponse>> =>
  method === 'get' ? {} : { 413: errorResponse(description) };

/** Declared by every route that takes a body: one of another type than the route declares is refused. */
const UNSUPPORTED_BODY_ERROR = {
  415: errorResponse('The body is not of a type the operation takes (application/json, or multipart/form-data on image operations).'),
} as const;

/** The 401 and 403 entries of an operation that answers 403 for a missing key (spec: "403 key missing"). */
const MISSING_KEY_FORBIDDEN_ERRORS = {
  401: errorResponse('API key invalid or revoked (a missing key is 403 here); `detail` says what to fix.'),
  403: errorResponse('The x-api-key header is missing, or the key lacks access: another organization’s resource or a sandbox key used for a write.'),
} as const;

export const extraErrors = {
  402: errorResponse('Insufficient token balance or funds.'),
  403: errorResponse('The resource belongs to another organization: read it with a key of the organization that created it.'),
  404: errorResponse('The referenced resource does not exist in the organization.'),
  409: errorResponse('The resource is in a state that does not allow this (for example a terminal session).'),
  503: errorResponse('An upstream provider is unavailable; nothing was billed. Retry later.'),
} as const;

export type ApiRouteConfig = RouteConfig & { guard?: Pick<GuardPolicy, 'allowSandboxWrites' | 'errorFamily' | 'errorCodes'> };

/**
 * A /v1 route: API-key guard, `x-api-key` security and the shared error responses. The missing-key
 * status comes from the path (`missingKeyStatusFor`); whether the operation may refuse for funds comes
 * from its declared responses: list `402: extraErrors[402]` exactly where the spec's error list has 402,
 * and the billing helper refuses there and nowhere else. 400 is declared where the route takes input
(an operation without any, such as GET /v1/auth/verify, cannot fail validation). 403 is declared where the route can answer it:
 * on writes (a sandbox key), on the "403 key missing" paths, and on reads of one resource by id that
 * list `403: extraErrors[403]` (another organization's); a list of the caller's own organization has none.
 */
export function apiRoute<R extends ApiRouteConfig>({ guard, ...config }: R) {
  const missingKeyStatus = missingKeyStatusFor(config.path);
  const refusesForFunds = 402 in config.responses;
  const refusesSandboxKeys = config.method !== 'get' && !guard?.allowSandboxWrites;
  return createRoute({
    ...config,
    security: [{ ApiKeyAuth: [] }],
    middleware: [
      apiKeyGuard({ ...guard, operation: `${config.method.toUpperCase()} ${config.path}`, missingKeyStatus, refusesForFunds }),
      ...(config.request?.headers ? [headersOffSocket] : []),
      ...(config.middleware ? [config.middleware].flat() : []),
    ],
    responses: {
      ...(config.request ? INVALID_REQUEST_ERROR : {}),
      ...STANDARD_ERRORS,
      ...(refusesSandboxKeys ? SANDBOX_WRITE_ERROR : {}),
      ...(missingKeyStatus === 403 ? MISSING_KEY_FORBIDDEN_ERRORS : {}),
      ...bodyTooLargeError(config.method, 'The request body is over the route family’s limit (1 MB; image operations 15 MB per image, as base64).'),
      ...(config.request?.body ? UNSUPPORTED_BODY_ERROR : {}),
      ...config.responses,
    },
  } as Omit<R, 'guard'>);
}

const CONTROL_ERRORS = {
  400: errorResponse('Invalid request'),
  401: errorResponse('Admin token required (only when the sandbox runs with --admin-token)'),
  403: errorResponse('Cross-site request refused: a browser write from another origin'),
  415: errorResponse('A form or text body: control-plane calls take application/json or no body'),
  429: errorResponse('Too many wrong admin tokens from this address in a minute (only with --admin-token); Retry-After says when to retry'),
  500: errorResponse('Unexpected server error'),
} as const;

/** The namespace a control-plane route acts on, as a query parameter (here, not with the control plane's schemas: the sessions and workflows areas' control routes take it too). */
export const NamespaceQuerySchema = z.object({
  namespace: z.string().optional().openapi({ description: 'Namespace to act on (same as the X-Sandbox-Namespace header).' }),
});

/** A control-plane route (/__sandbox): its tag and shared errors; the app guards every /__sandbox path (controlPlaneGuard). */
export function controlRoute<R extends RouteConfig>(config: R) {
  return createRoute({
    ...config,
    tags: ['Sandbox control plane'],
    security: [{ AdminToken: [] }],
    responses: { ...CONTROL_ERRORS, ...bodyTooLargeError(config.method, 'The request body is over 1 MB'), ...config.responses },
  });
}

/** The one error handler: ApiError → its status and body; framework errors → 4xx; anything else → 500. */
export function handleError(error: Error, c: AppContext): Response {
  const family = errorFamilyOf(c);
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    for (const reason of error.explanations) explain(c, reason);
    explainFailure(c, error.status, error.message);
    const extras = withRouteCode(c, error.status, error.extras);
    if (typeof extras.code === 'string') noteOutcome(c, `code:${extras.code}`);
    if (error.status === 402 && !c.get('answeredByScenario')) noteOutcome(c, 'refusal:funds');
    return c.json(errorBody(family, error.message, extras), error.status);
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 400 && /Malformed JSON/i.test(error.message)) noteOutcome(c, 'validation:malformed_json');
    const message =
      status === 400 && /Malformed JSON/i.test(error.message)
        ? 'Malformed JSON in request body: send a valid JSON document with Content-Type: application/json.'
        : status === 415
          ? `Unsupported Content-Type "${c.req.header('content-type') ?? '(none)'}": send the body as application/json${family === 'image' ? ' or multipart/form-data' : ''}.`
          : status === 413
            ? 'Request body too large.'
            : error.message || 'Bad request';
    explainFailure(c, status, message);
    return c.json(errorBody(family, message, withRouteCode(c, status, {})), status as 400);
  }
  const requestId = c.get('requestId') ?? 'unknown';
  explainFailure(c, 500, `unhandled ${error.name}`);
  c.get('platform')?.log.error(`unhandled error in ${c.req.method} ${c.req.path} (request ${requestId})`, error);
  return c.json(errorBody(family, `Internal server error (request ${requestId}). Safe to retry with backoff.`, withRouteCode(c, 500, {})), 500);
}

/** The error's extras, with the route's code for the status when the error names none. */
function withRouteCode(c: AppContext, status: number, extras: ErrorExtras): ErrorExtras {
  const code = c.get('errorCodes')?.[status];
  return extras.code !== undefined || code === undefined ? extras : { ...extras, code };
}

/** An error says why in X-Sandbox-Explain too, unless the code that refused already did. */
function explainFailure(c: AppContext, status: number, message: string): void {
  if (c.get('explanations') === undefined) explain(c, `${status}: ${message}`);
}
