/**
 * The HTTP layer's performance code, fenced in one module: everything here reads a dependency's internals
 * or keeps answers to skip work, and test/platform/fast-paths.test.ts fails the day a dependency changes
 * what it relies on (the node adapter's lightweight Response and its `incoming` binding, Hono's body
 * cache). Domain code calls the plain functions below; none of it knows how they are fast.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Env, HonoRequest, MiddlewareHandler, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { z } from 'zod';
import { binarySummary, isText, journaledBody, keptField, type RequestLogLimits } from '../request-log/request-log.ts';

// ─── Responses built from a string or bytes ──────────────────────────────────────────────────────

/**
 * Responses built from a string or from bytes (`c.json`, `c.body`, `c.text`). Served by @hono/node-server,
 * such a response is its lightweight Response, which keeps `[status, body, headers]` under its `cache` symbol
 * and writes them out itself: headers kept as a plain record go straight to `writeHead`, while a
 * Headers object (made the first time anything reads `response.headers`) is copied into one first.
 * Reading those parts here costs nothing; any other response (a stream, a file, or every response in an
 * in-process `app.request`, where Response is the platform's own) has none, and is handled as any Response.
 */

/** What a lightweight response was built from: its body (text or bytes) and headers as given. */
interface StringResponseParts {
  status: number;
  body: string | Uint8Array;
  /** A plain record (names as the code wrote them), a Headers object, or nothing (text/plain). */
  headers: unknown;
}

/** The lightweight response's `cache` symbol, found on the first response that has it (one per process). */
let cacheSymbol: symbol | undefined;

/** The parts of a response built from a string or bytes, or undefined for any other response. */
export function stringResponseParts(response: Response): StringResponseParts | undefined {
  cacheSymbol ??= Object.getOwnPropertySymbols(response).find((symbol) => symbol.description === 'cache');
  const cached = cacheSymbol === undefined ? undefined : (response as unknown as Record<symbol, unknown>)[cacheSymbol];
  if (!Array.isArray(cached) || (typeof cached[1] !== 'string' && !(cached[1] instanceof Uint8Array))) return undefined;
  return { status: cached[0] as number, body: cached[1], headers: cached[2] };
}

/** The lightweight response's own default when it was given no headers. */
const DEFAULT_HEADERS = { 'content-type': 'text/plain; charset=UTF-8' };
/** The whitespace a Headers object strips from both ends of a value. */
const VALUE_PADDING = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * `response` with `added` headers set (names in lower case). A response built from a string with a plain
 * record of headers is rebuilt with one record of them all, in the lower-case names and sorted order a
 * Headers object gives, so the bytes sent are the same as through `response.headers.set`, without making
 * a Headers object and copying it back; any other response has them set on its headers.
 */
export function withHeaders(response: Response, added: Record<string, string>): Response {
  const parts = stringResponseParts(response);
  const given = parts && (parts.headers === undefined ? DEFAULT_HEADERS : parts.headers);
  const merged = isPlainRecord(given) ? mergedHeaders(given, added) : undefined;
  if (parts === undefined || merged === undefined) {
    for (const [name, value] of Object.entries(added)) response.headers.set(name, value);
    return response;
  }
  return new Response(parts.body, { status: parts.status, headers: merged });
}

/**
 * `given` then `added` in one record, by lower-case name in sorted order, values trimmed as Headers does;
 * a name given twice (in two cases) is combined as Headers does, an added header replaces, as `set` does.
 * Undefined unless `given` holds some headers, each one string (what Hono builds): anything else takes
 * the general path.
 */
function mergedHeaders(given: Record<string, unknown>, added: Record<string, string>): Record<string, string> | undefined {
  const entries: [name: string, value: string, added: boolean][] = [];
  for (const name of Object.keys(given)) {
    const value = given[name];
    if (typeof value !== 'string') return undefined;
    entries.push([name.toLowerCase(), trimmedHeaderValue(value), false]);
  }
  if (entries.length === 0) return undefined;
  for (const name of Object.keys(added)) entries.push([name.toLowerCase(), trimmedHeaderValue(added[name] as string), true]);
  // Equal names stay in order: the given ones, then the added one.
  sortByName(entries);
  const headers: Record<string, string> = {};
  for (const [name, value, isAdded] of entries) {
    const same = Object.hasOwn(headers, name) ? headers[name] : undefined;
    headers[name] = same === undefined || isAdded ? value : `${same}, ${value}`;
  }
  return headers;
}

