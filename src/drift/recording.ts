/**
 * Recorded exchanges with the real service, read from HAR 1.2 (browser devtools, Charles, mitmproxy,
 * Postman) or from JSONL (one `{request, response, startedAt}` a line) into one shape, in recorded order.
 */

export interface RecordedMessage {
  headers: Record<string, string>;
  /** Text, or bytes when the recording held them base64-encoded (images, uploads). */
  body?: string | Uint8Array;
}

export interface RecordedRequest extends RecordedMessage {
  method: string;
  url: string;
}

export interface RecordedResponse extends RecordedMessage {
  status: number;
}

export interface Exchange {
  /** 1-based position in the recording, so a report can point at it. */
  number: number;
  request: RecordedRequest;
  response: RecordedResponse;
  /** When the request was sent (ISO 8601), if recorded. */
  startedAt?: string;
}

export class RecordingError extends Error {}

/** A URL the replay can take apart: absolute, or a path. */
function checkedUrl(url: string, where: string): string {
  if (!URL.canParse(url, 'http://recording.invalid')) throw new RecordingError(`${where}: request url "${url.slice(0, 80)}" is not a URL.`);
  return url;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Header names lower-cased; a repeated header keeps its values joined as HTTP joins them. */
function headerRecord(entries: Iterable<[string, unknown]>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${String(value)}` : String(value);
  }
  return headers;
}

// ─── HAR 1.2 ───────────────────────────────────────────────────────────────────────────────────────

function harHeaders(list: unknown): Record<string, string> {
  if (!Array.isArray(list)) return {};
  return headerRecord(list.filter(isObject).map((h) => [String(h.name), h.value ?? ''] as [string, unknown]));
}

function harBody(text: unknown, encoding: unknown): string | Uint8Array | undefined {
  if (typeof text !== 'string') return undefined;
  return encoding === 'base64' ? new Uint8Array(Buffer.from(text, 'base64')) : text;
}

export function readHar(text: string, source = 'HAR'): Exchange[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new RecordingError(`${source}: not JSON (${(error as Error).message})`);
  }
  const entries = isObject(document) && isObject(document.log) ? document.log.entries : undefined;
  if (!Array.isArray(entries)) throw new RecordingError(`${source}: a HAR file holds log.entries; this one has none.`);
  return entries.map((entry, position) => {
    const where = `${source} entry ${position + 1}`;
    if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) throw new RecordingError(`${where}: needs request and response objects.`);
    const { request, response } = entry;
    if (typeof request.method !== 'string' || typeof request.url !== 'string') throw new RecordingError(`${where}: request needs method and url.`);
    if (typeof response.status !== 'number') throw new RecordingError(`${where}: response needs a numeric status.`);
    const postData = isObject(request.postData) ? request.postData : {};
    const content = isObject(response.content) ? response.content : {};
    return {
      number: position + 1,
      request: {
        method: request.method.toUpperCase(),
        url: request.url,
        headers: harHeaders(request.headers),
        body: harBody(postData.text, postData.encoding),
      },
      response: { status: response.status, headers: harHeaders(response.headers), body: harBody(content.text, content.encoding) },
      ...(typeof entry.startedDateTime === 'string' ? { startedAt: entry.startedDateTime } : {}),
    };
  });
}

// ─── JSONL ─────────────────────────────────────────────────────────────────────────────────────────

/** A JSONL body is text, or any JSON value (sent as its JSON text), or `{base64: "..."}` for bytes. */
function jsonlBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (isObject(body) && typeof body.base64 === 'string' && Object.keys(body).length === 1) return new Uint8Array(Buffer.from(body.base64, 'base64'));
  return JSON.stringify(body);
}

function jsonlHeaders(headers: unknown): Record<string, string> {
  if (Array.isArray(headers)) return harHeaders(headers);
  return isObject(headers) ? headerRecord(Object.entries(headers)) : {};
}

export function readJsonl(text: string, source = 'JSONL'): Exchange[] {
  const exchanges: Exchange[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RecordingError(`${where}: not JSON (${(error as Error).message})`);
    }
    if (!isObject(value) || !isObject(value.request) || !isObject(value.response)) throw new RecordingError(`${where}: needs request and response objects.`);
    const { request, response } = value;
    if (typeof request.method !== 'string' || typeof request.url !== 'string') throw new RecordingError(`${where}: request needs method and url.`);
    if (typeof response.status !== 'number') throw new RecordingError(`${where}: response needs a numeric status.`);
    exchanges.push({
      number: exchanges.length + 1,
      request: {
        method: request.method.toUpperCase(),
        url: checkedUrl(request.url, where),
        headers: jsonlHeaders(request.headers),
        body: jsonlBody(request.body),
      },
      response: { status: response.status, headers: jsonlHeaders(response.headers), body: jsonlBody(response.body) },
      ...(typeof value.startedAt === 'string' ? { startedAt: value.startedAt } : {}),
    });
  });
  return exchanges;
}

/** A HAR is one JSON document with `log`; anything else is read as JSONL. */
export function readRecording(text: string, source: string): Exchange[] {
  const trimmed = text.trimStart();
  const looksLikeHar = trimmed.startsWith('{') && /^\{\s*"log"\s*:/.test(trimmed);
  return looksLikeHar ? readHar(text, source) : readJsonl(text, source);
}

/** One exchange as a JSONL line (what the shadow mode records): bytes as `{base64}`, text as it is. */
export function jsonlLine({ request, response, startedAt }: Exchange): string {
  const body = (value: string | Uint8Array | undefined) => (value instanceof Uint8Array ? { base64: Buffer.from(value).toString('base64') } : value);
  return JSON.stringify({
    request: { method: request.method, url: request.url, headers: request.headers, body: body(request.body) },
    response: { status: response.status, headers: response.headers, body: body(response.body) },
    startedAt,
  });
}
