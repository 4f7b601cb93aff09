/**
 * Ready curls that name real records: a trigger's path keeps `{id}`-like placeholders, which the
 * namespace's request journal can fill with an id it answered under the same collection (a `GET
 * /v1/sessions/<id>` fills every `/v1/sessions/{…}` path), or that a create answered (`POST /v1/sessions`
 * → its `id`). A placeholder nothing filled names the create that makes such a record, where one exists.
 */

/** What the journal tells of one answered request. */
export interface JournalAnswer {
  method: string;
  path: string;
  status: number;
  responseBody?: unknown;
}

/** The literal path up to a placeholder, earlier placeholders as `{}`: what collection the placeholder names. */
const collectionOf = (segments: readonly string[], index: number) =>
  segments
    .slice(0, index + 1)
    .map((segment) => (segment.startsWith('{') ? '{}' : segment))
    .join('/');

const PLACEHOLDER = /^\{([^}]+)\}$/;

export class RecordIds {
  /** Collection (`/v1/sessions/{}`) → the latest id answered in it. */
  private readonly ids = new Map<string, string>();
  /** Collection → the body a create of it answered last. */
  private readonly created = new Map<string, Record<string, unknown>>();

  /** `operations`: the documented ones (`POST /v1/sessions/{id}/uploads`); `answers`: the journal's, oldest first. */
  constructor(
    private readonly operations: readonly { method: string; path: string }[],
    answers: readonly JournalAnswer[],
  ) {
    const matchers = operations.map(({ method, path }) => ({ method, segments: path.split('/') }));
    for (const answer of answers) {
      if (answer.status < 200 || answer.status >= 300) continue;
      const sent = answer.path.split('/');
      for (const { method, segments } of matchers) {
        if (segments.length !== sent.length || !segments.every((segment, i) => PLACEHOLDER.test(segment) || segment === sent[i])) continue;
        segments.forEach((segment, i) => {
          if (PLACEHOLDER.test(segment)) this.ids.set(collectionOf(segments, i), safeDecode(sent[i] as string));
        });
        const body = answer.responseBody;
        if (method === 'POST' && method === answer.method && typeof body === 'object' && body !== null && !Array.isArray(body)) {
          this.created.set(`${collectionOf(segments, segments.length - 1)}/{}`, body as Record<string, unknown>);
        }
      }
    }
  }

  /**
   * The path with each placeholder filled, or what is missing: the placeholders no answer filled, each
   * with the create that makes such a record when the API has one.
   */
  fill(path: string): { path: string } | { missing: string } {
    const segments = path.split('/');
    const missing: string[] = [];
    const filled = segments.map((segment, i) => {
      const name = PLACEHOLDER.exec(segment)?.[1];
      if (name === undefined) return segment;
      // The control plane's paths (`/__sandbox/sessions/{id}/outcome`) name the API's records.
      const collection = collectionOf(segments, i).replace(/^\/__sandbox\//, '/v1/');
      const created = this.created.get(collection);
      const id = this.ids.get(collection) ?? stringMember(created, name) ?? stringMember(created, 'id');
      if (id !== undefined) return encodeURIComponent(id);
      const create = this.operations.find((operation) => operation.method === 'POST' && `${operation.path}/{}` === collection);
      missing.push(create ? `{${name}} (${create.method} ${create.path} makes one)` : `{${name}}`);
      return segment;
    });
    return missing.length === 0 ? { path: filled.join('/') } : { missing: missing.join(', ') };
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function stringMember(body: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