/**
 * A header value without the whitespace a Headers object strips from its ends. Its two end characters are
 * looked at first: a regular expression for either end would try every position of the value.
 */
export const trimmedHeaderValue = (value: string) =>
  value.length > 0 && (isPadding(value.charCodeAt(0)) || isPadding(value.charCodeAt(value.length - 1))) ? value.replace(VALUE_PADDING, '') : value;

/** Tab, line feed, carriage return or space: `VALUE_PADDING`'s characters. */
const isPadding = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * A record of headers rather than a Headers object or a list of pairs. An object literal is told by its
 * prototype first: reading the global `Headers` loads the platform's fetch implementation (undici), which
 * a start and most requests do without.
 */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || (!(value instanceof Headers) && !Array.isArray(value));
}

/** A response header's value, read from a plain record of headers where the response keeps one. */
export function responseHeader(response: Response, name: string): string | null {
  const headers = stringResponseParts(response)?.headers;
  if (!isPlainRecord(headers)) return response.headers.get(name);
  // A plain loop: every journaled answer asks for its content type.
  let found: string | null = null;
  for (const given of Object.keys(headers)) {
    const value = headers[given];
    if (typeof value !== 'string' || given.length !== name.length || given.toLowerCase() !== name) continue;
    const trimmed = trimmedHeaderValue(value);
    found = found === null ? trimmed : `${found}, ${trimmed}`;
  }
  return found;
}

/**
 * Sorts `[name, …]` entries by name in place, equal names kept in their order: an insertion sort, as a
 * request or response carries a handful of headers (Array.prototype.sort copies them first).
 */
export function sortByName<T extends [string, ...unknown[]]>(entries: T[]): void {
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i] as T;
    let j = i - 1;
    for (; j >= 0 && (entries[j] as T)[0] > entry[0]; j--) entries[j + 1] = entries[j] as T;
    entries[j + 1] = entry;
  }
}

// ─── A route's handlers as one ───────────────────────────────────────────────────────────────────

/**
 * A route's handlers run in order as one handler, as Hono's `every` runs them: the route's own index left
 * as the app set it (its path parameters), a response a handler returns set as the answer unless one is
 * already final, an error thrown on to the app's handler. `every` composes them again on every request
 * (a closure per handler and a compose per call); this chain is made once, and a handler that answers
 * at once (a route's own handler, most often) is not awaited: an await costs a turn of the microtask
 * queue and an async function a promise, on every request.
 */
export function inOrder<E extends Env>(handlers: readonly MiddlewareHandler<E>[]): MiddlewareHandler<E> {
  return (c, next) => {
    const answered = (res: unknown) => {
      if (res && !c.finalized) c.res = res as Response;
    };
    const run = (i: number): Promise<void> => {
      const handler = handlers[i];
      if (handler === undefined) return next();
      let res: unknown;
      let rest: Promise<void> | undefined;
      try {
        res = handler(c, () => (rest = run(i + 1)));
      } catch (error) {
        // As from an async function: a handler's throw rejects the chain.
        return Promise.reject(error);
      }
      // A handler that passes on with the rest of the chain's own promise (the API-key guard, most often):
      // the rest took its answer already, and settles with nothing.
      if (rest !== undefined && res === rest && i + 1 < handlers.length) return rest;
      if (isThenable(res)) return Promise.resolve(res).then(answered);
      answered(res);
      return ANSWERED;
    };
    return run(0);
  };
}

const ANSWERED = Promise.resolve();

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

// ─── Validation without a turn of its own ────────────────────────────────────────────────────────

/**
 * Hono's zod validator checks a request part with `schema.safeParseAsync`: zod then parses in async mode,
 * which leaves out the compiled parser it gives object schemas in sync mode, through a promise per
 * check. For a schema with no transform and no refinement of its own (a path parameter's shape and
 * bounds), `safeParse` gives the same result; the schema's `safeParseAsync` tries it first, and falls
 * back to zod's async parse where zod meets something async inside (it throws its async error then).
 */
export function checkedInOneTurn<T extends z.ZodType>(schema: T): T {
  const inAsyncMode = schema.safeParseAsync.bind(schema);
  schema.safeParseAsync = (data, params) => {
    try {
      return Promise.resolve(schema.safeParse(data, params) as z.ZodSafeParseResult<z.output<T>>);
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return inAsyncMode(data, params);
      throw error;
    }
  };
  return schema;
}

