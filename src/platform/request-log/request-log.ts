/**
 * The request journal of a namespace: what was asked and answered, for tests that assert on traffic, for
 * the console and for the first question of a failing test ("what did the sandbox receive, what did it
 * answer, which scenario fired"). Each entry keeps the request and response bodies (long strings
 * shortened, each body capped), the X-Sandbox-Explain text and the scenario rules that fired.
 *
 * Bounded twice: at most `entries` entries and `bytes` bytes per namespace, oldest dropped first.
 * Secrets never leave it: no API key (only its id), no Authorization header or cookie, no upload-URL
 * signature (in the query, in headers or inside a body), no member named like a key, token or password.
 *
 * Most entries are never read, so a JSON body waits as the text that was sent (held in memory only, and
 * counted as those bytes): it is parsed, redacted and shortened the first time its entry is read, and the
 * entry is counted again at its kept size then.
 */
import { isUtf8 } from 'node:buffer';
import { keptAnswers } from '../kept-answers.ts';

export interface RequestLogLimits {
  /** Entries kept per namespace. */
  entries: number;
  /** Bytes kept per namespace (entries measured as JSON). */
  bytes: number;
  /** Largest body kept, in bytes of JSON; a longer one is kept as a shortened string. */
  bodyBytes: number;
}

export const DEFAULT_REQUEST_LOG_LIMITS: RequestLogLimits = { entries: 1000, bytes: 2 * 1024 * 1024, bodyBytes: 16 * 1024 };

/** Strings inside a kept body longer than this are shortened (base64 images, mostly). */
const LONG_STRING = 256;
const REDACTED = '[redacted]';
/** Member, header and query names whose values are secrets. */
const SECRET_NAME =
  /^(x-api-key|api[-_]?key|authorization|cookie|set-cookie|signature|password|secret|(admin[-_]?)?token|access[-_]?token|refresh[-_]?token)$/i;
const SIGNATURE_PARAMETER = /([?&]signature=)[^&#\s"']*/gi;
/** Whether a string may hold an upload signature at all (most do not: no replace, no copy). */
const MENTIONS_SIGNATURE = /signature=/i;

/** The method of the entries the sandbox writes itself when scenario files are reloaded (not requests). */
export const RELOAD_METHOD = 'RELOAD';

export interface FiredScenarioRule {
  scenario: string;
  /** Index of the rule in the scenario's `rules`; absent for a behaviour. */
  rule?: number;
  /** What it did: `respond 503`, `latency 200 ms`, `behaviour async-jobs-fail`. */
  effect: string;
}

export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Request headers, secrets left out. */
  headers: Record<string, string>;
  requestBody?: unknown;
  status: number;
  responseBody?: unknown;
  /** The X-Sandbox-Explain text of the response. */
  explain?: string;
  keyId: string | null;
  /** Scenarios active for the request (namespace-wide and from X-Sandbox-Scenario). */
  scenarios: string[];
  /** Scenario rules and behaviours that acted on the request. */
  firedRules: FiredScenarioRule[];
  durationMs: number;
  startedAt: string;
  finishedAt: string;
}

/**
 * An entry as the request path adds it: its instants as epoch milliseconds on the namespace's clock,
 * written out (`startedAt`, `finishedAt`, as `toISOString` does) only when the entry is read.
 */
export interface JournaledRequest extends Omit<RequestLogEntry, 'startedAt' | 'finishedAt'> {
  startedAtMs: number;
  finishedAtMs: number;
}

export interface RequestLogFilter {
  method?: string;
  path?: string;
  status?: number;
  keyId?: string;
}

/**
 * A JSON body as it was sent, not yet parsed: what the journal holds until its entry is read. Private to
 * this module, so nothing outside can reach the text before its secrets are redacted.
 */
class UnreadBody {
  constructor(
    /** The text, or the bytes of a response sent as bytes (decoded only if the entry is read). */
    readonly sent: string | Uint8Array,
    readonly contentType: string,
    /** The bytes are well-formed UTF-8 without a byte-order mark (a shared JSON answer's): their length is their text's size. */
    private readonly plainUtf8: boolean,
  ) {}

  get text(): string {
    return typeof this.sent === 'string' ? this.sent : new TextDecoder().decode(this.sent);
  }

