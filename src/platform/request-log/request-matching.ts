/**
 * Request verification: which journal entries match a pattern (method, path glob, query members, body
 * members, status, key id), and for those that do not, how far off each is, so a failed expectation can
 * show the nearest requests with what differed. Bodies are matched as the journal keeps them (secrets
 * redacted, long strings shortened).
 */
import { pathPattern } from '../scenarios/scenarios.ts';
import { RELOAD_METHOD, type RequestLogEntry } from './request-log.ts';

export interface RequestPattern {
  method?: string;
  /** Exact path, or a glob: `*` one segment, `**` any number of segments. */
  path?: string;
  /** Query parameters the request had, with these values (others ignored). */
  query?: Record<string, string>;
  /** Members the JSON request body holds, at any depth (other members ignored; arrays item by item). */
  body?: Record<string, unknown>;
  status?: number;
  keyId?: string;
}

export interface NearMiss {
  requestId: string;
  method: string;
  path: string;
  status: number;
  /** What differs from the pattern, one sentence each. */
  differences: string[];
}

const shown = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

/** How the entry differs from the pattern; empty when it matches. */
export function differences(entry: RequestLogEntry, pattern: RequestPattern): string[] {
  const found: string[] = [];
  if (pattern.method !== undefined && entry.method !== pattern.method.toUpperCase())
    found.push(`method is ${entry.method}, expected ${pattern.method.toUpperCase()}`);
  if (pattern.path !== undefined && !pathPattern(pattern.path).test(entry.path)) found.push(`path is ${entry.path}, expected ${pattern.path}`);
  for (const [name, value] of Object.entries(pattern.query ?? {})) {
    if (entry.query[name] !== value) found.push(`query ${name} is ${shown(entry.query[name])}, expected ${shown(value)}`);
  }
  if (pattern.body !== undefined) found.push(...bodyDifferences(entry.requestBody, pattern.body, 'body'));
  if (pattern.status !== undefined && entry.status !== pattern.status) found.push(`status is ${entry.status}, expected ${pattern.status}`);
  if (pattern.keyId !== undefined && entry.keyId !== pattern.keyId) found.push(`key is ${entry.keyId ?? 'none'}, expected ${pattern.keyId}`);
  return found;
}

function bodyDifferences(actual: unknown, expected: unknown, where: string): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where} is ${shown(actual)}, expected an array`];
    if (actual.length !== expected.length) return [`${where} has ${actual.length} items, expected ${expected.length}`];
    return expected.flatMap((item, index) => bodyDifferences(actual[index], item, `${where}[${index}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${where} is ${shown(actual)}, expected an object`];
    return Object.entries(expected).flatMap(([name, value]) => bodyDifferences((actual as Record<string, unknown>)[name], value, `${where}.${name}`));
  }
  return actual === expected ? [] : [`${where} is ${shown(actual)}, expected ${shown(expected)}`];
}

/** The entries a pattern looks at: requests, and the journaled reloads only when it asks for them by method. */
const considered = (entries: readonly RequestLogEntry[], pattern: RequestPattern) =>
  pattern.method?.toUpperCase() === RELOAD_METHOD ? entries : entries.filter((entry) => entry.method !== RELOAD_METHOD);

/** Entries that match, oldest first. */
export function matchingEntries(entries: readonly RequestLogEntry[], pattern: RequestPattern): RequestLogEntry[] {
  return considered(entries, pattern).filter((entry) => differences(entry, pattern).length === 0);
}

/** The entries that do not match, fewest differences first (the newest first among equals), at most `limit`. */
export function nearMisses(entries: readonly RequestLogEntry[], pattern: RequestPattern, limit: number): NearMiss[] {
  return considered(entries, pattern)
    .map((entry, order) => ({ entry, order, differences: differences(entry, pattern) }))
    .filter((candidate) => candidate.differences.length > 0)
    .sort((a, b) => a.differences.length - b.differences.length || b.order - a.order)
    .slice(0, limit)
    .map(({ entry, differences }) => ({ requestId: entry.requestId, method: entry.method, path: entry.path, status: entry.status, differences }));
}

/** A pattern as a person reads it: `POST /v1/sessions with body {"firstName":"Jane"}`. */
export function describePattern(pattern: RequestPattern): string {
  const parts = [pattern.method?.toUpperCase() ?? 'any method', pattern.path ?? 'any path'];
  if (pattern.query) parts.push(`with query ${JSON.stringify(pattern.query)}`);
  if (pattern.body) parts.push(`with body ${JSON.stringify(pattern.body)}`);
  if (pattern.status !== undefined) parts.push(`answered ${pattern.status}`);
  if (pattern.keyId !== undefined) parts.push(`by key ${pattern.keyId}`);
  return parts.join(' ');
}