// ─── Request headers from the raw header list ────────────────────────────────────────────────────

/**
 * Request headers read from the socket's raw header list, as the request's Headers object gives them:
 * names in any case, values without surrounding whitespace, a name sent more than once combined with ", "
 * ("; " for Cookie).
 * The node adapter builds that Headers object the first time anything reads it and every Headers read
 * costs a lookup through it; the request context reads the headers it needs on every request here. In
 * process (`app.request`, no socket) the Request's own headers are read.
 */

/** What Headers puts between two values of one name. */
const separatorOf = (name: string) => (name === 'cookie' ? '; ' : ', ');

function rawHeadersOf(c: Context): string[] | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.rawHeaders;
}

/** The value of the header `name` (in lower case), as `c.req.header(name)` gives it. */
export function requestHeader(c: Context, name: string): string | undefined {
  const raw = rawHeadersOf(c);
  if (raw === undefined) return c.req.header(name);
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i] as string;
    if (given.length !== name.length || given.toLowerCase() !== name) continue;
    const one = trimmedHeaderValue(raw[i + 1] as string);
    value = value === undefined ? one : `${value}${separatorOf(name)}${one}`;
  }
  return value;
}

/**
 * The request's header lines as sent: name, value, name, value… (the socket's own list, never changed);
 * undefined in-process, where there are no raw lines.
 */
export function requestHeaderLines(c: Context): readonly string[] | undefined {
  return rawHeadersOf(c);
}

/** Every header as `[lower-case name, value]`, sorted by name, as iterating the request's Headers gives them. */
export function requestHeaders(c: Context): Iterable<[string, string]> {
  const raw = rawHeadersOf(c);
  if (raw === undefined) return c.req.raw.headers;
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    // The adapter leaves out HTTP/2 pseudo-headers (":path"); an HTTP/1 parser never passes one.
    if (name.charCodeAt(0) !== 58) headers.push([name, trimmedHeaderValue(raw[i + 1] as string)]);
  }
  sortByName(headers);
  // Repeats are side by side, in the order sent: Headers combines them, except each Set-Cookie.
  let kept = 0;
  for (const header of headers) {
    const previous = headers[kept - 1];
    if (previous !== undefined && previous[0] === header[0] && header[0] !== 'set-cookie') previous[1] += `${separatorOf(header[0])}${header[1]}`;
    else headers[kept++] = header;
  }
  headers.length = kept;
  return headers;
}

/**
 * Route middleware of a route that declares header parameters: Hono's validator reads them through
 * `c.req.header()`, the request's Headers object, whose first use on Node 20 loads undici (25-40 ms of an
 * integrator's first call of the route). Here that request's `header` reads the socket's header lines.
 */
export const headersOffSocket: MiddlewareHandler = (c, next) => {
  if (rawHeadersOf(c) !== undefined) {
    const header = (name?: string) =>
      name === undefined ? Object.assign(Object.create(null), Object.fromEntries(requestHeaders(c))) : requestHeader(c, name.toLowerCase());
    Object.defineProperty(c.req, 'header', { value: header });
  }
  return next();
};

// ─── Shared JSON answers ─────────────────────────────────────────────────────────────────────────

/**
 * JSON answers built once and sent to many requests (a sandbox fixture filled for an organization): their
 * UTF-8 bytes are kept beside them, so each read sends the same bytes without serializing the same tree
 * again, nor encoding the same text (the server writes bytes as they are, and a string joined to the
 * head of the response first). Only a value that is never changed after it is shared belongs here.
 */

const keptBytes = new WeakMap<object, Uint8Array<ArrayBuffer>>();
/** The kept bytes themselves, for `isSharedJsonBytes`. */
const sharedBytes = new WeakSet<Uint8Array>();

/** Marks `body` as shared and unchanging, serializes it once, and returns it (for `sendJson`). */
export function shareJson<T extends object>(body: T): T {
  if (!keptBytes.has(body)) {
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    keptBytes.set(body, bytes);
    sharedBytes.add(bytes);
  }
  return body;
}

/**
 * Whether `bytes` are a shared body's kept bytes: never changed, and well-formed UTF-8 without a
 * byte-order mark (JSON text, which escapes lone surrogates, encoded), so their text's UTF-8 size is their
 * length, known without scanning them on every answer that sends them.
 */
