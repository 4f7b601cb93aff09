/**
 * The request journal of a namespace: a bounded ring buffer of what was asked and answered, for tests
 * that assert on traffic and for the console. Never holds a raw API key, only the key's id.
 */

export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  keyId: string | null;
  scenarios: string[];
  durationMs: number;
  startedAt: string;
  finishedAt: string;
}

export interface RequestLogFilter {
  method?: string;
  path?: string;
  status?: number;
  keyId?: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(private readonly capacity: number) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Oldest first. `path` matches exactly or, when it ends in `*`, as a prefix. */
  list(filter: RequestLogFilter = {}): RequestLogEntry[] {
    return this.entries.filter(
      (entry) =>
        (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || (filter.path.endsWith('*') ? entry.path.startsWith(filter.path.slice(0, -1)) : entry.path === filter.path)) &&
        (filter.status === undefined || entry.status === filter.status) &&
        (filter.keyId === undefined || entry.keyId === filter.keyId),
    );
  }

  clear(): number {
    const count = this.entries.length;
    this.entries = [];
    return count;
  }
}
