/**
 * Request headers read from the socket's raw header list, as the request's Headers object gives them:
 * names in any case, values without surrounding whitespace, a name sent more than once combined with ", "
 * ("; " for Cookie).
 * The node adapter builds that Headers object the first time anything reads it and every Headers read
 * costs a lookup through it; the request context reads the headers it needs on every request here. In
 * process (`app.request`, no socket) the Request's own headers are read.
 */
import type { IncomingMessage } from 'node:http';
import type { AppContext } from './context.ts';
import { sortByName, trimmedHeaderValue as trimmed } from './string-responses.ts';

/** What Headers puts between two values of one name. */
const separatorOf = (name: string) => (name === 'cookie' ? '; ' : ', ');

function rawHeadersOf(c: AppContext): string[] | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.rawHeaders;
}

/** The value of the header `name` (in lower case), as `c.req.header(name)` gives it. */
export function requestHeader(c: AppContext, name: string): string | undefined {
  const raw = rawHeadersOf(c);
  if (raw === undefined) return c.req.header(name);
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i] as string;
    if (given.length !== name.length || given.toLowerCase() !== name) continue;
    const one = trimmed(raw[i + 1] as string);
    value = value === undefined ? one : `${value}${separatorOf(name)}${one}`;
  }
  return value;
}

/**
 * The request's header lines as one text, names and values as sent, each on a line of its own (the HTTP
 * parser refuses a line break or any other control character in a name or value, so the text names the
 * lines exactly); undefined in-process, where there are no raw lines.
 */
export function requestHeaderLines(c: AppContext): string | undefined {
  return rawHeadersOf(c)?.join('\n');
}

/** Every header as `[lower-case name, value]`, sorted by name, as iterating the request's Headers gives them. */
export function requestHeaders(c: AppContext): Iterable<[string, string]> {
  const raw = rawHeadersOf(c);
  if (raw === undefined) return c.req.raw.headers;
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    // The adapter leaves out HTTP/2 pseudo-headers (":path"); an HTTP/1 parser never passes one.
    if (name.charCodeAt(0) !== 58) headers.push([name, trimmed(raw[i + 1] as string)]);
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