export function isSharedJsonBytes(bytes: Uint8Array): boolean {
  return sharedBytes.has(bytes);
}

/** `c.json(body, status)`, with the kept bytes of a shared body (the same bytes and headers). */
export function sendJson<T extends object, S extends 200 | 201>(c: Context, body: T, status: S): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const bytes = keptBytes.get(body);
  if (bytes === undefined) return c.json(body, status);
  return sendJsonText<T, S>(c, bytes, status);
}

/** `c.json` of a `T` already written as JSON text (or its UTF-8 bytes): the same bytes and headers. */
export function sendJsonText<T, S extends 200 | 201>(
  c: Context,
  json: string | Uint8Array<ArrayBuffer>,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  return c.body(json, status, { 'Content-Type': 'application/json' }) as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}

// ─── The journal's copy of a response body ───────────────────────────────────────────────────────────

export interface SentBody {
  body: unknown;
  response: Response;
}

/**
 * The response body as sent, and the response to send in its place (at once for a body built from a
 * string, the common case: no async function's turn). A body built from a string is taken
 * as it is; another text body is read once and the response rebuilt from those bytes (cheaper than a
 * clone, and the server writes them out directly). Binary bodies only as a summary, never read.
 */
export function sentBody(response: Response, limits: RequestLogLimits): SentBody | Promise<SentBody> {
  const contentType = responseHeader(response, 'content-type') ?? '';
  if (!isText(contentType))
    return { body: response.body ? binarySummary(contentType, Number(response.headers.get('content-length') ?? 0)) : undefined, response };
  // A body built from a string or bytes is what the server writes out itself: taking it costs nothing.
  const sent = stringResponseParts(response)?.body;
  if (sent !== undefined)
    return { body: sent.length === 0 ? undefined : journaledBody(sent, contentType, limits, typeof sent !== 'string' && isSharedJsonBytes(sent)), response };
  return rebuiltWithBody(response, contentType, limits);
}

