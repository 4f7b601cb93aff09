/** Shared test data for the sessions area. Each test still builds its own records from these. */
import { buildSessionRecord } from '../../src/sessions/session-record.ts';
import type { SessionRecord } from '../../src/sessions/sessions.schemas.ts';

export const NOW = '2026-03-01T12:00:00.000Z';
export const NOW_MS = Date.parse(NOW);
export const URLS = { base: 'http://127.0.0.1:4010', verify: 'http://127.0.0.1:4010/verify', console: 'http://127.0.0.1:4010/console' };
export const SESSION_ID = '0f8c2d4e-5b6a-4c7d-8e9f-a1b2c3d4e5f6';

export function pendingRecord(overrides: { expiresInHours?: number; id?: string } = {}): SessionRecord {
  return buildSessionRecord({
    id: overrides.id ?? SESSION_ID,
    organizationId: 'org_demo',
    userId: 'user-applicant',
    senderUserId: 'user-sender',
    type: 'session',
    body: overrides.expiresInHours === undefined ? {} : { expiresInHours: overrides.expiresInHours },
    nowIso: NOW,
  });
}

/** Where a single-session response may hold null: the phone of its profile objects (every member present). */
const NULLABLE_PATHS: readonly string[] = ['$.user.phone', '$.sender_user.phone'];

/**
 * Paths of every `null` value and every own key whose value is `undefined`, outside the subtrees where
 * the spec makes values nullable (title_search_data) and the profile objects' phone.
 */
export function forbiddenNullPaths(value: unknown, path = '$', allowUnder: readonly string[] = ['title_search_data']): string[] {
  if (value === null) return NULLABLE_PATHS.includes(path) ? [] : [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => forbiddenNullPaths(item, `${path}[${index}]`, allowUnder));
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    if (child === undefined) return [`${path}.${key} (undefined)`];
    if (allowUnder.includes(key)) return [];
    return forbiddenNullPaths(child, `${path}.${key}`, allowUnder);
  });
}

export const addMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();