  /** The UTF-8 size of its text. */
  get bytes(): number {
    if (typeof this.sent === 'string') return Buffer.byteLength(this.sent);
    if (this.plainUtf8) return this.sent.byteLength;
    // Valid UTF-8 without a byte-order mark (which decoding drops) is its text's UTF-8 as it is.
    const bom = this.sent[0] === 0xef && this.sent[1] === 0xbb && this.sent[2] === 0xbf;
    return isUtf8(this.sent) && !bom ? this.sent.byteLength : Buffer.byteLength(this.text);
  }
}

/** Where an entry's members sit in its slot of `RequestLog`'s columns: references first, then numbers. */
const REQUEST_ID = 0;
const METHOD = 1;
const PATH = 2;
const QUERY = 3;
const HEADERS = 4;
const REQUEST_BODY = 5;
const RESPONSE_BODY = 6;
const EXPLAIN = 7;
const KEY_ID = 8;
const SCENARIOS = 9;
const FIRED_RULES = 10;
/** The entry as read, once it has been. */
const READ = 11;
const REFERENCES = 12;

const STATUS = 0;
const DURATION_MS = 1;
const STARTED_AT_MS = 2;
const FINISHED_AT_MS = 3;
/** The entry's size in bytes of JSON. */
const SIZE = 4;
const NUMBERS = 5;

/** Slots a journal starts with; it doubles them up to its entry bound. */
const FIRST_SLOTS = 16;

export class RequestLog {
  /**
   * The entries as columns, in a ring of `slots` slots, oldest at `head`: an entry's references at
   * `REFERENCES` consecutive places of `references`, its numbers at `NUMBERS` places of `numbers`. No object
   * per entry: a busy journal's entries outlive the young generation, and an object (with its boxed
   * numbers) promoted per request filled the old generation in seconds, each fill a major collection that
   * paused every request (docs/performance.md).
   */
  private references: unknown[] = [];
  private numbers = new Float64Array(0);
  private slots = 0;
  private head = 0;
  private count = 0;
  private totalBytes = 0;

  constructor(readonly limits: RequestLogLimits = DEFAULT_REQUEST_LOG_LIMITS) {}

  add(request: JournaledRequest): void {
    if (this.count === this.slots) this.makeRoom();
    const slot = (this.head + this.count) % this.slots;
    this.count += 1;
    const at = slot * REFERENCES;
    const references = this.references;
    references[at + REQUEST_ID] = request.requestId;
    references[at + METHOD] = request.method;
    references[at + PATH] = request.path;
    references[at + QUERY] = request.query;
    references[at + HEADERS] = request.headers;
    references[at + REQUEST_BODY] = request.requestBody;
    references[at + RESPONSE_BODY] = request.responseBody;
    references[at + EXPLAIN] = request.explain;
    references[at + KEY_ID] = request.keyId;
    references[at + SCENARIOS] = request.scenarios;
    references[at + FIRED_RULES] = request.firedRules;
    references[at + READ] = undefined;
    const bytes = entryBytes(request);
    const numbers = this.numbers;
    const number = slot * NUMBERS;
    numbers[number + STATUS] = request.status;
    numbers[number + DURATION_MS] = request.durationMs;
    numbers[number + STARTED_AT_MS] = request.startedAtMs;
    numbers[number + FINISHED_AT_MS] = request.finishedAtMs;
    numbers[number + SIZE] = bytes;
    this.totalBytes += bytes;
    this.dropOldest();
  }

  get(requestId: string): RequestLogEntry | undefined {
    for (let index = 0; index < this.count; index++) {
      const slot = this.slotAt(index);
      if (this.references[slot * REFERENCES + REQUEST_ID] !== requestId) continue;
      const entry = this.readable(slot);
      this.dropOldest(slot);
      return entry;
    }
    return undefined;
  }

  /** Oldest first. `path` matches exactly or, when it ends in `*`, as a prefix. */
  list(filter: RequestLogFilter = {}): RequestLogEntry[] {
    for (let index = 0; index < this.count; index++) this.readable(this.slotAt(index));
    this.dropOldest();
    const entries: RequestLogEntry[] = [];
    for (let index = 0; index < this.count; index++) {
      const entry = this.references[this.slotAt(index) * REFERENCES + READ] as RequestLogEntry;
      if (
        (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || (filter.path.endsWith('*') ? entry.path.startsWith(filter.path.slice(0, -1)) : entry.path === filter.path)) &&
        (filter.status === undefined || entry.status === filter.status) &&
        (filter.keyId === undefined || entry.keyId === filter.keyId)
      ) {
        entries.push(entry);
      }
    }
    return entries;
  }

