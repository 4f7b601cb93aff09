import type { Platform } from '../platform/http/context.ts';
import { controlRouter } from './control.router.ts';
import { TEST_JOB_KIND } from './control.service.ts';

/** The control plane (/__sandbox): registers the test job kind and returns its router. */
export function controlPlane(platform: Platform) {
  platform.jobs.register({
    name: TEST_JOB_KIND,
    run: (input) => ({ result: { echo: input }, explanation: 'test job kind sandbox.echo: result echoes the input' }),
  });
  return controlRouter;
}
