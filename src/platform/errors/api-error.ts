/**
 * The one error layer. Every 4xx/5xx body is JSON with a human `error` string (the real client reads
 * `message`, then `error`), plus what the spec adds for the route family: `hints` on image operations,
 * `detail` on authentication failures, `code`/`invalid_steps` where an area passes them.
 */
import type { ZodError } from 'zod';

/** Which error body a route family answers with. */
export type ErrorFamily = 'default' | 'image';

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 501 | 502 | 503 | 504 | 507;

export interface ErrorExtras {
  hints?: string[];
  detail?: string;
  code?: string;
  [key: string]: unknown;
}

/** Thrown by services and middleware; the error handler turns it into the response. */
export class ApiError extends Error {
  override name = 'ApiError';
  /** The reasons the refusing verb had given before it refused (X-Sandbox-Explain says them). */
  readonly explanations: string[] = [];
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly extras: ErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    // A 4xx is an expected answer, never logged with its stack: capturing one was most of a 404's own cost.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }

  /** The same error, about a field of the request: its sentence starts with the field's name (`logoUrl: …`). */
  aboutField(field: string, extras: ErrorExtras = {}): ApiError {
    const error = new ApiError(this.status, `${field}: ${this.message}`, { ...this.extras, ...extras }, this.headers);
    error.explanations.push(...this.explanations);
    return error;
  }
}

/** The body for an error in a family: image routes always carry `hints` (possibly empty). */
export function errorBody(family: ErrorFamily, message: string, extras: ErrorExtras = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { error: message, ...extras };
  if (family === 'image' && !Array.isArray(body.hints)) body.hints = [];
  return body;
}

/** Where a validation failure was found, as a person would say it. */
const TARGET_NAMES: Record<string, string> = {
  json: 'body',
  form: 'form field',
  query: 'query parameter',
  param: 'path parameter',
  header: 'header',
  cookie: 'cookie',
};

/**
 * One sentence per problem, naming the field and what is expected, e.g.
 * `body field "firstName" is required` or `query parameter "limit" must be at most 500`.
 */
export function describeZodError(error: ZodError, target: string): string {
  const where = TARGET_NAMES[target] ?? target;
  const sentences = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    const subject = path ? `${where === 'body' ? 'body field' : where} "${path}"` : where === 'body' ? 'the request body' : where;
    // Area schemas may already write a full sentence that starts with the field's name: keep it.
    const field = String(issue.path.at(-1) ?? '');
    if (field && issue.message.startsWith(field)) return `${where === 'body' ? 'body field' : where} ${issue.message}`;
    return `${subject} ${issueText(issue)}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more problems)` : '';
  return `Invalid request: ${sentences.join('; ')}${more}.`;
}

function issueText(issue: ZodError['issues'][number]): string {
  const raw = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/.test(raw)) return 'is required';
  if (issue.code === 'invalid_type') return `has the wrong type (${raw.replace(/^Invalid input: /, '')})`;
  if (issue.code === 'too_small' && 'minimum' in issue) {
    return issue.origin === 'string'
      ? `must be at least ${String(issue.minimum)} characters`
      : issue.origin === 'array'
        ? `must have at least ${String(issue.minimum)} items`
        : `must be at least ${String(issue.minimum)}`;
  }
  if (issue.code === 'too_big' && 'maximum' in issue) {
    return issue.origin === 'string'
      ? `must be at most ${String(issue.maximum)} characters`
      : issue.origin === 'array'
        ? `must have at most ${String(issue.maximum)} items`
        : `must be at most ${String(issue.maximum)}`;
  }
  if (issue.code === 'invalid_value' && 'values' in issue) return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'unrecognized_keys' && 'keys' in issue) return `has unknown keys ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return raw.replace(/^Invalid input: /, 'is invalid: ');
}
