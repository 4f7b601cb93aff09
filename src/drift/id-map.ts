/**
 * Ids follow the run: where a recorded answer and the sandbox's answer carry an id (or a link) at the
 * same JSON path, the recorded one stands for the sandbox's in every later request: in its URL (a whole
 * path segment, a query value, or the whole link: a presigned upload URL, a hosted page), and in its JSON body.
 */

/** Fields that name a record or a place: `id`, `session_id`, `jobId`, `upload_key`, `session_url`, `href`, `token`. */
const ID_FIELD = /^(id|key|token|url|href|.+(_id|Id|_key|Key|_url|Url|_token|Token))$/;

/** Shorter values are not ids worth following (`1`, `ok`), and rewriting them would hit unrelated text. */
const MIN_ID_LENGTH = 4;

const isLink = (value: string) => /^https?:\/\//i.test(value);

export class IdMap {
  readonly #ids = new Map<string, string>();
  readonly #links = new Map<string, string>();

  get size(): number {
    return this.#ids.size + this.#links.size;
  }

  /** Learns the pairs of ids the two bodies carry at the same paths. */
  learn(recorded: unknown, sandbox: unknown, field?: string): void {
    if (Array.isArray(recorded) && Array.isArray(sandbox)) {
      const length = Math.min(recorded.length, sandbox.length);
      for (let i = 0; i < length; i += 1) this.learn(recorded[i], sandbox[i], field);
    } else if (isRecord(recorded) && isRecord(sandbox)) {
      for (const key of Object.keys(recorded)) if (key in sandbox) this.learn(recorded[key], sandbox[key], key);
    } else if (typeof recorded === 'string' && typeof sandbox === 'string' && field !== undefined && ID_FIELD.test(field)) {
      if (recorded === sandbox || recorded.length < MIN_ID_LENGTH) return;
      if (isLink(recorded) && isLink(sandbox)) this.#links.set(recorded, sandbox);
      else this.#ids.set(recorded, sandbox);
    }
  }

  /** A recorded URL (absolute, or a path) as the sandbox knows it: path and query, ids replaced. */
  rewriteUrl(url: string): string {
    const parsed = new URL(this.#links.get(url) ?? url, 'http://recording.invalid');
    const path = parsed.pathname
      .split('/')
      .map((segment) => {
        const mapped = this.#ids.get(safeDecode(segment));
        return mapped === undefined ? segment : encodeURIComponent(mapped);
      })
      .join('/');
    for (const [name, value] of [...parsed.searchParams]) {
      const mapped = this.#ids.get(value);
      if (mapped !== undefined) parsed.searchParams.set(name, mapped);
    }
    return `${path}${parsed.search}`;
  }

  /** Every string of a JSON value that is a recorded id, replaced by the sandbox's. */
  rewriteJson(value: unknown): unknown {
    if (typeof value === 'string') return this.#ids.get(value) ?? this.#links.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => this.rewriteJson(item));
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.rewriteJson(item)]));
    return value;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