/** A text response read once, and one built again from its bytes to send in its place. */
async function rebuiltWithBody(response: Response, contentType: string, limits: RequestLogLimits): Promise<SentBody> {
  // The bytes go out as they came (whatever their encoding); the journal keeps their text.
  const bytes = new Uint8Array(await response.arrayBuffer());
  const rebuilt = new Response(bytes.byteLength === 0 ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  return { body: bytes.byteLength === 0 ? undefined : journaledBody(new TextDecoder().decode(bytes), contentType, limits), response: rebuilt };
}

// ─── The node adapter's lightweight request ──────────────────────────────────────────────────────────

/**
 * Whether `raw` is the node adapter's lightweight request for `incoming` (it keeps the IncomingMessage under
 * a symbol of its own) and has not yet made the Fetch Request it stands in for (kept under its
 * `requestCache` symbol), whose body stream would read the same socket.
 */
export function isUntouchedLightweightRequest(raw: Request, incoming: IncomingMessage): boolean {
  const symbols = Object.getOwnPropertySymbols(raw);
  const slots = raw as unknown as Record<symbol, unknown>;
  return symbols.some((symbol) => slots[symbol] === incoming) && !symbols.some((symbol) => symbol.description === 'requestCache' && slots[symbol] !== undefined);
}

// ─── The journal's copy of a request body, from Hono's body cache ────────────────────────────────────

/**
 * The request body as received, from what the handler read (Hono caches it). A body no handler read (a
 * request refused before validation) is read here only when it is small and textual. `contentLength` is
 * the request's header, read by the caller off the socket (Hono's header read makes a Headers object).
 */
export function receivedBody(request: HonoRequest, contentLength: string | undefined, limits: RequestLogLimits): unknown {
  // Most requests carry no body and none was read: answered at once, without an async function's turn.
  const cache = request.bodyCache;
  if (!cache.formData && !cache.text && !cache.arrayBuffer && !(Number(contentLength ?? 0) > 0)) return undefined;
  return readOrDescribeBody(request, limits);
}

async function readOrDescribeBody(request: HonoRequest, limits: RequestLogLimits): Promise<unknown> {
  try {
    return await readReceivedBody(request, limits);
  } catch {
    // A body the handler could not parse either (a broken multipart, a cut stream): its answer said so.
    return `[unreadable ${request.header('content-type') ?? 'body'}]`;
  }
}

async function readReceivedBody(request: HonoRequest, limits: RequestLogLimits): Promise<unknown> {
  const contentType = request.header('content-type') ?? '';
  const cache = request.bodyCache;
  if (cache.formData) {
    const form = await cache.formData;
    const fields: Record<string, string> = {};
    form.forEach((value, name) => {
      fields[name] = typeof value === 'string' ? keptField(name, value) : binarySummary(value.type, value.size);
    });
    return fields;
  }
  if (cache.text) return journaledBody(await cache.text, contentType, limits);
  if (cache.arrayBuffer) {
    const buffer = await cache.arrayBuffer;
    if (buffer.byteLength === 0) return undefined;
    return isText(contentType) ? journaledBody(new TextDecoder().decode(buffer), contentType, limits) : binarySummary(contentType, buffer.byteLength);
  }
  const length = Number(request.header('content-length') ?? 0);
  if (!(length > 0) || request.raw.bodyUsed) return undefined;
  if (length > limits.bodyBytes || !isText(contentType)) return `[${length} bytes of ${contentType || 'data'}, not read]`;
  return journaledBody(await request.text(), contentType, limits);
}

// ─── JSON list pages rendered from kept item texts ───────────────────────────────────────────────────

/** Items whose texts are kept (past it, the keeping starts over, so items listed once do not stay). */
const ITEM_TEXTS_KEPT = 4096;
/** Pages kept, by key. */
const PAGES_KEPT = 64;
/** A page of more items (a walk through a whole list, read once) is rendered whole, neither it nor its items kept. */
export const LIST_PAGE_KEPT_ITEMS = 100;

/**
 * Pages of a list as the JSON text `JSON.stringify({ [member]: items.map(render), next_token })` gives,
 * written by hand from each item's text. An item object is never changed (every write makes a new one) and
 * its rendering depends on nothing else, so the object names the version: its text is rendered once. A
 * page made of the same item objects with the same next_token as the one kept under its key (a client
 * polling a list while nothing changes) is the same text, kept once.
 */
export class JsonListPages<T extends object> {
  private itemTexts = new Map<T, string>();
  private readonly pages = new Map<string, { items: readonly T[]; nextToken: string | null; text: string }>();

  constructor(
    private readonly member: string,
    private readonly render: (item: T) => unknown,
  ) {}

  /** `JSON.stringify(render(item))`, kept per item object. */
  itemText(item: T): string {
    let text = this.itemTexts.get(item);
    if (text === undefined) {
      text = JSON.stringify(this.render(item));
      if (this.itemTexts.size >= ITEM_TEXTS_KEPT) this.itemTexts = new Map();
      this.itemTexts.set(item, text);
    }
    return text;
  }

  /** The page's JSON text; `key` names the query and position it answers (it only decides which page is kept). */
  pageText(key: string, items: readonly T[], nextToken: string | null): string {
    if (items.length > LIST_PAGE_KEPT_ITEMS) return JSON.stringify({ [this.member]: items.map(this.render), next_token: nextToken });
    const kept = this.pages.get(key);
    if (kept !== undefined && kept.nextToken === nextToken && sameItems(kept.items, items)) return kept.text;
    const text = `{${JSON.stringify(this.member)}:[${items.map((item) => this.itemText(item)).join(',')}],"next_token":${JSON.stringify(nextToken)}}`;
    this.pages.delete(key);
    if (this.pages.size >= PAGES_KEPT) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, { items, nextToken, text });
    return text;
  }
}

const sameItems = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * Answers kept per scope (a namespace's data) with the scope's change count they were computed at: the
 * same key again while nothing in the scope changed gets the same answer without computing it. At most
 * `limit` per scope (past it, the scope's keeping starts over); a scope no longer referenced takes its
 * answers with it.
 */
export class AnswersWhileUnchanged<V> {
  private readonly byScope = new WeakMap<object, Map<string, { changes: number; answer: V }>>();

  constructor(private readonly limit: number) {}

  /** The answer kept for `key` at `changes()`, or `compute()`'s (its change count read after it: what it changed itself counts). */
  get(scope: object, changes: () => number, key: string, compute: () => V): V {
    let kept = this.byScope.get(scope);
    if (kept === undefined) this.byScope.set(scope, (kept = new Map()));
    const known = kept.get(key);
    if (known !== undefined && known.changes === changes()) return known.answer;
    const answer = compute();
    if (kept.size >= this.limit) kept.clear();
    kept.set(key, { changes: changes(), answer });
    return answer;
  }
}