  /** Size of the kept entries, in bytes of JSON. */
  bytes(): number {
    return this.totalBytes;
  }

  clear(): number {
    const count = this.count;
    this.references = [];
    this.numbers = new Float64Array(0);
    this.slots = 0;
    this.head = 0;
    this.count = 0;
    this.totalBytes = 0;
    return count;
  }

  private slotAt(index: number): number {
    return (this.head + index) % this.slots;
  }

  /** Room for one more entry: more slots, up to the entry bound, then the oldest entry's. */
  private makeRoom(): void {
    const most = Math.max(1, this.limits.entries);
    if (this.slots < most) this.resize(Math.min(most, Math.max(FIRST_SLOTS, this.slots * 2)));
    else this.dropOldestSlot();
  }

  private resize(slots: number): void {
    const references: unknown[] = new Array(slots * REFERENCES).fill(undefined);
    const numbers = new Float64Array(slots * NUMBERS);
    for (let index = 0; index < this.count; index++) {
      const slot = this.slotAt(index);
      for (let member = 0; member < REFERENCES; member++) references[index * REFERENCES + member] = this.references[slot * REFERENCES + member];
      numbers.set(this.numbers.subarray(slot * NUMBERS, (slot + 1) * NUMBERS), index * NUMBERS);
    }
    this.references = references;
    this.numbers = numbers;
    this.slots = slots;
    this.head = 0;
  }

  /**
   * Oldest entries out until both bounds hold; the newest always stays, and so does the entry in slot
   * `kept` (being read): when it is the oldest, it takes the place of the next oldest, which goes.
   */
  private dropOldest(kept?: number): void {
    const { limits } = this;
    while (this.count > 1 && (this.count > limits.entries || this.totalBytes > limits.bytes)) {
      if (this.head === kept) {
        const next = this.slotAt(1);
        this.totalBytes -= this.numbers[next * NUMBERS + SIZE] as number;
        this.references.copyWithin(next * REFERENCES, kept * REFERENCES, (kept + 1) * REFERENCES);
        this.numbers.copyWithin(next * NUMBERS, kept * NUMBERS, (kept + 1) * NUMBERS);
        this.totalBytes += this.numbers[next * NUMBERS + SIZE] as number;
        kept = next;
      }
      this.dropOldestSlot();
    }
  }

  /** The oldest entry out, its references let go. */
  private dropOldestSlot(): void {
    const oldest = this.head;
    this.totalBytes -= this.numbers[oldest * NUMBERS + SIZE] as number;
    this.references.fill(undefined, oldest * REFERENCES, (oldest + 1) * REFERENCES);
    this.head = (oldest + 1) % this.slots;
    this.count -= 1;
  }

  /**
   * The entry in `slot` as read, made the first time: its instants written out, and the bodies it holds as
   * sent text parsed, redacted and shortened, the entry then counted at its kept size.
   */
  private readable(slot: number): RequestLogEntry {
    const at = slot * REFERENCES;
    const references = this.references;
    const read = references[at + READ] as RequestLogEntry | undefined;
    if (read !== undefined) return read;
    const numbers = this.numbers;
    const number = slot * NUMBERS;
    const requestBody = references[at + REQUEST_BODY];
    const responseBody = references[at + RESPONSE_BODY];
    // The members in the order they were always written, the instants last.
    const entry: RequestLogEntry = {
      requestId: references[at + REQUEST_ID] as string,
      method: references[at + METHOD] as string,
      path: references[at + PATH] as string,
      query: references[at + QUERY] as Record<string, string>,
      headers: references[at + HEADERS] as Record<string, string>,
      requestBody: readableBody(requestBody, this.limits),
      status: numbers[number + STATUS] as number,
      responseBody: readableBody(responseBody, this.limits),
      explain: references[at + EXPLAIN] as string | undefined,
      keyId: references[at + KEY_ID] as string | null,
      scenarios: references[at + SCENARIOS] as string[],
      firedRules: references[at + FIRED_RULES] as FiredScenarioRule[],
      durationMs: numbers[number + DURATION_MS] as number,
      startedAt: new Date(numbers[number + STARTED_AT_MS] as number).toISOString(),
      finishedAt: new Date(numbers[number + FINISHED_AT_MS] as number).toISOString(),
    };
    references[at + READ] = entry;
    // The sent text is no longer needed: the entry holds the bodies as kept.
    references[at + REQUEST_BODY] = undefined;
    references[at + RESPONSE_BODY] = undefined;
    if (requestBody instanceof UnreadBody || responseBody instanceof UnreadBody) {
      const bytes = entryBytes(entry);
      this.totalBytes += bytes - (numbers[number + SIZE] as number);
      numbers[number + SIZE] = bytes;
    }
    return entry;
  }
}

