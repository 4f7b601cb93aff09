/**
 * How a recorded answer and the sandbox's answer to the same request differ: status, content type,
 * the headers clients read, and the JSON shape of the bodies (keys, types, null against a value, array
 * items, enum-like values). Ids, dates, names and free text differ from run to run: they compare by type.
 */
import { isEnumLike, isEnumToken, shortHash } from './mask.ts';

export type DifferenceKind = 'status' | 'content-type' | 'header' | 'missing' | 'extra' | 'type' | 'null' | 'value';

export interface Difference {
  kind: DifferenceKind;
  /** `status`, `content-type`, `header retry-after`, or a JSON path into the body (`$.session_record.status`). */
  path: string;
  /** The recorded value where it is safe to show (a status, an enum token), else its type. */
  recorded: string;
  sandbox: string;
  /** The API reference's words when the difference falls on a part it does not show (guesses.ts). */
  guess?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** Headers clients act on: back-off, rate-limit budgets, idempotent replays. */
const READ_HEADER = /^(retry-after|x-ratelimit-[a-z-]+|[a-z-]*idempoten[a-z-]*)$/;

const mediaType = (headers: Record<string, string>) => headers['content-type']?.split(';')[0]?.trim().toLowerCase();

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** A header value by kind: clients parse Retry-After as seconds or as an HTTP date, the budgets as integers. */
function headerKind(value: string | undefined): string {
  if (value === undefined) return 'absent';
  if (/^\d+$/.test(value.trim())) return 'integer';
  if (!Number.isNaN(Date.parse(value))) return 'http-date';
  return isEnumToken(value.trim()) ? value.trim() : 'text';
}

function parseJson(body: string | Uint8Array | undefined): { json: unknown } | undefined {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return { json: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

const childPath = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Walks both bodies together; `name` is the field holding the values (an array item keeps its array's). */
function compareJson(recorded: unknown, sandbox: unknown, path: string, name: string | number | undefined, out: Difference[]): void {
  const recordedType = typeOf(recorded);
  const sandboxType = typeOf(sandbox);
  if (recordedType !== sandboxType) {
    out.push({ kind: recorded === null || sandbox === null ? 'null' : 'type', path, recorded: recordedType, sandbox: sandboxType });
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(sandbox)) {
    // Lists hold different records in each run: their lengths differ, the shape of each item must not.
    const length = Math.min(recorded.length, sandbox.length);
    for (let i = 0; i < length; i += 1) compareJson(recorded[i], sandbox[i], childPath(path, i), name, out);
    return;
  }
  if (recordedType === 'object') {
    const r = recorded as Record<string, unknown>;
    const s = sandbox as Record<string, unknown>;
    for (const key of Object.keys(r)) {
      if (key in s) compareJson(r[key], s[key], childPath(path, key), key, out);
      else out.push({ kind: 'missing', path: childPath(path, key), recorded: typeOf(r[key]), sandbox: 'absent' });
    }
    for (const key of Object.keys(s)) {
      if (!(key in r)) out.push({ kind: 'extra', path: childPath(path, key), recorded: 'absent', sandbox: typeOf(s[key]) });
    }
    return;
  }
  if (typeof recorded === 'string' && typeof sandbox === 'string' && recorded !== sandbox) {
    const recordedEnum = isEnumLike(name, recorded);
    const sandboxEnum = isEnumLike(name, sandbox);
    // A token may be shown; free text facing a token (`PENDING` against `pending review`) only as a hash.
    if (recordedEnum || sandboxEnum) {
      out.push({ kind: 'value', path, recorded: recordedEnum ? recorded : shortHash(recorded), sandbox: sandboxEnum ? sandbox : shortHash(sandbox) });
    }
  }
}

export function compareAnswers(recorded: Answer, sandbox: Answer): Difference[] {
  const out: Difference[] = [];
  const recordedType = mediaType(recorded.headers);
  const sandboxType = mediaType(sandbox.headers);
  if (recordedType !== sandboxType)
    out.push({ kind: 'content-type', path: 'content-type', recorded: recordedType ?? 'absent', sandbox: sandboxType ?? 'absent' });
  // Another status is another answer: its headers and body differ as a consequence, not as drift of their own.
  if (recorded.status !== sandbox.status) {
    out.unshift({ kind: 'status', path: 'status', recorded: String(recorded.status), sandbox: String(sandbox.status) });
    return out;
  }
  const names = new Set([...Object.keys(recorded.headers), ...Object.keys(sandbox.headers)].filter((name) => READ_HEADER.test(name)));
  for (const name of [...names].sort()) {
    const r = headerKind(recorded.headers[name]);
    const s = headerKind(sandbox.headers[name]);
    if (r !== s) out.push({ kind: 'header', path: `header ${name}`, recorded: r, sandbox: s });
  }
  const recordedJson = parseJson(recorded.body);
  const sandboxJson = parseJson(sandbox.body);
  if (recordedJson && sandboxJson) compareJson(recordedJson.json, sandboxJson.json, '$', undefined, out);
  else if (recordedJson || sandboxJson)
    out.push({ kind: 'type', path: '$', recorded: recordedJson ? 'json' : 'not json', sandbox: sandboxJson ? 'json' : 'not json' });
  return out;
}
