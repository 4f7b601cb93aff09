/**
 * Hosted verification sessions: POST/GET /v1/sessions, GET /v1/sessions/{id}, PATCH update-status,
 * POST uploads, the applicant's hosted page under /verify, and the control plane's
 * POST /__sandbox/sessions/{id}/outcome. Other areas use the stored state through sessions.store.ts.
 */
import { valueSource } from '../platform/coverage/sources.ts';
import { SESSION_STATUS_COVERAGE, sessionTransitionSource } from './session-coverage.ts';
import { sandboxIdTrigger } from '../platform/catalog/catalog.ts';
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { SANDBOX_SESSION_TEST_IDENTIFIERS } from './sandbox-sessions.ts';
import { sessionsRouter } from './sessions.router.ts';

export const sessionsModule: SandboxModule = {
  name: 'sessions',
  router: () => sessionsRouter,
  capabilities: [
    {
      catalog: {
        testIdentifiers: SANDBOX_SESSION_TEST_IDENTIFIERS.map((entry) =>
          /^test_\w+$/.test(entry.input) ? { ...entry, trigger: sandboxIdTrigger(entry.endpoint, entry.input) } : entry,
        ),
      },
      coverage: [
        valueSource(SESSION_STATUS_COVERAGE, (status, context) => {
          const id = `test_${status.toLowerCase()}`;
          return {
            how: `read a session the applicant or reviewer drove to ${status} (POST /__sandbox/sessions/{id}/outcome), or the sandbox id ${id} with the sandbox key`,
            request: { method: 'GET', path: `/v1/sessions/${id}`, key: context.keys.sandbox },
          };
        }),
        sessionTransitionSource,
      ],
    },
    // A session driven to its end enrols its uploaded selfie in the face registry.
    { decodesImages: ['sandboxDriveSessionOutcome'] },
  ],
};
