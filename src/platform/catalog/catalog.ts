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
}

/** clientOperations: operations of the real client that the spec does not describe (client-operations.ts). */
export type CatalogSection = 'magicValues' | 'testIdentifiers' | 'clientOperations';

export class Catalog {
  private readonly sections = new Map<CatalogSection, CatalogEntry[]>();

  add(section: CatalogSection, entries: readonly CatalogEntry[]): void {
    this.sections.set(section, [...(this.sections.get(section) ?? []), ...entries]);
  }

  list(section: CatalogSection): CatalogEntry[] {
    return [...(this.sections.get(section) ?? [])];
  }
}
