import type { JobKind } from '../platform/jobs/jobs.ts';

export const TEST_JOB_KIND = 'sandbox.echo';

/** The job kind of POST /__sandbox/jobs: its result echoes the input (declared in src/modules.ts). */
export const testJobKind: JobKind = {
  name: TEST_JOB_KIND,
  run: (input) => ({ result: { echo: input }, explanation: 'test job kind sandbox.echo: result echoes the input' }),
};
