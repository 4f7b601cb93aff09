/**
 * Hosted verification sessions: POST/GET /v1/sessions, GET /v1/sessions/{id}, PATCH update-status,
 * POST uploads, the applicant's hosted page under /verify, and the control plane's
 * POST /__sandbox/sessions/{id}/outcome. Other areas use the stored state through sessions.store.ts.
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { SANDBOX_SESSION_TEST_IDENTIFIERS } from './sandbox-sessions.ts';
import { sessionsRouter } from './sessions.router.ts';
import { STORED_SESSION_SHAPE } from './sessions.store.ts';

export const sessionsModule: SandboxModule = {
  name: 'sessions',
  router: () => sessionsRouter,
  storedRecords: { sessions: STORED_SESSION_SHAPE },
  setup(platform) {
    platform.catalog.add('testIdentifiers', SANDBOX_SESSION_TEST_IDENTIFIERS);
  },
};