function readableBody(body: unknown, limits: RequestLogLimits): unknown {
  return body instanceof UnreadBody ? keptBody(body.text, body.contentType, limits) : body;
}

/**
 * A body to journal: JSON up to four times the body cap waits as sent (made readable when its entry is
 * read); a larger one, or any other text, is kept at once, so one answer never holds much of the journal.
 */
export function journaledBody(sent: string | Uint8Array, contentType: string, limits: RequestLogLimits, plainUtf8 = false): unknown {
  // Bytes are never fewer than the characters they encode: bytes within the bound wait undecoded.
  const waits =
    /json/i.test(contentType) && (sent.length <= 4 * limits.bodyBytes || (typeof sent !== 'string' && decoded(sent).length <= 4 * limits.bodyBytes));
  if (waits) return plainUtf8 ? sharedUnreadBody(sent, contentType) : new UnreadBody(sent, contentType, false);
  return keptBody(typeof sent === 'string' ? sent : decoded(sent), contentType, limits);
}

const decoded = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * The unread body of a shared answer's bytes, one for all the entries that sent them (a polled read sends
 * the same bytes again and again): it is never changed, and each entry is made readable from it on its own.
 */
function sharedUnreadBody(sent: string | Uint8Array, contentType: string): UnreadBody {
  const last = lastSharedBody;
  if (last !== undefined && last.sent === sent && last.contentType === contentType) return last;
  lastSharedBody = new UnreadBody(sent, contentType, true);
  return lastSharedBody;
}

let lastSharedBody: UnreadBody | undefined;

/** The text of a JSON body `receivedBody` kept as sent (not one it shortened or redacted). */
export function sentJsonText(journaled: unknown): string | undefined {
  return journaled instanceof UnreadBody ? journaled.text : undefined;
}

/** JSON sizes of kept bodies and header records, measured once when they are kept: an entry's size reuses them. */
const keptBodyBytes = new WeakMap<object, number>();

/**
 * Bytes of `JSON.stringify(entry)`, counted member by member instead of written out (every request adds an
 * entry), bodies at the size measured when they were kept.
 */
function entryBytes(entry: JournaledRequest | RequestLogEntry): number {
  let bytes = 1;
  for (const name in entry) {
    const value = entry[name as keyof typeof entry];
    if (value === undefined) continue;
    if (name === 'startedAtMs' || name === 'finishedAtMs') {
      // Written as `"startedAt":"<toISOString>"`: the name without its "Ms".
      bytes += name.length - 2 + 4 + instantJsonBytes(value as number);
      continue;
    }
    // An entry's member names are plain identifiers: written as they are, in quotes.
    bytes += name.length + 4 + (name === 'requestBody' || name === 'responseBody' || name === 'headers' ? bodyBytes(value) : jsonBytes(value));
  }
  return bytes === 1 ? 2 : bytes;
}

/** Years 0 to 9999, in epoch milliseconds: `toISOString` gives them four digits, others six and a sign. */
const FOUR_DIGIT_YEARS = { from: Date.parse('0000-01-01T00:00:00.000Z'), to: Date.parse('+010000-01-01T00:00:00.000Z') };

/** Bytes of `JSON.stringify(new Date(ms).toISOString())`. */
const instantJsonBytes = (ms: number): number => (ms >= FOUR_DIGIT_YEARS.from && ms < FOUR_DIGIT_YEARS.to ? 26 : 29);

function bodyBytes(body: unknown): number {
  if (body instanceof UnreadBody) return body.bytes;
  return (typeof body === 'object' && body !== null ? keptBodyBytes.get(body) : undefined) ?? jsonBytes(body);
}

