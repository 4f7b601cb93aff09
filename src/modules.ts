/**
 * Every resource area of the API, mounted by app.ts from this one list (then the control plane and the
 * console, mounted the same way). Adding an area = one folder + one line here + `npm run generate:routes`.
 * Each is imported on first use (src/areas.ts): a start evaluates none of them, only the small modules
 * their entries declare (stored-record shapes, job kinds, ports: about 1 ms), which other areas use whichever
 * area is loaded first. What an area adds to the catalog and to coverage is data on its module
 * (`capabilities`), read in this order when either is first used.
 */
import type { z } from 'zod';
import type { JobKind } from './platform/jobs/jobs.ts';
import type { AreaEntry } from './platform/sandbox-module.ts';
import { testJobKind } from './control/test-job.ts';
import { adverseMediaJobKind } from './screening/adverse-media.service.ts';
import { applicantIds } from './financial/applicant-port.ts';
import { deepfakeSessions } from './deepfake/session-port.ts';
import { screeningSessions } from './screening/session-port.ts';
import { STORED_SESSION_SHAPE } from './sessions/stored-session-shape.ts';
import { workflowSessions } from './workflows/session-port.ts';

/**
 * What the areas below sessions need of a session (screening, deepfake, financial, and the workflows' step
 * engine): ports they declare, provided by the sessions area. An area whose modules reach one (itself, or
 * through the sessions or workflows it uses; test/architecture/area-port-needs.test.ts reads the import
 * graph) needs them all; the area loader connects them before its first request, whichever area comes first.
 */
const SESSION_PORTS = [screeningSessions, deepfakeSessions, applicantIds, workflowSessions];
const sessionsSide = () => import('./sessions/area-ports.ts');

export const AREAS: readonly AreaEntry[] = [
  { name: 'auth', load: async () => (await import('./auth/index.ts')).authModule },
  { name: 'async-jobs', load: async () => (await import('./async-jobs/index.ts')).asyncJobsModule },
  { name: 'upload', load: async () => (await import('./upload/index.ts')).uploadModule },
  { name: 'financial', load: async () => (await import('./financial/index.ts')).financialModule, needs: SESSION_PORTS },
  { name: 'credit-check', load: async () => (await import('./credit-check/index.ts')).creditCheckModule, needs: SESSION_PORTS },
  {
    name: 'sessions',
    load: async () => (await import('./sessions/index.ts')).sessionsModule,
    needs: SESSION_PORTS,
    storedRecords: { sessions: STORED_SESSION_SHAPE },
    provides: [
      { port: screeningSessions, load: async () => (await sessionsSide()).sessionsForScreening },
      { port: deepfakeSessions, load: async () => (await sessionsSide()).sessionsForDeepfake },
      { port: applicantIds, load: async () => (await sessionsSide()).applicantIdsForFinancial },
      { port: workflowSessions, load: async () => (await sessionsSide()).sessionsForWorkflows },
    ],
  },
  // The applicant's pages under /verify: the sessions area's, on their own so that its API needs no step engine.
  { name: 'hosted-pages', load: async () => (await import('./sessions/hosted-page.router.ts')).loadHostedPagesModule(), needs: SESSION_PORTS },
  // Its job kind is queued by the workflow steps and the applicant's pages too, and read by async-jobs.
  { name: 'screening', load: async () => (await import('./screening/index.ts')).screeningModule, needs: SESSION_PORTS, jobKinds: [adverseMediaJobKind] },
  { name: 'document', load: async () => (await import('./document/index.ts')).documentModule },
  { name: 'face', load: async () => (await import('./face/index.ts')).faceModule },
  { name: 'identity', load: async () => (await import('./identity/index.ts')).identityModule },
  { name: 'deepfake', load: async () => (await import('./deepfake/index.ts')).deepfakeModule, needs: SESSION_PORTS },
  { name: 'profiles', load: async () => (await import('./profiles/index.ts')).profilesModule },
  { name: 'credit-terms', load: async () => (await import('./credit-terms/index.ts')).creditTermsModule, needs: SESSION_PORTS },
  { name: 'igaming', load: async () => (await import('./igaming/index.ts')).igamingModule, needs: SESSION_PORTS },
  { name: 'aml', load: async () => (await import('./aml/index.ts')).amlModule, needs: SESSION_PORTS },
  { name: 're-verifications', load: async () => (await import('./re-verifications/index.ts')).reVerificationsModule, needs: SESSION_PORTS },
  { name: 'age-verification', load: async () => (await import('./age-verification/index.ts')).ageVerificationModule, needs: SESSION_PORTS },
  { name: 'workflows', load: async () => (await import('./workflows/index.ts')).workflowsModule },
  // The workflows' runs (the step engine and every step type), on their own so that a workflow's create or read needs none.
  {
    name: 'workflow-sessions',
    load: async () => (await import('./workflows/workflow-sessions.router.ts')).workflowSessionsModule,
    needs: SESSION_PORTS,
  },
  { name: 'control', load: async () => (await import('./control/index.ts')).controlModule, jobKinds: [testJobKind] },
  { name: 'console', load: async () => (await import('./console/console.router.ts')).consoleModule, needs: SESSION_PORTS },
];

/** Every area's stored-record shapes, for the store to check at start-up. */
export function storedRecordShapes(): Map<string, z.ZodType> {
  return new Map(AREAS.flatMap((area) => Object.entries(area.storedRecords ?? {})));
}

/** Every area's job kinds: the platform's job engine has them all from its start (src/sandbox.ts). */
export function declaredJobKinds(): JobKind[] {
  return AREAS.flatMap((area) => area.jobKinds ?? []);
}
