/**
 * iGaming: the self-exclusion registry (identity and face), the purge of anti-cheat enrolments, and the
 * real client's injection, VPN, IP-jurisdiction and anti-cheat analyses. Faces live in the shared face
 * registry (src/face-registry), which hosted sessions and workflow steps enrol into too.
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { IGAMING_MAGIC_VALUES } from './igaming.catalog.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { igamingRouter } from './igaming.router.ts';
import { IGAMING_CLIENT_ROUTES } from './igaming.routes.ts';
import { ipRangeSource } from './ip-coverage.ts';

export const igamingModule: SandboxModule = {
  name: 'igaming',
  router: () => igamingRouter,
  capabilities: [
    { catalog: { magicValues: IGAMING_MAGIC_VALUES, clientOperations: clientOperationEntries(IGAMING_CLIENT_ROUTES) }, coverage: [ipRangeSource] },
    // A selfie sent or stored (a file key).
    { decodesImages: ['analyzeAntiCheat'] },
  ],
};
