/**
 * Screening: adverse media (an async job), PEP and sanctions, title check, and the carrier checks (phone
 * ownership, phone trust, carrier age gate). Outcomes come from the inputs, deterministically, and every
 * outcome can be forced by a magic value listed in GET /__sandbox/catalog (magic-values.ts).
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { SCREENING_MAGIC_VALUES } from './magic-values.ts';
import { screeningRouter } from './screening.router.ts';

export const screeningModule: SandboxModule = {
  name: 'screening',
  router: () => screeningRouter,
  capabilities: [{ catalog: { magicValues: SCREENING_MAGIC_VALUES } }],
};
