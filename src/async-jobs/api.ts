/**
 * What other areas use of async jobs: the job's wire schema (the control plane's test job answers it).
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { AsyncJobSchema } from './async-jobs.schemas.ts';
