/**
 * Every resource area of the API, mounted by app.ts from this one list (then the control plane and the
 * console, mounted the same way). Adding an area = one folder + one line here + `npm run generate:routes`.
 * Each is imported on first use (src/areas.ts): a start evaluates none of them, only the small modules
 * their entries declare (stored-record shapes, job kinds: about 1 ms), which other areas use whichever
 * area is loaded first. What an area adds to the catalog and to coverage is data on its module
 * (`capabilities`), read in this order when either is first used.
 */
import type { z } from 'zod';
import type { JobKind } from './platform/jobs/jobs.ts';
import type { AreaEntry, SandboxModule } from './platform/sandbox-module.ts';
import { testJobKind } from './control/test-job.ts';
import { adverseMediaJobKind } from './screening/adverse-media.service.ts';
import { STORED_SESSION_SHAPE } from './sessions/stored-session-shape.ts';

/**
 * The ports the areas below sessions declare (what screening, deepfake and financial need of a session),
 * provided by the sessions area: connected once, before the first request of an area that may reach one
 * (itself, or through a workflow step or a session it creates) is answered, whichever area comes first.
 */
let portsConnected: Promise<void> | undefined;
function connectPorts(): Promise<void> {
  portsConnected ??= Promise.all([
    import('./sessions/area-ports.ts'),
    import('./screening/session-port.ts'),
    import('./deepfake/session-port.ts'),
    import('./financial/applicant-port.ts'),
  ]).then(([sessions, screening, deepfake, financial]) => {
    screening.screeningSessions.provide(sessions.sessionsForScreening);
    deepfake.deepfakeSessions.provide(sessions.sessionsForDeepfake);
    financial.applicantIds.provide(sessions.applicantIdsForFinancial);
  });
  return portsConnected;
}

async function withPorts(loading: Promise<SandboxModule>): Promise<SandboxModule> {
  const [module] = await Promise.all([loading, connectPorts()]);
  return module;
}

export const AREAS: readonly AreaEntry[] = [
  { name: 'auth', load: async () => (await import('./auth/index.ts')).authModule },
  { name: 'async-jobs', load: async () => (await import('./async-jobs/index.ts')).asyncJobsModule },
  { name: 'upload', load: async () => (await import('./upload/index.ts')).uploadModule },
  { name: 'financial', load: () => withPorts(import('./financial/index.ts').then((area) => area.financialModule)) },
  { name: 'credit-check', load: async () => (await import('./credit-check/index.ts')).creditCheckModule },
  {
    name: 'sessions',
    load: () => withPorts(import('./sessions/index.ts').then((area) => area.sessionsModule)),
    storedRecords: { sessions: STORED_SESSION_SHAPE },
  },
  // The applicant's pages under /verify: the sessions area's, on their own so that its API needs no step engine.
  { name: 'hosted-pages', load: () => withPorts(import('./sessions/hosted-page.router.ts').then((area) => area.hostedPagesModule)) },
  // Its job kind is queued by the workflow steps and the applicant's pages too, and read by async-jobs.
  { name: 'screening', load: () => withPorts(import('./screening/index.ts').then((area) => area.screeningModule)), jobKinds: [adverseMediaJobKind] },
  { name: 'document', load: async () => (await import('./document/index.ts')).documentModule },
  { name: 'face', load: async () => (await import('./face/index.ts')).faceModule },
  { name: 'identity', load: async () => (await import('./identity/index.ts')).identityModule },
  { name: 'deepfake', load: () => withPorts(import('./deepfake/index.ts').then((area) => area.deepfakeModule)) },
  { name: 'profiles', load: async () => (await import('./profiles/index.ts')).profilesModule },
  { name: 'credit-terms', load: async () => (await import('./credit-terms/index.ts')).creditTermsModule },
  { name: 'igaming', load: async () => (await import('./igaming/index.ts')).igamingModule },
  { name: 'aml', load: async () => (await import('./aml/index.ts')).amlModule },
  { name: 're-verifications', load: async () => (await import('./re-verifications/index.ts')).reVerificationsModule },
  { name: 'age-verification', load: async () => (await import('./age-verification/index.ts')).ageVerificationModule },
  { name: 'workflows', load: () => withPorts(import('./workflows/index.ts').then((area) => area.workflowsModule)) },
  { name: 'control', load: async () => (await import('./control/index.ts')).controlModule, jobKinds: [testJobKind] },
  { name: 'console', load: () => withPorts(import('./console/console.router.ts').then((area) => area.consoleModule)) },
];

/** Every area's stored-record shapes, for the store to check at start-up. */
export function storedRecordShapes(): Map<string, z.ZodType> {
  return new Map(AREAS.flatMap((area) => Object.entries(area.storedRecords ?? {})));
}

/** Every area's job kinds: the platform's job engine has them all from its start (src/sandbox.ts). */
export function declaredJobKinds(): JobKind[] {
  return AREAS.flatMap((area) => area.jobKinds ?? []);
}
