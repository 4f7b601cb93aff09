import type { SandboxModule } from '../platform/sandbox-module.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { deepfakeRouter } from './deepfake.router.ts';
import { DEEPFAKE_ROUTES } from './deepfake.routes.ts';
import { DEEPFAKE_DERIVED_OUTCOMES, DEEPFAKE_MAGIC_WORDS } from './deepfake.service.ts';

/** Deepfake detection (real client, not in the spec): challenge, upload URLs, analyze. */
export const deepfakeModule: SandboxModule = {
  name: 'deepfake',
  router: () => deepfakeRouter,
  setup(platform) {
    platform.catalog.add('clientOperations', clientOperationEntries(DEEPFAKE_ROUTES));
    const endpoint = 'POST /v1/deepfake/analyze';
    platform.catalog.add('magicValues', [
      ...DEEPFAKE_MAGIC_WORDS.map(({ input, outcome, description }) => ({ endpoint, input: `challengeWord ${input}`, outcome, description })),
      ...DEEPFAKE_DERIVED_OUTCOMES.map((entry) => ({ endpoint, ...entry })),
    ]);
  },
};
