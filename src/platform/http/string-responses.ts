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
  const values = Object.entries(headers).filter(([given, value]) => typeof value === 'string' && given.toLowerCase() === name);
  return values.length === 0 ? null : values.map(([, value]) => (value as string).replace(VALUE_PADDING, '')).join(', ');
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
