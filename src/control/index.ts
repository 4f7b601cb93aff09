import type { SandboxModule } from '../platform/sandbox-module.ts';
import { controlRouter } from './control.router.ts';
import { TEST_JOB_KIND } from './control.service.ts';

/** The control plane (/__sandbox): registers the test job kind; its routes. */
export const controlModule: SandboxModule = {
  name: 'control',
  router: () => controlRouter,
  attach(platform) {
    platform.jobs.register({
      name: TEST_JOB_KIND,
      run: (input) => ({ result: { echo: input }, explanation: 'test job kind sandbox.echo: result echoes the input' }),
    });
  },
};
