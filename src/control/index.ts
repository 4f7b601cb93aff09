import type { SandboxModule } from '../platform/sandbox-module.ts';
import { controlRouter } from './control.router.ts';

/** The control plane (/__sandbox): its routes (its test job kind is declared in src/modules.ts). */
export const controlModule: SandboxModule = {
  name: 'control',
  router: () => controlRouter,
};