/** Text that JSON writes as it is between its quotes: printable ASCII without `"` and `\`. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const stringBytes = (text: string): number => (PLAIN_JSON_TEXT.test(text) ? text.length + 2 : Buffer.byteLength(JSON.stringify(text)));

/** Bytes of `JSON.stringify(value)` for the JSON-shaped values an entry holds; anything else is written out. */
function jsonBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null) return 4;
  if (Array.isArray(value)) {
    let bytes = value.length === 0 ? 2 : value.length + 1;
    for (const item of value) bytes += item === undefined ? 4 : jsonBytes(item);
    return bytes;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && !('toJSON' in value)) {
    let bytes = 1;
    for (const name of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[name];
      if (member !== undefined) bytes += stringBytes(name) + 2 + jsonBytes(member);
    }
    return bytes === 1 ? 2 : bytes;
  }
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/** A string as the journal keeps it: upload signatures redacted, at most `limit` characters. */
function keptString(text: string, limit: number): string {
  const redacted = MENTIONS_SIGNATURE.test(text) ? text.replace(SIGNATURE_PARAMETER, `$1${REDACTED}`) : text;
  return redacted.length <= limit ? redacted : `${redacted.slice(0, limit)}… [${redacted.length - limit} more characters]`;
}

/** A JSON value with secret members redacted and long strings shortened. */
function keptJson(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return keptString(value, LONG_STRING);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => keptJson(item, depth + 1));
  // A plain loop: this runs for every member of every journaled body.
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const member = SECRET_NAME.test(name) ? REDACTED : keptJson((value as Record<string, unknown>)[name], depth + 1);
    // A member named __proto__ (JSON.parse makes it an own member) stays a member, not the prototype.
    if (name === '__proto__') Object.defineProperty(kept, name, { value: member, enumerable: true, writable: true, configurable: true });
    else kept[name] = member;
  }
  return kept;
}

/** A body as the journal keeps it: JSON as a value (when it fits), text as a string, anything else as a summary. */
export function keptBody(text: string, contentType: string, limits: RequestLogLimits): unknown {
  if (/json/i.test(contentType)) {
    try {
      const kept = keptJson(JSON.parse(text));
      const json = JSON.stringify(kept);
      const bytes = Buffer.byteLength(json);
      if (bytes > limits.bodyBytes) return keptString(json, limits.bodyBytes);
      if (typeof kept === 'object' && kept !== null) keptBodyBytes.set(kept, bytes);
      return kept;
    } catch {
      // not valid JSON: kept as the text it is
    }
  }
  return keptString(text, limits.bodyBytes);
}

export const isText = (contentType: string) => contentType === '' || /json|text|x-www-form-urlencoded|xml|javascript/i.test(contentType);
export const binarySummary = (contentType: string, bytes: number) => `[${bytes} bytes of ${contentType || 'binary data'}]`;

/** A named text value (a query parameter, a form field) as the journal keeps it: a secret redacted, a long one shortened. */
export const keptField = (name: string, value: string): string => (SECRET_NAME.test(name) ? REDACTED : keptString(value, LONG_STRING));

/** Query parameters with secrets redacted and long values shortened. */
export function keptQuery(query: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, keptField(name, value)]));
}

/**
 * The request headers the journal keeps (`keptHeaders`), one record for all the requests that sent the same
 * header `lines` (names and values as sent; undefined: none to go by): a client sends the same ones again
 * and again. A kept record is shared, so never changed; its JSON size is measured once.
 */
export function journaledHeaders(lines: readonly string[] | undefined, headers: () => Iterable<[string, string]>): Record<string, string> {
  if (lines === undefined) return keptHeaders(headers());
  // The lines of the request before, compared in place: the usual case makes no key.
  const last = lastHeaderLines;
  if (last !== undefined && sameLines(last.lines, lines)) return last.record;
  // The HTTP parser refuses a line break in a name or value, so the joined lines name them exactly.
  const record = journaledHeaderRecords(lines.join('\n'), () => {
    const kept = keptHeaders(headers());
    keptBodyBytes.set(kept, jsonBytes(kept));
    return kept;
  });
  lastHeaderLines = { lines, record };
  return record;
}

const journaledHeaderRecords = keptAnswers<Record<string, string>>(64);
let lastHeaderLines: { lines: readonly string[]; record: Record<string, string> } | undefined;

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Request headers without secrets (API key, Authorization, cookies). */
function keptHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (!SECRET_NAME.test(name)) kept[name] = keptString(value, LONG_STRING);
  }
  return kept;
}
