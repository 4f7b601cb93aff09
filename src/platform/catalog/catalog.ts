/**
 * The catalog of everything a user can trigger on purpose: scenarios, fixture keys, magic values and
 * test identifiers. Areas register the same tables their code reads, so GET /__sandbox/catalog (and the
 * docs/reference.md tables built from it) cannot drift from behaviour.
 */

export interface CatalogEntry {
  /** The endpoint or surface, e.g. `POST /v1/screening/phone-trust`. */
  endpoint: string;
  /** The input that forces the outcome, e.g. `phone +447700900003`. */
  input: string;
  outcome: string;
  description?: string;
  /** The one request that forces it, when there is one (the integration-coverage catalog fires and recognises it). */
  trigger?: CatalogTrigger;
}

/** Which fixture key a trigger sends. */
export type FixtureKeyRole = 'live' | 'sandbox' | 'broke' | 'revoked' | 'other';

/** The trigger of a sandbox id: a GET of the operation with the id in its path, with the sandbox key. */
export function sandboxIdTrigger(operation: string, id: string): CatalogTrigger {
  const [, path = ''] = operation.split(' ');
  return { operation, path: path.replace(/\{[^}]+\}/, id), key: 'sandbox' };
}

export interface CatalogTrigger {
  /** The operation as /openapi.json names it: `POST /v1/screening/phone-trust`. */
  operation: string;
  /** The concrete path, when the value is in it (`/v1/sessions/test_verified`). */
  path?: string;
  /** The body members that carry the value, laid over the operation's documented example body. */
  body?: Record<string, unknown>;
  /** Members of the example body to leave out (an id of a record the example's recording run made). */
  omit?: string[];
  /** The fixture key to send (default the live key). */
  key?: FixtureKeyRole;
  /** The status the outcome answers with, when it is not a success (a provider outage's 503). */
  status?: number;
}

/** clientOperations: operations of the real client that the spec does not describe (client-operations.ts). */
export type CatalogSection = 'magicValues' | 'testIdentifiers' | 'clientOperations';

/**
 * The catalog's rows, by section. What adds them (every area's capabilities, loading the areas) is given
 * when the platform is built and runs once, on the first read: no answer depends on which request came first.
 */
export class Catalog {
  private readonly sections = new Map<CatalogSection, CatalogEntry[]>();
  private filling: Promise<void> | undefined;
  private complete = false;

  /** `fill` adds every area's rows, then calls `close`. */
  constructor(private readonly fill: () => Promise<void>) {}

  add(section: CatalogSection, entries: readonly CatalogEntry[]): void {
    if (this.complete) throw new Error(`catalog rows added after it was read (section ${section})`);
    this.sections.set(section, [...(this.sections.get(section) ?? []), ...entries]);
  }

  /** Every area has added its rows: reads may begin. */
  close(): void {
    this.complete = true;
  }

  /** The rows of a section, every area's (added on the first read). */
  async list(section: CatalogSection): Promise<CatalogEntry[]> {
    this.filling ??= this.fill();
    await this.filling;
    return this.rows(section);
  }

  /** The rows of a section once every area has added its own (coverage builds its classes from them then). */
  rows(section: CatalogSection): CatalogEntry[] {
    if (!this.complete) throw new Error('catalog read before every area added its rows (await list() first)');
    return [...(this.sections.get(section) ?? [])];
  }
}
