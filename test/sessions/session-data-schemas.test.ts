/**
 * The session record's `meta_data` and `analysis_data` schemas are built on first need (through `z.lazy`):
 * only answers' documentation and checks read them, so the sessions area loads (for a create, the first
 * call of most suites) without building them. /openapi.json is unchanged (test/docs, the recorded examples).
 */
import { z } from '@hono/zod-openapi';
import { describe, expect, it, vi } from 'vitest';
import { freshly } from '../helpers/compiled-functions.ts';

describe("the record's meta_data and analysis_data schemas", () => {
  it('are not built when the sessions area loads, only when first read', async () => {
    const named = vi.spyOn(z.ZodType.prototype, 'openapi');
    const built = () => named.mock.calls.map(([refId]) => refId).filter((refId) => refId === 'SessionMetaData' || refId === 'SessionAnalysisData');
    try {
      const area = await freshly(() => import('../../src/sessions/index.ts'));
      expect(area.sessionsModule.router().routes.length).toBeGreaterThan(0);
      expect(built()).toEqual([]);
      const { sessionDataSchemas, SessionRecordSchema } = await import('../../src/sessions/sessions.schemas.ts');
      expect(SessionRecordSchema.parse({ ...RECORD, analysis_data: { faceliveness_score: 97, extra: 1 } })).toEqual({
        ...RECORD,
        analysis_data: { faceliveness_score: 97, extra: 1 },
      });
      expect(built()).toEqual(['SessionMetaData', 'SessionAnalysisData']);
      expect(sessionDataSchemas().AnalysisDataSchema.safeParse({ faceliveness_score: 101 }).success).toBe(false);
    } finally {
      named.mockRestore();
    }
  });
});

const RECORD = {
  id: '3f0c2b9e-6a51-4d7e-9b1f-2c8d4e5a6b7c',
  organization_id: 'org_demo',
  user_id: 'u1',
  sender_user_id: 'u2',
  status: 'VERIFIED',
  type: 'session',
  session_progress: 'COMPLETED',
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-15T09:30:00.000Z',
};
